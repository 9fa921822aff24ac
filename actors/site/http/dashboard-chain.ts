/**
 * The site's dashboard API, behind the caller check: who is calling, what they may do
 * (site-access.ts), then the features' routers in order, and what every write owes after its answer
 * (webhook deliveries, the write limit's header, the audit row of a change that awaited outside I/O).
 */
import { errorResponse } from "../../../src/http/errors";
import { RATELIMIT_POLICY_HEADER } from "../../../src/contract/limits";
import { credentialKey } from "../../../src/limits/credential";
import { firstResponse, type Router } from "../../shared/router";
import type { SiteContext } from "../context";
import { type SiteAccess, siteAccess } from "../access/site-access";
import { defaultTarget, recordAudit } from "../access/audit";
import { scheduleDeliveries } from "../webhooks/deliver";
import { callerOf } from "./caller";
import { ssrRoutes } from "./ssr-routes";

/** A router of the chain, asked only for paths `applies` allows (each router parses the URL and tries its routes in turn). */
interface Link {
  applies?: (path: string) => boolean;
  router: Router<[SiteAccess]>;
}

/** The third segment of `/sites/:siteId/<section>/…`. */
const section = (path: string) => path.split("/", 4)[3];

/** The features' routers, in the order they are asked; they validate with zod, so they load on the first dashboard call. */
async function loadChain(s: SiteContext): Promise<Link[]> {
  const [dashboard, history, webhooks, transfer, imports, previewLinks, redirects, locales] = await Promise.all([
    import("./dashboard-routes"),
    import("../history/routes"),
    import("../webhooks/routes"),
    import("../transfer/routes"),
    import("../imports/routes"),
    import("../preview/routes"),
    import("../seo/redirects-routes"),
    import("../locales/routes"),
  ]);
  // Routers whose base (/sites/:siteId/ssr, /webhooks, /imports) or paths (the exports) cannot
  // match are not asked.
  return [
    { applies: (path) => section(path) === "ssr", router: ssrRoutes(s) },
    { applies: (path) => path.includes("/ssr/redirects"), router: redirects.redirectRoutes(s) },
    { applies: (path) => section(path) === "webhooks", router: webhooks.webhookRoutes(s) },
    { applies: (path) => path.endsWith("/export.csv") || path.endsWith("/export.json"), router: transfer.transferRoutes(s) },
    { applies: (path) => section(path) === "imports", router: imports.importRoutes(s) },
    { applies: (path) => section(path) === "locales" || /\/items\/[^/]+\/locales/.test(path), router: locales.localeRoutes(s) },
    { router: dashboard.dashboardRoutes(s) },
    { router: history.historyRoutes(s) },
    { router: previewLinks.previewLinkRoutes(s) },
  ];
}

/** The dashboard API as one router of the site object (asked once the site is known to exist). */
export function dashboardChain(s: SiteContext): Router<[URL]> {
  let chain: Link[] | null = null;
  return async (request, url) => {
    const site = s.site()!;
    const path = url.pathname;
    const caller = await callerOf(s, request);
    if (!caller) return errorResponse("unauthorized", "Missing or wrong site admin key, or the dashboard session has ended.");
    const access = siteAccess(site, request, caller.principal, caller.client, path);
    const writes = access.entry.method !== "get";
    if (writes) s.limits.write(credentialKey(caller.principal), site.plan);
    chain ??= await loadChain(s);
    const response = await firstResponse(
      chain.filter((link) => !link.applies || link.applies(path)).map((link) => link.router),
      request,
      access,
    );
    // Any write may have written webhook events (triggers on items, collections, the capture).
    if (writes) {
      scheduleDeliveries(s.storage);
      response?.headers.set(RATELIMIT_POLICY_HEADER, s.limits.writePolicies(s.site()!.plan));
    }
    // A change whose handler awaited outside I/O-free code (a capture's fetch) records here, right
    // after its synchronous write; every other handler records inside its own transaction.
    if (response?.ok && writes && !access.recorded) recordAudit(s.sql, access, defaultTarget(access));
    return response;
  };
}
