import { ApiError, clip } from "../../../src/contract/errors";
import { entitlements, planRequired } from "../../../src/contract/plans";
import { isSlug } from "../../../src/contract/slug";
import type { SiteContext } from "../context";
import type { Collection } from "../storage/rows";
import { publishedItemJson, publishedPageJson } from "../reads/published-list";
import { type Answer, ReadMemo } from "../reads/read-memo";
import { labelsFor, optionLabelsOf, schemaFor } from "../reads/schema-map";
import { MOVED_CACHE_CONTROL } from "../../../src/contract/cache-control";
import { CLIENT_HEADER, DEPENDS_HEADER, DEPENDS_ON_LIST, REVALIDATE_HEADER } from "../../../src/contract/headers";
import { listDependsOn } from "../reads/list-query";
import { hasReferences } from "../content/public-items";
import { publicJson, publicJsonText } from "../reads/public-json";
import { movedSlug } from "../storage/slug-redirects-table";
import { slugInLocale } from "../storage/locales-table";
import { findLocale } from "../storage/locale-set";
import { fieldSelection, selectFields } from "../reads/field-selection";

/**
 * The public content API's paths under `/v1/:token` (as itty-router matched them: one segment per
 * parameter, trailing slashes allowed): a list, an item, its related items, a schema, search.
 */
const PUBLIC_PATH = /^\/v1\/[^/]+\/(?:collections\/([^/]+)\/(?:items(?:\/([^/]+)(\/related)?)?|(schema))|(search))\/*$/;

/**
 * The public content API, behind a token the front Worker has routed here. Matched by one
 * expression on the URL the object already parsed: every miss of every visitor comes here, and a
 * router would parse the URL again and build a query object nobody reads.
 */
/**
 * `,"labels":{…}` for a collection with option fields (each option's value to its label), so an
 * answer's option values can be shown as people read them; nothing for a collection without.
 */
function labelsMember(c: Collection): string {
  const labels = optionLabelsOf(c);
  return Object.keys(labels).length ? `,"labels":${JSON.stringify(labels)}` : "";
}

