/** Limits of the API that clients see (in the document and in error messages). */
import type { Plan } from "./plans";

/** A JSON request body, read in full before anything else sees it. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * The most an item may hold as stored, in UTF-8 bytes: its values as JSON, its slug and the
 * search text of its indexed text fields, which share one SQLite row. Durable Object SQLite
 * refuses a row over 2 MB in production (the local runtime stores far larger ones), and what is
 * left of the 2 MB holds the row's other columns, its revision's (actor, changed keys, note) and
 * the media its public JSON expands. A request body is at most 1 MB, but merges (PATCH, pending
 * changes, an import updating an item) grow an item past it: every write of an item's values
 * checks this first and answers 413 `payload_too_large` `{limit: "item", max, bytes, slug}`.
 */
export const MAX_ITEM_BYTES = 1_750_000;
/** Items in one batch create. */
export const MAX_BATCH = 1000;
/** `limit` of semantic search: its default and its most. */
export const SEARCH_LIMIT = { fallback: 10, max: 50 };
/** Far more than a search box holds; a longer `q` is refused before the language check or the model sees it. */
export const MAX_QUERY_CHARS = 1000;
/** `limit` of related items: its default and its most. */
export const RELATED_LIMIT = { fallback: 5, max: 20 };
/** The dashboard's item-table `search` text, in characters. */
export const DASHBOARD_SEARCH_MAX = 200;
/** A publish webhook's body. */
export const WEBHOOK_MAX_BYTES = 1024 * 1024;

/**
 * Rate limits counted by a Workers Rate Limiting binding (docs/rate-limits.md; `[[ratelimits]]`
 * in wrangler.toml with the same `limit` and `period`; Miniflare runs them locally): approximate
 * and per Cloudflare location, no remaining count, so answers carry `RateLimit-Policy` but never
 * `RateLimit`. They guard what strangers can reach before any credential is known. Windows
 * (`period`) can only be 10 or 60 seconds on the binding.
 */
export const RATE_LIMITS = {
  /** Page capture and refresh: each fetches the customer's page. */
  capture: { binding: "RL_CAPTURE", quota: 60, window: 60, per: "site" },
  /** Wrong operator tokens (a right one is not counted). */
  operator: { binding: "RL_OPERATOR", quota: 120, window: 60, per: "client" },
  /** The site builder's publish webhook. */
  webhook: { binding: "RL_WEBHOOK", quota: 30, window: 60, per: "client and site" },
  /** Workspace and account writes (not a site's), per credential. */
  account: { binding: "RL_WRITES", quota: 600, window: 60, per: "credential" },
} as const;

/**
 * Limits the site object counts itself, exactly, per site and by plan (docs/rate-limits.md;
 * actors/site/limits/). Numbers are per `SITE_LIMIT_WINDOW` seconds. `reads`: content API reads
 * and rendered pages that miss the edge cache, per site; a client alone may use all of it, and
 * while other clients read too, at most `share` of it. `search`: calls of the embedding model
 * (a query the site has not embedded yet), the same way. `writes`: dashboard writes per
 * credential; `siteWrites`: all writes of the site together (what protects the object).
 */
export const SITE_LIMIT_WINDOW = 60;
export const SITE_LIMITS = {
  reads: { free: 6_000, starter: 12_000, pro: 24_000, seo_engine: 48_000 },
  search: { free: 0, starter: 0, pro: 600, seo_engine: 1_200 },
  writes: { free: 3_000, starter: 6_000, pro: 12_000, seo_engine: 12_000 },
  siteWrites: { free: 12_000, starter: 12_000, pro: 12_000, seo_engine: 12_000 },
} as const satisfies Record<string, Record<Plan, number>>;
/** The part of a site's `reads` or `search` one client may use while other clients use it too. */
export const SITE_LIMIT_SHARE = 0.5;
export type SiteLimitName = keyof typeof SITE_LIMITS;

