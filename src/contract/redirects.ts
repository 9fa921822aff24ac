/**
 * The owner's redirects of rendered pages (docs/redirects.md): an old path of the site's host
 * answers 301 (or 302) to a new path or to another site. What the dashboard API accepts and
 * answers, and the limits both sides show.
 */
import { z } from "zod";
import { REDIRECT_LIMITS } from "./redirect-limits";
import { isHttpUrl } from "./urls";

export { REDIRECT_LIMITS } from "./redirect-limits";

/** A path of the host: `/old/page`, with no scheme, host or query (a request's query passes through). */
const fromPath = z
  .string()
  .trim()
  .min(1, "give the old path, e.g. /blog/old-post")
  .max(REDIRECT_LIMITS.chars)
  .regex(/^\/(?!\/)[^\s?#]*$/, "must be a path of your site starting with one / (e.g. /blog/old-post), without a query or #");

/** A path of the same host (`/new`, a query allowed) or an absolute http(s) URL of any site. */
const target = z
  .string()
  .trim()
  .min(1, "give the new path or URL")
  .max(REDIRECT_LIMITS.chars)
  .regex(/^(\/(?!\/)|https?:\/\/[^\s/?#]+)[^\s]*$/, "must be a path starting with / or an http(s):// URL")
  .refine((to) => to.startsWith("/") || isHttpUrl(to), "is not a URL a browser can open");

export const redirectInputSchema = z.strictObject({
  from: fromPath.describe(
    "The old path on the site's host, e.g. `/blog/old-post`. A trailing `/` is ignored; `%`-escapes and letter case are kept.",
  ),
  to: target.describe("Where it leads: a path of the same host (`/blog/new-post`) or an absolute URL (`https://shop.example.com/`)."),
  status: z
    .union([z.literal(301), z.literal(302)])
    .default(301)
    .describe("301 (moved for good: search engines move the page's ranking) or 302 (for now). Default 301."),
});
export type RedirectInput = z.infer<typeof redirectInputSchema>;

export const RedirectView = z.strictObject({
  id: z.string().describe("`rd_…`"),
  from: z.string(),
  to: z.string(),
  status: z.union([z.literal(301), z.literal(302)]),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const RedirectList = z.strictObject({
  redirects: z.array(RedirectView).describe(`Sorted by \`from\`; at most ${REDIRECT_LIMITS.page} a page.`),
  total: z.int().describe("Rules matching `q` (all rules without it)."),
  page: z.int(),
  max: z.int().describe("How many rules the site may hold."),
  automatic: z.int().describe("Old item slugs that redirect to the item's current page on their own (not listed here)."),
});

export const RedirectImportResult = z.strictObject({
  added: z.int(),
  updated: z.int(),
  unchanged: z.int(),
});
