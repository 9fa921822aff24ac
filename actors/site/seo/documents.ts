/**
 * The stored SEO documents of a site (sitemap, rss.xml, feed.json), built
 * from the database and kept in `seo_documents` so requests serve them as
 * stored. Rebuilt by a job after every visible change (see site.ts).
 */
import { itemPath } from "../../../src/shared/binding/rules";
import type { SiteContext } from "../context";
import { firstMediaExpr } from "../storage/field-sql";
import { splitParts } from "../storage/parts";
import { presentItems } from "../content/public-items";
import { newestPublished, sitemapRows } from "../storage/items-table";
import { publicBase } from "../hostnames/public-base";
import { type FeedChannel, type FeedItem, buildJsonFeed, buildRss } from "./feeds";
import { seoFields } from "./fields";
import { resolveItemSeo } from "./meta";
import { type SitemapUrl, buildSitemaps } from "./sitemap";
import { type DocumentStats } from "./document-stats";
import { matchPath, redirectedPaths } from "../storage/redirects-table";

export const DEFAULT_FEED_ITEMS = 50;
export const SEO_DOCUMENTS_JOB = "seo-documents";

export const DOCUMENT_TYPES: Record<string, string> = {
  xml: "application/xml; charset=utf-8",
  rss: "application/rss+xml; charset=utf-8",
  json: "application/feed+json; charset=utf-8",
};

export function isDocumentName(name: string): boolean {
  return name === "sitemap.xml" || name === "rss.xml" || name === "feed.json" || /^sitemap-[1-9]\d{0,5}\.xml$/.test(name);
}

export function contentTypeOf(name: string): string {
  return name === "rss.xml" ? DOCUMENT_TYPES.rss! : name.endsWith(".json") ? DOCUMENT_TYPES.json! : DOCUMENT_TYPES.xml!;
}

export function readDocument(sql: SqlStorage, name: string): string | null {
  const parts = sql.exec<{ body: string }>("SELECT body FROM seo_documents WHERE name = ? ORDER BY part", name).toArray();
  return parts.length ? parts.map((p) => p.body).join("") : null;
}

/** Rebuilds every document from the database; with no capture (or its collection gone) there are none. */
export function regenerateDocuments(s: SiteContext): DocumentStats {
  const started = Date.now();
  const capture = s.capture();
  const collection = capture && s.collections().find((c) => c.id === capture.collectionId);
  if (!capture || !collection) {
    s.sql.exec("DELETE FROM seo_documents");
    return { at: new Date().toISOString(), ms: Date.now() - started, urls: 0, feedItems: 0, bytes: 0 };
  }
  const settings = capture.extra.seo ?? {};
  const fields = seoFields(collection, settings);
  const { origin, base } = publicBase(s, capture);
  const listUrl = `${origin}${base}`;
  const now = new Date().toISOString();

  const urls: SitemapUrl[] = [];
  const image = fields.image ? `(SELECT url FROM media WHERE id = ${firstMediaExpr(fields.image)})` : "NULL";
  const cursor = sitemapRows(s.sql, collection.id, image);
  let newest = "";
  // A path an owner's rule sends elsewhere is no page of the site any more: the sitemap leaves it out.
  const redirected = redirectedPaths(s.sql);
  const isRedirected = (path: string) => redirected.size > 0 && redirected.has(matchPath(path));
  for (const row of cursor) {
    if (isRedirected(itemPath(base, row.slug))) continue;
    urls.push({ loc: `${origin}${itemPath(base, row.slug)}`, lastmod: row.updated_at, image: row.image });
    if (row.updated_at > newest) newest = row.updated_at;
  }
  if (capture.showsList && !isRedirected(base))
    urls.unshift({ loc: listUrl, lastmod: newest > capture.refreshedAt ? newest : capture.refreshedAt });

  const limit = settings.feedItems ?? DEFAULT_FEED_ITEMS;
  const rows = newestPublished(s.sql, collection.id, limit);
  const siteName = settings.siteName ?? (capture.page.siteName || s.site()!.name);
  const items: FeedItem[] = presentItems(s.sql, rows, s.collections(), s.publicStaleAfter()).map((item) => {
    const canonical = `${origin}${itemPath(base, item.slug)}`;
    const seo = resolveItemSeo(item, fields, settings, { canonical, home: `${origin}/`, siteName, list: null });
    const html = fields.body ? item.data[fields.body.key] : undefined;
    return {
      title: seo.title,
      url: canonical,
      publishedAt: item.publishedAt,
      updatedAt: item.updatedAt,
      summary: seo.description,
      html: typeof html === "string" ? html : "",
      author: seo.author,
      image: seo.image,
    };
  });
  const channel: FeedChannel = {
    title: capture.page.title || siteName,
    description: capture.page.description,
    link: capture.showsList ? listUrl : `${origin}/`,
    rssUrl: `${listUrl}rss.xml`,
    jsonUrl: `${listUrl}feed.json`,
    updated: newest || now,
  };

  const docs = buildSitemaps(urls, listUrl, now);
  docs.set("rss.xml", buildRss(channel, items));
  docs.set("feed.json", buildJsonFeed(channel, items));
  s.storage.transactionSync(() => {
    s.sql.exec("DELETE FROM seo_documents");
    for (const [name, body] of docs) {
      for (const [part, chunk] of splitParts(body).entries())
        s.sql.exec("INSERT INTO seo_documents (name, part, body) VALUES (?, ?, ?)", name, part, chunk);
    }
  });
  let bytes = 0;
  for (const body of docs.values()) bytes += body.length;
  return { at: now, ms: Date.now() - started, urls: urls.length, feedItems: items.length, bytes };
}