/**
 * A deployment's own numbers (wrangler var `RATE_LIMITS`, JSON): any of SITE_LIMITS' policies by
 * plan, and `share`. `RATE_LIMIT_SCALE` multiplies every site limit (the load-test switch).
 * Checked by hand (src/limits/site-limits-config.ts): every public read names the limits, and
 * zod is not evaluated at start-up.
 */
export type SiteLimitsOverride = Partial<Record<SiteLimitName, Partial<Record<Plan, number>>>> & { share?: number };

export type RateLimitName = keyof typeof RATE_LIMITS;

/** Sign-in attempts (exact, a Durable Object): free wrong keys per client and target, forgotten after a day. */
export const SIGN_IN_POLICY = { name: "sign-in", quota: 3, window: 86_400 } as const;

/** Header names of draft-ietf-httpapi-ratelimit-headers-11. */
export const RATELIMIT_POLICY_HEADER = "ratelimit-policy";
export const RATELIMIT_HEADER = "ratelimit";

/** The media library accepts these types, decided from a file's own bytes (never its name or Content-Type). */
export const MEDIA_TYPES = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/svg+xml",
  "video/mp4",
  "video/webm",
  "application/pdf",
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

const MiB = 1024 * 1024;

/**
 * Uploads (docs/media.md "Media uploads"). Over one: 413 `payload_too_large` with `details.limit` naming it,
 * before the body is read when Content-Length already says so, otherwise as soon as it is crossed;
 * nothing partial is kept. A request is capped at 100 MiB because Cloudflare refuses larger bodies
 * on Free and Pro zones before the Worker runs (locally nothing would).
 */
export const MEDIA_LIMITS = {
  requestBytes: 100 * MiB,
  bytes: { image: 20 * MiB, svg: 1 * MiB, pdf: 20 * MiB, video: 95 * MiB },
  /** Per image, from its header, before anything decodes it. */
  maxPixels: 50_000_000,
  maxSide: 12_000,
  filesPerRequest: 20,
  altChars: 1000,
  /** Originals by plan, for all the sites of a workspace together; variants do not count. */
  storageBytes: { free: 250 * MiB, starter: 1024 * MiB, pro: 10 * 1024 * MiB, seo_engine: 50 * 1024 * MiB },
  /** A stalled upload is cut after the usual idle time; the whole of one may take this long. */
  uploadTotalMs: 15 * 60_000,
  /** Copying media added by URL into the library: one deadline for the fetch (redirects, headers, last byte), and its redirects. */
  copyTimeoutMs: 60_000,
  copyRedirects: 5,
} as const;

/** Widths a stored image is offered in (never wider than the original); larger originals are served at most this wide. */
export const MEDIA_VARIANT_WIDTHS = [320, 640, 960, 1280, 1920] as const;
export const MEDIA_MAX_SERVED_WIDTH = 2000;
/** The Images binding refuses AVIF output larger than this on a side. */
export const MEDIA_AVIF_MAX_WIDTH = 1200;

/**
 * Invitation mails (docs/accounts.md "Invitation mail"): how many the service mails in 24 hours,
 * counted per workspace (by plan), per inviting account (over all its workspaces) and per
 * recipient address (over all workspaces). Far above what a team inviting its people meets, far
 * below what would make the service's own sender useful to someone mailing strangers. An
 * invitation over a limit is still made (its link is shown to the inviter), only not mailed.
 */
export const INVITATION_MAIL_LIMITS = {
  windowMs: 86_400_000,
  perWorkspace: { free: 20, starter: 30, pro: 100, seo_engine: 150 },
  perInviter: 100,
  perRecipient: 3,
} as const satisfies { windowMs: number; perWorkspace: Record<Plan, number>; perInviter: number; perRecipient: number };

/** The longest page address (origin and path) the embed script's report of a rendered widget keeps. */
export const SEEN_PAGE_MAX = 500;

/** The most media ids one `GET /sites/:siteId/media?ids=` names (a page of the items table's thumbnails). */
export const MEDIA_IDS_MAX = 100;