export function publicRoutes(s: SiteContext) {
  const memo = new ReadMemo();
  // Revalidations answered "unchanged" (304, no body), for the bench's count of Cache API writes.
  let unchanged = 0;
  const collectionOf = (slug: string) => {
    const c = isSlug(slug) ? s.collections().find((x) => x.slug === slug) : undefined;
    if (!c) throw new ApiError("not_found", `No collection "${clip(slug)}".`);
    return c;
  };

  const list = async (req: Request, url: URL, slug: string) => {
    const site = s.site()!;
    const c = collectionOf(slug);
    const answer = memo.answer(site.cacheVersion, req.url, () => {
      const keys = fieldSelection(c, url.searchParams);
      const { query: q, items: all, total } = publishedPageJson(s, c, url.searchParams);
      if (q.advanced && !entitlements(site.plan).features.advancedLists) throw planRequired("advancedLists");
      const items = keys ? all.map((text) => selectFields(text, keys)) : all;
      // Assembled from each item's stored JSON: the same bytes JSON.stringify of the object would give.
      const head = `{"items":[${items.join(",")}],"page":${q.page},"limit":${q.limit},"total":${total},"totalPages":${Math.ceil(total / q.limit)}`;
      return `${head}${labelsMember(c)}}`;
    });
    const response = answered(req, site.id, c.id, await answer, () => unchanged++);
    // What its order and membership depend on: the front Worker may carry it across edits of
    // items it does not show that change none of these keys (docs/caching.md).
    if (req.headers.has(DEPENDS_HEADER)) {
      const keys = listDependsOn(c, url.searchParams);
      if (keys) response.headers.set(DEPENDS_HEADER, `${DEPENDS_ON_LIST}${keys.join(",")}`);
    }
    return response;
  };

  const item = async (req: Request, slug: string, itemSlug: string) => {
    const site = s.site()!;
    const c = collectionOf(slug);
    const answer = memo.answer(site.cacheVersion, req.url, () => {
      const params = new URL(req.url).searchParams;
      const keys = fieldSelection(c, params);
      const found = publishedItemJson(s, c, itemSlug, params);
      if (!found) throw new ApiError("not_found", `No published item "${clip(itemSlug)}" in "${c.slug}".`);
      return `{"item":${keys ? selectFields(found, keys) : found}${labelsMember(c)}}`;
    });
    let built;
    try {
      built = await answer;
    } catch (err) {
      // A published item's old slug, or its translation's old slug in that locale: 301 to where it
      // is now (a client's fetch follows it).
      const moved =
        err instanceof ApiError && err.code === "not_found" ? movedItemSlug(s, c, itemSlug, new URL(req.url).searchParams) : null;
      if (moved === null) throw err;
      return movedResponse(req.url, moved);
    }
    const response = answered(req, site.id, c.id, built, () => unchanged++);
    // Without references the answer is this item's alone: the front Worker may carry it across
    // versions that changed other items (docs/caching.md, "Carried across a version").
    if (req.headers.has(DEPENDS_HEADER) && !hasReferences(c)) {
      const id = ITEM_ID.exec(built.text)?.[1];
      if (id) response.headers.set(DEPENDS_HEADER, id);
    }
    return response;
  };

  /** The answer to a GET of `url` (the request's, parsed), or null for a path that is not one of these. */
  const fetch = async (request: Request, url: URL): Promise<Response | null> => {
    const m = request.method === "GET" ? PUBLIC_PATH.exec(url.pathname) : null;
    if (!m) return null;
    const [, slug, itemSlug, related, schema, search] = m;
    // Only a query the site has not embedded yet calls the model: only that spends the client's `search`.
    if (search)
      return s.search().search(url, () => s.limits.take("search", request.headers.get(CLIENT_HEADER) ?? "unknown", s.site()!.plan));
    if (schema) {
      const c = collectionOf(slug ?? "");
      // What a renderer needs beside the items: field types of the collection and of every collection it references.
      const types = schemaFor(c, s.collections());
      const locales = s.locales().all.map((l) => l.code);
      return publicJson(s.site()!.id, c.id, {
        schema: types,
        labels: labelsFor(types, s.collections()),
        ...(locales.length ? { locales } : {}),
      });
    }
    if (related) return s.search().related(slug ?? "", itemSlug ?? "", url);
    if (itemSlug !== undefined) return item(request, slug ?? "", itemSlug);
    return list(request, url, slug ?? "");
  };
  return { fetch, memoSize: () => memo.size, unchanged: () => unchanged };
}

/**
 * 301 from an item's old slug to its current one, on the same path and query. Kept briefly by
 * caches: the owner may give the old slug to another item, or back to this one.
 */
/**
 * Where a slug that is no item's leads now: an item's old slug in the primary; in a secondary
 * `locale`, the item's own slug or its translation's old one there, to its translation's slug.
 */
function movedItemSlug(s: SiteContext, c: Collection, slug: string, params: URLSearchParams): string | null {
  const raw = params.get("locale");
  if (raw === null) return movedSlug(s.sql, c.id, slug);
  const locale = findLocale(s.locales(), raw);
  if (!locale) return null;
  if (locale.primary) return movedSlug(s.sql, c.id, slug);
  return slugInLocale(s.sql, c.id, locale.id, slug);
}

function movedResponse(requestUrl: string, slug: string): Response {
  const url = new URL(requestUrl);
  const path = url.pathname.replace(/\/+$/, "");
  const location = `${path.slice(0, path.lastIndexOf("/") + 1)}${encodeURIComponent(slug)}${url.search}`;
  return new Response(null, { status: 301, headers: { location, "cache-control": MOVED_CACHE_CONTROL } });
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
