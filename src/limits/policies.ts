/**
 * Which rate-limit policies govern a request, for the `RateLimit-Policy` field of its answer
 * (whatever the status): the same classification the routes enforce (README "Rate limits").
 */
import type { RateLimitName } from "../contract/limits";
import { siteIdOfAdminKey } from "../contract/ids";

const CONTENT_SEARCH = /^\/v1\/[^/]+\/(?:search|collections\/[^/]+\/items\/[^/]+\/related)$/;
const CAPTURE = /^\/sites\/[^/]+\/ssr\/(?:capture|refresh)$/;

export function policiesFor(request: Request, path: string, serviceHost: boolean): readonly RateLimitName[] {
  if (!serviceHost || request.headers.has("x-service-token")) return ["reads"];
  if (path.startsWith("/v1/")) return request.method === "OPTIONS" ? [] : CONTENT_SEARCH.test(path) ? ["search"] : ["reads"];
  if (path.startsWith("/hooks/ssr/")) return ["webhook"];
  if (!path.startsWith("/sites") && !path.startsWith("/workspaces")) return [];
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return dashboardPolicies(request.method, path, token !== undefined && siteIdOfAdminKey(token) === null);
}

// Every combination as one array made once: the front Worker's early refusals ask per request.
const DASHBOARD_POLICIES: readonly (readonly RateLimitName[])[] = Array.from({ length: 8 }, (_, i) => {
  const names: RateLimitName[] = [];
  if (i & 1) names.push("writes");
  if (i & 2) names.push("capture");
  if (i & 4) names.push("operator");
  return names;
});

/**
 * The policies of a call on `/sites…` or `/workspaces…` (one shared array per combination): `writes` for
 * any method but GET, HEAD and OPTIONS, `capture` for a capture or refresh, `operator` when its
 * Bearer credential is not a site admin key (`bearerNotSiteKey`).
 */
export function dashboardPolicies(method: string, path: string, bearerNotSiteKey: boolean): readonly RateLimitName[] {
  const write = method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
  const capture = (method === "PUT" || method === "POST") && CAPTURE.test(path);
  return DASHBOARD_POLICIES[(write ? 1 : 0) | (capture ? 2 : 0) | (bearerNotSiteKey ? 4 : 0)]!;
}
