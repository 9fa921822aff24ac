import { CLIENT_HEADER, HOST_HEADER } from "../contract/headers";
import type { HostnameRoute } from "../contract/hostnames";
import { VALIDATION_PATH } from "../contract/hostnames";
import { cachedStream, renderKey } from "../edge/cache";
import { siteMetaById } from "../edge/site-meta";
import { ApiError } from "../contract/errors";
import { entitlements, planRequired } from "../contract/plans";
import { normalizeHostname } from "../shared/hostname";
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../shared/bounded-map";
import { hostnameStub, siteStub } from "../stubs";
import { clientKey } from "../limits/client";
import { noteSiteRefusal } from "../limits/rate-limit";
import { readPolicies } from "../limits/site-limits-config";
import { keptRefusal, withPolicy } from "../edge/kept-refusal";
import { fromSite, noteSite, pageRequest, pageResponse } from "../edge/forward";
import { parseMediaPath } from "../media/urls";

/**
 * Whether `host` is the service itself (API, dashboard) rather than a customer's
 * hostname. With SERVICE_HOSTNAMES unset every host is the service: a deployment
 * that has not said which hosts are its own must not send its API to the
 * custom-hostname router.
 */
export function isServiceHost(env: Env, host: string): boolean {
  const own = serviceHosts(env.SERVICE_HOSTNAMES ?? "");
  if (own.size === 0) return true;
  return own.has(host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, ""));
}

// SERVICE_HOSTNAMES parsed once per isolate (it is asked on every request).
let hostsOf: { raw: string; hosts: Set<string> } | null = null;
function serviceHosts(raw: string): Set<string> {
  if (hostsOf?.raw !== raw) {
    const hosts = new Set(
      raw
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
    hostsOf = { raw, hosts };
  }
  return hostsOf.hosts;
}

// Host → site, per isolate: a lookup costs one call to that hostname's own object,
// then nothing for a while. A stale entry can never serve a detached hostname:
// the site object checks its active hostname on every render.
const ROUTE_TTL_MS = 30_000;
const UNKNOWN_TTL_MS = 5_000;
// Bounded in entries and bytes (a hostname may be 253 characters); oldest out first.
const routes = new BoundedMap<string, { route: HostnameRoute | null; expires: number }>(10_000, 2 * 1024 * 1024);

async function lookup(env: Env, hostname: string, fresh = false): Promise<HostnameRoute | null> {
  const now = Date.now();
  const hit = routes.get(hostname);
  if (hit && hit.expires > now && !fresh) return hit.route;
  const route = await hostnameStub(env, hostname).route();
  // A pending hostname may turn active at any moment (the site's alarm decides), so only
  // settled answers are kept: active ones, and unknown hostnames for a short while.
  // Whatever was kept goes with a fresh answer that is not settled, so it is never outlived.
  const bytes = stringBytes(hostname) + (route ? stringBytes(route.siteId) : 0) + 2 * ENTRY_OVERHEAD;
  if (route?.active) routes.set(hostname, { route, expires: now + ROUTE_TTL_MS }, bytes);
  else if (!route) routes.set(hostname, { route, expires: now + UNKNOWN_TTL_MS }, bytes);
  else routes.delete(hostname);
  return route;
}

/**
 * A request on a customer's custom hostname: every path is the site's
 * renderer (`/` list, `/:slug` item, `/sitemap.xml`, `/rss.xml`, `/robots.txt`),
 * plus the validation path the local provider checks.
 */
export async function customHostRequest(request: Request, env: Env, ctx: ExecutionContext, host: string): Promise<Response> {
  const hostname = host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  // Hosts that could never have been registered (IPs, single labels) cost no object at all.
  if (!normalizeHostname(hostname, (h) => h).ok) throw new ApiError("not_found", `No site is connected to ${hostname}.`);
  const url = new URL(request.url);
  const validating = url.pathname.startsWith(VALIDATION_PATH);
  // A validation request is rare and must see a just-registered hostname: it skips the memo.
  const route = await lookup(env, hostname, validating);
  if (!route) throw new ApiError("not_found", `No site is connected to ${hostname}.`);
  const forward = (ours?: Readonly<Record<string, string>>) =>
    siteStub(env, route.siteId).fetch(pageRequest(request, { ...ours, [HOST_HEADER]: hostname }));
  if (validating) return fromSite(route.siteId, await forward());
  if (!route.active) throw new ApiError("not_found", `${hostname} is not active yet.`);
  // The site's stored files, on its own host too (a slug never starts with "_").
  const media = parseMediaPath(url.pathname, false);
  if (media) return (await import("../media/serve-route")).serveMedia(request, env, ctx, route.siteId, media);
  if (request.method !== "GET") throw new ApiError("method_not_allowed", "Rendered pages answer GET and HEAD.");
  const meta = await siteMetaById(env, route.siteId);
  if (!meta) throw new ApiError("not_found", `No site is connected to ${hostname}.`);
  if (!entitlements(meta.plan).features.serverRendering) throw planRequired("serverRendering");
  const key = renderKey(meta, `/host/${hostname}`, url);
  // `ours`: a revalidation's validator when this isolate holds an older version of the page.
  const { response } = await cachedStream(request, ctx, key, async (ours) => {
    // A miss counts against the site's `reads` for this visitor (the site object counts).
    const client = clientKey(request, env);
    const kept = keptRefusal(READS, `${client}|${meta.siteId}`);
    if (kept) return kept;
    // Read only by the edge cache, which drops our headers from what it keeps and answers.
    const answer = await forward({ ...ours, [CLIENT_HEADER]: client });
    return pageResponse(noteSite(meta.siteId, await noteSiteRefusal(answer, `${client}|${meta.siteId}`)));
  });
  return withPolicy(response, readPolicies(env, meta.plan, false));
}

const READS = ["reads"] as const;
