import { IttyRouter } from "itty-router";
import { ApiError } from "../../src/http/errors";
import { entitlements } from "../../src/plans";
import { isSlug } from "../../src/shared/slug";
import type { SiteContext } from "./context";
import type { ItemRow } from "./items";
import { buildListQuery } from "./list-query";
import { presentItems } from "./public-items";

export const PUBLIC_CACHE_CONTROL = "public, s-maxage=31536000";

/** The public content API, behind a token the front Worker has routed here. */
export function publicRoutes(s: SiteContext) {
  const router = IttyRouter({ base: "/v1/:token" });
  const collectionOf = (slug: string) => {
    const c = isSlug(slug) ? s.collections().find((x) => x.slug === slug) : undefined;
    if (!c) throw new ApiError("not_found", `No collection "${slug}".`);
    return c;
  };

  router
    .get("/collections/:slug/items", (req) => {
      const site = s.site()!;
      const c = collectionOf(req.params.slug ?? "");
      const q = buildListQuery(new URL(req.url).searchParams, c, s.collections());
      if (q.advanced && !entitlements(site.plan).features.advancedLists) throw planRequired();
      const total = s.countOf(q.where, q.args);
      const rows = s.sql
        .exec<ItemRow>(
          `SELECT * FROM items WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ? OFFSET ?`,
          ...q.args,
          q.limit,
          (q.page - 1) * q.limit,
        )
        .toArray();
      const items = presentItems(s.sql, rows, s.collections());
      return publicJson(site.id, c.id, { items, page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) });
    })
    .get("/collections/:slug/items/:itemSlug", (req) => {
      const site = s.site()!;
      const c = collectionOf(req.params.slug ?? "");
      const row = s.sql
        .exec<ItemRow>("SELECT * FROM items WHERE collection_id = ? AND slug = ? AND status = 'published'", c.id, req.params.itemSlug ?? "")
        .toArray()[0];
      if (!row) throw new ApiError("not_found", `No published item "${req.params.itemSlug}" in "${c.slug}".`);
      const [item] = presentItems(s.sql, [row], s.collections());
      return publicJson(site.id, c.id, { item });
    })
    .get("/search", (req) => s.search().search(new URL(req.url)))
    .get("/collections/:slug/items/:itemSlug/related", (req) =>
      s.search().related(req.params.slug ?? "", req.params.itemSlug ?? "", new URL(req.url)),
    );
  return router;
}

export function planRequired(): ApiError {
  return new ApiError("plan_required", "Filtering and search need the Pro plan or above.", {
    feature: "advancedLists",
    requiredPlan: "pro",
  });
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
