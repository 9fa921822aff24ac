import { cachedRead, edgeHit } from "../edge/cache";
import { type ContentUrl, contentUrl } from "../edge/content-key";
import { knownSiteMeta, type SiteMeta, siteMeta } from "../edge/site-meta";
import { ApiError } from "../contract/errors";
import { setFrontHeaders, withFrontHeaders } from "../http/response-headers";
import { toErrorResponse } from "../http/errors";
import { entitlements, type Plan, planRequired } from "../contract/plans";
import { siteStub } from "../stubs";
import { contentReadRequest, noteSite } from "./forward";
import { RATELIMIT_POLICY_HEADER, type RateLimitName } from "../contract/limits";
import { clientKey } from "../limits/client";
import { enforce, policyItem, withPolicies } from "../limits/rate-limit";
import { PUBLIC_CACHE_CONTROL } from "../contract/cache-control";

export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  "access-control-allow-headers": "if-none-match, content-type",
  "access-control-expose-headers": "etag, x-cache",
  "access-control-max-age": "86400",
};

/**
 * What every content API answer from the cache carries: CORS, and the documented contract's
 * Cache-Control (shared caches may keep it; the service invalidates it, docs/caching.md).
 */
const CONTENT_HEADERS = { ...CORS_HEADERS, "cache-control": PUBLIC_CACHE_CONTROL };

/**
 * The public content API (`GET /v1/:token/...`). The plan check runs before the cache is
 * consulted, so a refused call is never served from (or stored in) the cache. Lists and
 * items carry the site object's ETag (hashed once per version there, and what lets it answer
 * "unchanged" to a revalidation); search answers are hashed here. Null: not a content read.
 */
export async function contentApi(request: Request, env: Env, ctx: ExecutionContext): Promise<Response | null> {
  const read = contentUrl(request.url);
  if (!read) return null;
  const meta = await siteMeta(env, read.token);
  if (!meta) throw new ApiError("not_found", "Unknown site token.");
  const refused = planRefusal(meta.plan, read);
  if (refused) throw refused;
  return readThrough(request, env, ctx, read, meta);
}

/**
 * A GET of a site whose memo this isolate holds, its plan allowing the read, that the memory
 * tier does not hold (a miss, a stale answer, a shared read): the edge cache and the site
 * object, without the router, the body guard and the full path's second wrapping (src/index.ts
 * `full`). The answer carries what the full path adds (CORS, the rate-limit policy, the front
 * headers), the policy as a hit of the same URL names it (`policyOf`).
 */
export async function contentMiss(request: Request, env: Env, ctx: ExecutionContext, read: ContentUrl, meta: SiteMeta): Promise<Response> {
  let response: Response;
  try {
    response = await readThrough(request, env, ctx, read, meta);
  } catch (err) {
    response = withCors(toErrorResponse(err));
  }
  return withFrontHeaders(withPolicies(response, [policyOf(read)]), read.https, true);
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The read through the edge cache; a miss asks the site object (and counts against the client's `reads` or `search`). */
async function readThrough(request: Request, env: Env, ctx: ExecutionContext, read: ContentUrl, meta: SiteMeta): Promise<Response> {
  const { response } = await cachedRead(
    request,
    ctx,
    { base: read.base, siteId: meta.siteId, ...versionOf(meta, read) },
    // Only a read that misses the cache costs the site object (and, for search, the model) work: only it counts.
    async (ours) => {
      await enforce(env, policyOf(read), () => `${clientKey(request, env)}|${meta.siteId}`);
      // Read only by the edge cache, which drops our headers from what it keeps and answers.
      return noteSite(meta.siteId, await siteStub(env, meta.siteId).fetch(contentReadRequest(request, ours ?? NO_HEADERS)));
    },
    read.needs === "aiSearch" ? "body" : "origin",
    CONTENT_HEADERS,
  );
  // Answers from the cache carry the CORS headers already; errors and uncacheable answers get them here.
  return response.headers.has("access-control-allow-origin") ? response : withCors(response);
}

/**
 * A content read this isolate can answer at once: the site's plan and version are in its
 * memo and the answer of that version is in its memory tier. Anything else (a miss, a stale
 * answer, a refusal, an unknown token) is null and goes the full way through `contentApi`.
 * Every visitor's read of a popular URL ends here: no router, no awaits, nothing parsed twice.
 */
export function contentHit(request: Request, read: ContentUrl): Response | null {
  const meta = knownSiteMeta(read.token, read.siteId);
  if (!meta || planRefusal(meta.plan, read)) return null;
  const search = read.needs === "aiSearch";
  return edgeHit(
    request,
    read.base,
    search ? meta.searchVersion : meta.version,
    CONTENT_HEADERS,
    FRONT[search ? "search" : "reads"][read.https ? 1 : 0],
  );
}

/** The version a read is cached at: search and related answers follow the search index too (src/contract/cache-version.ts). */
function versionOf(meta: SiteMeta, read: ContentUrl): { version: number; previous: SiteMeta["previous"] } {
  return read.needs === "aiSearch"
    ? { version: meta.searchVersion, previous: meta.searchPrevious }
    : { version: meta.version, previous: meta.previous };
}

/** Semantic search and related items count against `search`; every other content read against `reads`. */
export function policyOf(read: ContentUrl): "search" | "reads" {
  return read.read === "search" || read.read === "related" ? "search" : "reads";
}

// What the front Worker adds to every answer on the service's own hosts (src/http/response-headers.ts),
// and the rate-limit policy that governs the read: baked once into a held answer.
const front = (https: boolean, policy: RateLimitName) => (headers: Headers) => {
  setFrontHeaders(headers, https, true);
  headers.set(RATELIMIT_POLICY_HEADER, policyItem(policy));
};
const FRONT = {
  reads: [front(false, "reads"), front(true, "reads")],
  search: [front(false, "search"), front(true, "search")],
} as const;

/** Semantic search and related items need `flags.aiSearch`; filters and search in the other reads, `advancedLists`. */
export function planRefusal(plan: Plan, read: ContentUrl): ApiError | null {
  if (read.needs === "aiSearch") return entitlements(plan).flags.aiSearch ? null : planRequired("aiSearch");
  if (read.needs === "advancedLists") return entitlements(plan).features.advancedLists ? null : planRequired("advancedLists");
  return null;
}

export function withCors(response: Response): Response {
  const out = new Response(response.body, response);
  for (const [k, v] of Object.entries(CORS_HEADERS)) out.headers.set(k, v);
  return out;
}
