import type { PlanOffer } from "./types";

/**
 * What each plan adds, in the words the Plan screen and the plan gates use, each read from the
 * plan's features as the service answers them (`planChange.plans`), so the words never claim
 * what the service does not allow.
 */
export const PLAN_FEATURES: { label: string; has: (o: PlanOffer) => boolean }[] = [
  { label: "Collections, items and media; the content API and the embed script", has: () => true },
  { label: "Filters and text search in lists", has: (o) => o.features.advancedLists },
  { label: "Semantic search and related items", has: (o) => o.flags.aiSearch },
  {
    label: "SEO Engine: pages rendered on the server with per-item titles, meta tags and JSON-LD, sitemap.xml and feeds, custom domains",
    has: (o) => o.features.serverRendering,
  },
];

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const bytes = (n: number): string => (n >= GB ? `${+(n / GB).toFixed(1)} GB` : `${Math.round(n / MB)} MB`);

type Limit = keyof PlanOffer["limits"];
const LIMIT_WORDS: Record<Limit, (n: number) => string> = {
  sites: (n) => (n === 1 ? "1 site" : `${n} sites`),
  members: (n) => `${n} people`,
  locales: (n) => (n === 1 ? "1 language a site" : `${n} languages a site`),
  mediaStorageBytes: (n) => `${bytes(n)} of media`,
};
const LIMITS = Object.keys(LIMIT_WORDS) as Limit[];

/** A plan's limits in words ("3 sites"), in the order the cards show them; the cards say once that invitations count. */
export const limitWords = (o: PlanOffer): string[] =>
  LIMITS.map((k) => LIMIT_WORDS[k](o.limits[k]) + (k === "members" ? " (pending invitations count)" : ""));

/** "$9 a month", in the deployment's currency; null when the operator set no price. */
export function priceWords(o: PlanOffer, currency: string): string | null {
  if (o.pricePerMonth === null) return null;
  if (o.pricePerMonth === 0) return "Free of charge";
  // Whole prices without cents ("$9"), others with them ("$9.50").
  const cents = Number.isInteger(o.pricePerMonth) ? 0 : 2;
  const money = new Intl.NumberFormat("en", { style: "currency", currency, minimumFractionDigits: cents, maximumFractionDigits: 2 }).format(
    o.pricePerMonth,
  );
  return `${money} a month`;
}

/**
 * What moving from one plan to another changes, line by line, for the confirmation: features
 * gained or lost, and limits raised or lowered. Nothing is deleted by a move; the service refuses
 * one that the workspace's sites or people would not fit.
 */
export function changeWords(from: PlanOffer, to: PlanOffer): { gained: string[]; lost: string[] } {
  const gained: string[] = [];
  const lost: string[] = [];
  for (const f of PLAN_FEATURES) {
    if (f.has(to) && !f.has(from)) gained.push(f.label);
    if (f.has(from) && !f.has(to)) lost.push(f.label);
  }
  for (const k of LIMITS) {
    const [was, will] = [from.limits[k], to.limits[k]];
    if (was === will) continue;
    (will > was ? gained : lost).push(`${will > was ? "Up to" : "Only"} ${LIMIT_WORDS[k](will)} (now ${LIMIT_WORDS[k](was)})`);
  }
  return { gained, lost };
}
