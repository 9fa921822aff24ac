/**
 * Which binding-counted rate-limit policies govern a request, for the `RateLimit-Policy` field of
 * its answer (whatever the status): the same classification the routes enforce (docs/rate-limits.md). Content reads, rendered pages and a site's dashboard writes are named by what counts
 * them (src/content/routes.ts, src/ssr/routes.ts, the site object), with the site's plan.
 */
import type { RateLimitName } from "../contract/limits";
import { siteIdOfAdminKey } from "../contract/ids";

const CAPTURE = /^\/sites\/[^/]+\/ssr\/(?:capture|refresh)$/;

export function policiesFor(request: Request, path: string, serviceHost: boolean): readonly RateLimitName[] {
  if (!serviceHost || request.headers.has("x-service-token") || path.startsWith("/v1/")) return NONE;
  if (path.startsWith("/hooks/ssr/")) return WEBHOOK;
  if (!path.startsWith("/sites") && !path.startsWith("/workspaces")) return NONE;
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return dashboardPolicies(request.method, path, token !== undefined && siteIdOfAdminKey(token) === null);
}

const NONE: readonly RateLimitName[] = [];
const WEBHOOK: readonly RateLimitName[] = ["webhook"];

// Every combination as one array made once: the front Worker's early refusals ask per request.
const DASHBOARD_POLICIES: readonly (readonly RateLimitName[])[] = Array.from({ length: 8 }, (_, i) => {
  const names: RateLimitName[] = [];
  if (i & 1) names.push("account");
  if (i & 2) names.push("capture");
  if (i & 4) names.push("operator");
  return names;
});

/**
 * The policies of a call on `/sites…` or `/workspaces…` (one shared array per combination):
 * `account` for a write that is not a site's own (a workspace's, a new site), `capture` for a
 * capture or refresh, `operator` when its Bearer credential is not a site admin key
 * (`bearerNotSiteKey`: a wrong one is counted).
 */
export function dashboardPolicies(method: string, path: string, bearerNotSiteKey: boolean): readonly RateLimitName[] {
  const write = method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
  const account = write && !path.startsWith("/sites/");
  const capture = (method === "PUT" || method === "POST") && CAPTURE.test(path);
  return DASHBOARD_POLICIES[(account ? 1 : 0) | (capture ? 2 : 0) | (bearerNotSiteKey ? 4 : 0)]!;
}
