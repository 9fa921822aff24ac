/**
 * The schema.org types an item page's JSON-LD can describe (docs/rich-results.md), without zod:
 * the renderer and the SEO Engine's report read them on paths that must not load the schema
 * library at start-up.
 */
export const SCHEMA_TYPES = [
  "Article",
  "BlogPosting",
  "NewsArticle",
  "Product",
  "JobPosting",
  "Event",
  "Recipe",
  "FAQPage",
  "none",
] as const;
/** `none` writes no item JSON-LD but the breadcrumbs. */
export type SchemaType = (typeof SCHEMA_TYPES)[number];
