import { cachedRead, edgeHit } from "../edge/cache";
import { type ContentUrl, contentUrl } from "../edge/content-key";
import { knownSiteMeta, type SiteMeta, siteMeta } from "../edge/site-meta";
import { ApiError } from "../contract/errors";
import { setFrontHeaders, withFrontHeaders } from "../http/response-headers";
import { toErrorResponse } from "../http/errors";
import { entitlements, type Plan, planRequired } from "../contract/plans";
import { siteStub } from "../stubs";
import { contentReadRequest, noteSite } from "../edge/forward";
import { RATELIMIT_POLICY_HEADER } from "../contract/limits";
import { CLIENT_HEADER } from "../contract/headers";
import { clientKey } from "../limits/client";
import { noteSiteRefusal } from "../limits/rate-limit";
import { readPolicies } from "../limits/site-limits-config";
import { keptRefusal, withPolicy } from "../edge/kept-refusal";
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
  return named(await readThrough(request, env, ctx, read, meta), env, meta, read);
}

/**
 * A GET of a site whose memo this isolate holds, its plan allowing the read, that the memory
 * tier does not hold (a miss, a stale answer, a shared read): the edge cache and the site
 * object, without the router, the body guard and the full path's second wrapping (src/index.ts
 * `full`). The answer carries what the full path adds (CORS, the rate-limit policy, the front
 * headers), the policy as a hit of the same URL names it (`named`).
 */
export async function contentMiss(request: Request, env: Env, ctx: ExecutionContext, read: ContentUrl, meta: SiteMeta): Promise<Response> {
  let response: Response;
  try {
    response = await readThrough(request, env, ctx, read, meta);
  } catch (err) {
    response = withCors(toErrorResponse(err));
  }
  return withFrontHeaders(named(response, env, meta, read), read.https, true);
}

/** The answer naming the site limits a miss of it counts against, with the site's plan's numbers. */
function named(response: Response, env: Env, meta: SiteMeta, read: ContentUrl): Response {
  return withPolicy(response, readPolicies(env, meta.plan, read.read === "search"));
}

/**
 * The read through the edge cache. A miss asks the site object, which counts it against the
 * site's `reads` (and a new search query against `search`) for this client (CLIENT_HEADER); a
 * refusal it gives is kept here for the client until its Retry-After (src/routing/refusals.ts).
 */
async function readThrough(request: Request, env: Env, ctx: ExecutionContext, read: ContentUrl, meta: SiteMeta): Promise<Response> {
  const { response } = await cachedRead(
    request,
    ctx,
    { base: read.base, siteId: meta.siteId, ...versionOf(meta, read) },
    // Only a read that misses the cache costs the site object (and, for search, the model) work: only it counts.
    async (ours) => {
      const client = clientKey(request, env);
      const kept = keptRefusal(policiesOf(read), `${client}|${meta.siteId}`, CORS_HEADERS);
      if (kept) return kept;
      // Read only by the edge cache, which drops our headers from what it keeps and answers.
      const answer = await siteStub(env, meta.siteId).fetch(contentReadRequest(request, { ...ours, [CLIENT_HEADER]: client }));
      return noteSite(meta.siteId, await noteSiteRefusal(answer, `${client}|${meta.siteId}`));
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
export function contentHit(request: Request, env: Env, read: ContentUrl): Response | null {
  const meta = knownSiteMeta(read.token, read.siteId);
  if (!meta || planRefusal(meta.plan, read)) return null;
  const search = read.needs === "aiSearch";
  return edgeHit(
    request,
    read.base,
    search ? meta.searchVersion : meta.version,
    CONTENT_HEADERS,
    front(readPolicies(env, meta.plan, read.read === "search"), read.https),
  );
}

/** The version a read is cached at: search and related answers follow the search index too (src/contract/cache-version.ts). */
function versionOf(meta: SiteMeta, read: ContentUrl): { version: number; previous: SiteMeta["previous"] } {
  return read.needs === "aiSearch"
    ? { version: meta.searchVersion, previous: meta.searchPrevious }
    : { version: meta.version, previous: meta.previous };
}

/** The site limits a content read's miss may be refused by: `reads`, and for a search also `search`. */
export function policiesOf(read: ContentUrl): readonly ("reads" | "search")[] {
  return read.read === "search" ? SEARCH_POLICIES : READ_POLICIES;
}
const READ_POLICIES = ["reads"] as const;
const SEARCH_POLICIES = ["reads", "search"] as const;

// What the front Worker adds to every answer on the service's own hosts (src/http/response-headers.ts),
// and the rate-limit policies that govern the read: one function per policy value and scheme,
// baked once into a held answer.
type Front = (headers: Headers) => void;
const fronts = new Map<string, Front>();
function front(policy: string, https: boolean): Front {
  const k = `${https ? 1 : 0}${policy}`;
  let f = fronts.get(k);
  if (!f) {
    f = (headers: Headers) => {
      setFrontHeaders(headers, https, true);
      headers.set(RATELIMIT_POLICY_HEADER, policy);
    };
    fronts.set(k, f);
  }
  return f;
}

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
