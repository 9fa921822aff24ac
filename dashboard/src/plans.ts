import type { Plan } from "./types";

/** What each plan adds, in the words the Plan screen and the plan gates use. */
export const PLAN_FEATURES: { label: string; from: Plan }[] = [
  // Free is Starter's features with fewer sites and people (src/contract/plans.ts).
  { label: "Collections, items and media; the content API and the embed script", from: "free" },
  { label: "Filters and text search in lists", from: "pro" },
  { label: "Semantic search and related items", from: "pro" },
  {
    label: "SEO Engine: pages rendered on the server with per-item titles, meta tags and JSON-LD, sitemap.xml and feeds, custom domains",
    from: "seo_engine",
  },
];

const ORDER: Plan[] = ["free", "starter", "pro", "seo_engine"];
export const includes = (plan: Plan, from: Plan): boolean => ORDER.indexOf(plan) >= ORDER.indexOf(from);
