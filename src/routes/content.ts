import { cachedRead, versionedKey } from "../edge/cache";
import { siteMeta } from "../edge/site-meta";
import { ApiError } from "../http/errors";
import { entitlements, type Plan, planRequired } from "../plans";
import { usesAdvancedListParams } from "../shared/list-params";
import { siteStub } from "../stubs";
import { fromSite, internalRequest } from "./forward";
import { PUBLIC_CACHE_CONTROL } from "../../actors/site/public-routes";

export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  "access-control-allow-headers": "if-none-match, content-type",
  "access-control-expose-headers": "etag, x-cache",
  "access-control-max-age": "86400",
};

/**
 * The public content API. The plan check runs before the cache is consulted,
 * so a refused call is never served from (or stored in) the cache.
 */
export async function contentApi(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  token: string,
  refuse: (plan: Plan, url: URL) => ApiError | null = listPlanCheck,
): Promise<Response> {
  const meta = await siteMeta(env, token);
  if (!meta) throw new ApiError("not_found", "Unknown site token.");
  const refused = refuse(meta.plan, new URL(request.url));
  if (refused) throw refused;

  const key = versionedKey(request, meta.siteId, meta.version);
  const { response } = await cachedRead(request, ctx, key, async () =>
    fromSite(meta.siteId, await siteStub(env, meta.siteId).fetch(internalRequest(request))),
  );
  const out = withCors(response);
  // The documented contract: shared caches may keep a content API answer, the service invalidates it
  // (docs/caching.md). A 304 carries what its 200 would.
  if (out.status === 200 || out.status === 304) out.headers.set("cache-control", PUBLIC_CACHE_CONTROL);
  return out;
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
