/** Limits of the API that clients see (in the document and in error messages). */

/** A JSON request body, read in full before anything else sees it. */
export const MAX_BODY_BYTES = 1024 * 1024;
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
 * Rate limits (README "Rate limits"). Each counted policy is a Workers Rate Limiting binding
 * (`[[ratelimits]]` in wrangler.toml, with the same `limit` and `period`; Miniflare runs them
 * locally): approximate and per Cloudflare location, no remaining count, so answers carry
 * `RateLimit-Policy` but never `RateLimit`. Sign-in attempts are counted exactly by a Durable
 * Object (actors/sign-in-throttle.ts), so they also carry `RateLimit` where the count is known.
 * Windows (`period`) can only be 10 or 60 seconds on the binding.
 */
export const RATE_LIMITS = {
  /** Content API reads and rendered pages that miss the edge cache (cached answers are free). */
  reads: { binding: "RL_READS", quota: 300, window: 60, per: "client and site" },
  /** Semantic search and related items that miss the edge cache (each one embeds a query). */
  search: { binding: "RL_SEARCH", quota: 30, window: 60, per: "client and site" },
  /** Every dashboard write (any method but GET/HEAD under /sites, /workspaces). */
  writes: { binding: "RL_WRITES", quota: 60, window: 60, per: "client and site" },
  /** Page capture and refresh: each fetches the customer's page. */
  capture: { binding: "RL_CAPTURE", quota: 10, window: 60, per: "site" },
  /** Every request that presents the operator's Bearer token (right or wrong). */
  operator: { binding: "RL_OPERATOR", quota: 120, window: 60, per: "client" },
  /** The site builder's publish webhook. */
  webhook: { binding: "RL_WEBHOOK", quota: 10, window: 60, per: "client and site" },
} as const;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** Sign-in attempts (exact, a Durable Object): free wrong keys per client and target, forgotten after a day. */
export const SIGN_IN_POLICY = { name: "sign-in", quota: 3, window: 86_400 } as const;

/** Header names of draft-ietf-httpapi-ratelimit-headers-11. */
export const RATELIMIT_POLICY_HEADER = "ratelimit-policy";
export const RATELIMIT_HEADER = "ratelimit";
