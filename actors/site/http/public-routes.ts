import { IttyRouter } from "itty-router";
import { ApiError, clip } from "../../../src/contract/errors";
import { entitlements, planRequired } from "../../../src/contract/plans";
import { isSlug } from "../../../src/shared/slug";
import type { SiteContext } from "../context";
import { publishedItemJson, publishedPageJson } from "../reads/published-list";
import { type Answer, ReadMemo } from "../reads/read-memo";
import { schemaFor } from "../reads/schema-map";
import { DEPENDS_HEADER, REVALIDATE_HEADER } from "../../../src/contract/headers";
import { hasReferences } from "../reads/public-items";
import { publicJson, publicJsonText } from "./public-json";

/** The public content API, behind a token the front Worker has routed here. */
export function publicRoutes(s: SiteContext) {
  const router = IttyRouter({ base: "/v1/:token" });
  const memo = new ReadMemo();
  // Revalidations answered "unchanged" (304, no body), for the bench's count of Cache API writes.
  let unchanged = 0;
  const collectionOf = (slug: string) => {
    const c = isSlug(slug) ? s.collections().find((x) => x.slug === slug) : undefined;
    if (!c) throw new ApiError("not_found", `No collection "${clip(slug)}".`);
    return c;
  };

  router
    .get("/collections/:slug/items", async (req) => {
      const site = s.site()!;
      const c = collectionOf(req.params.slug ?? "");
      const params = new URL(req.url).searchParams;
      const answer = memo.answer(site.cacheVersion, req.url, () => {
        const { query: q, items, total } = publishedPageJson(s, c, params);
        if (q.advanced && !entitlements(site.plan).features.advancedLists) throw planRequired("advancedLists");
        // Assembled from each item's stored JSON: the same bytes JSON.stringify of the object would give.
        const head = `{"items":[${items.join(",")}],"page":${q.page},"limit":${q.limit},"total":${total},"totalPages":${Math.ceil(total / q.limit)}`;
        return `${head}}`;
      });
      return answered(req, site.id, c.id, await answer, () => unchanged++);
    })
    .get("/collections/:slug/items/:itemSlug", async (req) => {
      const site = s.site()!;
      const c = collectionOf(req.params.slug ?? "");
      const answer = memo.answer(site.cacheVersion, req.url, () => {
        const item = publishedItemJson(s, c, req.params.itemSlug ?? "");
        if (!item) throw new ApiError("not_found", `No published item "${clip(req.params.itemSlug ?? "")}" in "${c.slug}".`);
        return `{"item":${item}}`;
      });
      const built = await answer;
      const response = answered(req, site.id, c.id, built, () => unchanged++);
      // Without references the answer is this item's alone: the front Worker may carry it across
      // versions that changed other items (docs/caching.md, "Carried across a version").
      if (req.headers.has(DEPENDS_HEADER) && !hasReferences(c)) {
        const id = ITEM_ID.exec(built.text)?.[1];
        if (id) response.headers.set(DEPENDS_HEADER, id);
      }
      return response;
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
  return { fetch: (request: Request) => router.fetch(request), memoSize: () => memo.size, unchanged: () => unchanged };
}

/** The id at the head of a single item's answer (`{"item":{"id":"…"`, as publicItemsJson writes it). */
const ITEM_ID = /^\{"item":\{"id":"([^"\\]+)"/;

/**
 * A list or item answer with its ETag; 304 with no body when the front Worker's copy of an
 * older version (REVALIDATE_HEADER) is these same bytes.
 */
function answered(req: Request, siteId: string, collectionId: string, answer: Answer, onUnchanged: () => void): Response {
  if (req.headers.get(REVALIDATE_HEADER) === answer.etag) {
    onUnchanged();
    return new Response(null, { status: 304, headers: { etag: answer.etag } });
  }
  const response = publicJsonText(siteId, collectionId, answer.text);
  response.headers.set("etag", answer.etag);
  return response;
}
