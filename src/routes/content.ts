import { cachedRead, versionedKey } from "../edge/cache";
import { siteMeta } from "../edge/site-meta";
import { ApiError } from "../http/errors";
import { entitlements } from "../plans";
import { usesAdvancedListParams } from "../shared/list-params";
import { siteStub } from "../stubs";
import { planRequired } from "../../actors/site/public-routes";
import { fromSite, internalRequest } from "./forward";

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
export async function contentApi(request: Request, env: Env, ctx: ExecutionContext, token: string): Promise<Response> {
  const meta = await siteMeta(env, token);
  if (!meta) throw new ApiError("not_found", "Unknown site token.");
  const url = new URL(request.url);
  if (usesAdvancedListParams(url.searchParams.keys()) && !entitlements(meta.plan).features.advancedLists) throw planRequired();

  const key = versionedKey(request, meta.siteId, meta.version);
  const { response } = await cachedRead(request, ctx, key, async () =>
    fromSite(meta.siteId, await siteStub(env, meta.siteId).fetch(internalRequest(request))),
  );
  return withCors(response);
}

export function withCors(response: Response): Response {
  const out = new Response(response.body, response);
  for (const [k, v] of Object.entries(CORS_HEADERS)) out.headers.set(k, v);
  return out;
}
