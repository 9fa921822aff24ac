import { IttyRouter } from "itty-router";
import { ApiError, clip } from "../../src/http/errors";
import { entitlements, planRequired } from "../../src/plans";
import { isSlug } from "../../src/shared/slug";
import type { SiteContext } from "./context";
import { readPublishedItem, readPublishedPage } from "./published-list";
import { schemaFor } from "./schema-map";

export const PUBLIC_CACHE_CONTROL = "public, s-maxage=31536000";

/** The public content API, behind a token the front Worker has routed here. */
export function publicRoutes(s: SiteContext) {
  const router = IttyRouter({ base: "/v1/:token" });
  const collectionOf = (slug: string) => {
    const c = isSlug(slug) ? s.collections().find((x) => x.slug === slug) : undefined;
    if (!c) throw new ApiError("not_found", `No collection "${clip(slug)}".`);
    return c;
  };

  router
    .get("/collections/:slug/items", (req) => {
      const site = s.site()!;
      const c = collectionOf(req.params.slug ?? "");
      const params = new URL(req.url).searchParams;
      const { query: q, items, total } = readPublishedPage(s, c, params);
      if (q.advanced && !entitlements(site.plan).features.advancedLists) throw planRequired("advancedLists");
      return publicJson(site.id, c.id, {
        items,
        page: q.page,
        limit: q.limit,
        total,
        totalPages: Math.ceil(total / q.limit),
      });
    })
    .get("/collections/:slug/items/:itemSlug", (req) => {
      const site = s.site()!;
      const c = collectionOf(req.params.slug ?? "");
      const item = readPublishedItem(s, c, req.params.itemSlug ?? "");
      if (!item) throw new ApiError("not_found", `No published item "${clip(req.params.itemSlug ?? "")}" in "${c.slug}".`);
      return publicJson(site.id, c.id, { item });
    })
    // What a renderer needs beside the items: field types of the collection and of every collection it references.
    .get("/collections/:slug/schema", (req) => {
      const c = collectionOf(req.params.slug ?? "");
      return publicJson(s.site()!.id, c.id, { schema: schemaFor(c, s.collections()) });
    })
    .get("/search", (req) => s.search().search(new URL(req.url)))
    .get("/collections/:slug/items/:itemSlug/related", (req) =>
      s.search().related(req.params.slug ?? "", req.params.itemSlug ?? "", new URL(req.url)),
    );
  return router;
}

export function publicJson(siteId: string, collectionId: string | null, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": PUBLIC_CACHE_CONTROL,
      "cache-tag": collectionId ? `site:${siteId},collection:${collectionId}` : `site:${siteId}`,
    },
  });
}
