import { cachedRead, type EtagSource, versionedKey } from "../edge/cache";
import { siteMeta } from "../edge/site-meta";
import { ApiError } from "../contract/errors";
import { entitlements, type Plan, planRequired } from "../contract/plans";
import { usesAdvancedListParams } from "../shared/list-params";
import { siteStub } from "../stubs";
import { fromSite, internalRequest } from "./forward";
import type { RateLimitName } from "../contract/limits";
import { clientKey } from "../limits/client";
import { enforce } from "../limits/rate-limit";
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
 * The public content API. The plan check runs before the cache is consulted,
 * so a refused call is never served from (or stored in) the cache. Lists and
 * items carry the site object's ETag (hashed once per version there, and what
 * lets it answer "unchanged" to a revalidation); search answers are hashed here.
 */
export async function contentApi(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  token: string,
  refuse: (plan: Plan, url: URL) => ApiError | null = listPlanCheck,
  etag: EtagSource = "origin",
  policy: RateLimitName = "reads",
): Promise<Response> {
  const meta = await siteMeta(env, token);
  if (!meta) throw new ApiError("not_found", "Unknown site token.");
  const refused = refuse(meta.plan, new URL(request.url));
  if (refused) throw refused;

  const { response } = await cachedRead(
    request,
    ctx,
    versionedKey(request, meta),
    // Only a read that misses the cache costs the site object (and, for search, the model) work: only it counts.
    async (ours) => {
      await enforce(env, policy, `${clientKey(request)}|${meta.siteId}`);
      return fromSite(meta.siteId, await siteStub(env, meta.siteId).fetch(internalRequest(request, ours)));
    },
    etag,
    CONTENT_HEADERS,
  );
  // Answers from the cache carry the CORS headers already; errors and uncacheable answers get them here.
  return response.headers.has("access-control-allow-origin") ? response : withCors(response);
}

function listPlanCheck(plan: Plan, url: URL): ApiError | null {
  return usesAdvancedListParams(url.searchParams.keys()) && !entitlements(plan).features.advancedLists
    ? planRequired("advancedLists")
    : null;
}

/** Semantic search and related items: the whole endpoint needs `flags.aiSearch`. */
export function searchPlanCheck(plan: Plan): ApiError | null {
  return entitlements(plan).flags.aiSearch ? null : planRequired("aiSearch");
}

export function withCors(response: Response): Response {
  const out = new Response(response.body, response);
  for (const [k, v] of Object.entries(CORS_HEADERS)) out.headers.set(k, v);
  return out;
}
