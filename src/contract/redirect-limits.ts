/**
 * The limits of the owner's redirects (docs/redirects.md), without zod: rendered pages follow
 * rules with them, and a public read must not load the schemas.
 */
import { MAX_BODY_BYTES } from "./limits";

export const REDIRECT_LIMITS = {
  /** Rules per site: each is one indexed row, so the count never slows a page. */
  perSite: 10_000,
  /** Characters of a path or a target URL. */
  chars: 2000,
  /** Rules followed from one request before the last target is answered (chains collapse to one hop). */
  hops: 10,
  /** A CSV import's body, in bytes (a JSON body's limit: 10,000 rules of ~100 bytes fit). */
  csvBytes: MAX_BODY_BYTES,
  /** Rules one list page holds. */
  page: 100,
} as const;
