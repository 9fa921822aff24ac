import { RENDER_HEADER } from "../contract/headers";
import { cachedStream, renderKey } from "../edge/cache";
import { siteMeta } from "../edge/site-meta";
import { ApiError } from "../contract/errors";
import { entitlements, planRequired } from "../contract/plans";
import { siteStub } from "../stubs";
import { noteSiteRefusal } from "../limits/rate-limit";
import { pageClient } from "../limits/proxy-key";
import { readPolicies } from "../limits/site-limits-config";
import { CLIENT_HEADER } from "../contract/headers";
import { keptRefusal, withPolicy } from "../edge/kept-refusal";
import { fromSite, internalRequest, noteSite, pageRequest, pageResponse } from "../edge/forward";
import { parseMediaPath } from "../media/urls";

/**
 * A page request from the customer's reverse proxy (`x-service-token`),
 * rendered by the site object and cached at the edge under the site's cache
 * version. Only `page` of the query string matters, so other parameters
 * (tracking tags) share one cache entry.
 */
export async function renderedPage(request: Request, env: Env, ctx: ExecutionContext, token: string): Promise<Response> {
  const meta = await siteMeta(env, token, ctx);
  if (!meta) throw new ApiError("not_found", "Unknown service token.");
  // The site's stored files through the customer's proxy route as well.
  const media = parseMediaPath(new URL(request.url).pathname, false);
  if (media) return (await import("../media/serve-route")).serveMedia(request, env, ctx, meta.siteId, media);
  if (!entitlements(meta.plan).features.serverRendering) throw planRequired("serverRendering");
  if (request.method !== "GET") throw new ApiError("method_not_allowed", "Rendered pages answer GET and HEAD.");
  const key = renderKey(meta, "", new URL(request.url));
  // `ours`: a revalidation's validator when this isolate holds an older version of the page.
  const { response } = await cachedStream(request, ctx, key, async (ours) => {
    // A miss counts against the site's `reads` for the visitor the signed proxy names (src/limits/proxy-key.ts).
    const client = await pageClient(request, env, meta.siteId);
    const kept = keptRefusal(READS, `${client}|${meta.siteId}`);
    if (kept) return kept;
    // Read only by the edge cache, which drops our headers from what it keeps and answers.
    const answer = await siteStub(env, meta.siteId).fetch(
      pageRequest(request, { ...ours, [RENDER_HEADER]: token, [CLIENT_HEADER]: client }),
    );
    return pageResponse(noteSite(meta.siteId, await noteSiteRefusal(answer, `${client}|${meta.siteId}`)));
  });
  return withPolicy(response, readPolicies(env, meta.plan, false));
}

/** The builder's publish webhook goes straight to the site object, which checks the secret. */
export async function ssrWebhook(request: Request, env: Env, siteId: string): Promise<Response> {
  return fromSite(siteId, await siteStub(env, siteId).fetch(internalRequest(request)));
}

const READS = ["reads"] as const;
