/**
 * Export downloads of the dashboard API (under /sites/:siteId): a collection as Webflow-shaped
 * CSV and the whole site as JSON, both streamed from this object a page of items at a time.
 */
import { IttyRouter, type IRequest } from "itty-router";
import { ittyRouter, type Router } from "../../shared/router";
import { ApiError, clip } from "../../../src/contract/errors";
import { NO_STORE } from "../../../src/contract/cache-control";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { collectionCsv } from "./export-csv";
import { siteJson } from "./export-site";

const day = (now: number) => new Date(now).toISOString().slice(0, 10);

export function transferRoutes(s: SiteContext): Router<[SiteAccess]> {
  const router = IttyRouter<IRequest, [SiteAccess]>({ base: "/sites/:siteId" });
  router
    .get("/collections/:slug/export.csv", (req) => {
      const slug = req.params.slug ?? "";
      const c = s.collections().find((x) => x.slug === slug);
      if (!c) throw new ApiError("not_found", `No collection "${clip(slug)}".`);
      return new Response(collectionCsv(s.sql, c, s.locales()), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${c.slug}-${day(Date.now())}.csv"`,
          "cache-control": NO_STORE,
        },
      });
    })
    .get("/export.json", () => {
      const site = s.site()!;
      return new Response(siteJson(s), {
        headers: {
          "content-type": "application/json; charset=utf-8",
          "content-disposition": `attachment; filename="${site.id}-export-${day(Date.now())}.json"`,
          "cache-control": NO_STORE,
        },
      });
    });
  return ittyRouter(router);
}
