/**
 * Which rate-limit policies govern a request, for the `RateLimit-Policy` field of its answer
 * (whatever the status): the same classification the routes enforce (README "Rate limits").
 */
import type { RateLimitName } from "../contract/limits";
import { siteIdOfAdminKey } from "../contract/ids";

const CONTENT_SEARCH = /^\/v1\/[^/]+\/(?:search|collections\/[^/]+\/items\/[^/]+\/related)$/;

export function policiesFor(request: Request, path: string, serviceHost: boolean): RateLimitName[] {
  if (!serviceHost || request.headers.has("x-service-token")) return ["reads"];
  const write = request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS";
  if (path.startsWith("/v1/")) return request.method === "OPTIONS" ? [] : CONTENT_SEARCH.test(path) ? ["search"] : ["reads"];
  if (path.startsWith("/hooks/ssr/")) return ["webhook"];
  const names: RateLimitName[] = [];
  const site = path.startsWith("/sites") || path.startsWith("/workspaces");
  if (site && write) names.push("writes");
  if (site && /^\/sites\/[^/]+\/ssr\/(?:capture|refresh)$/.test(path) && (request.method === "PUT" || request.method === "POST"))
    names.push("capture");
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (site && token !== undefined && siteIdOfAdminKey(token) === null) names.push("operator");
  return names;
}
