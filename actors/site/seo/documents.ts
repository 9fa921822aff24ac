/**
 * The stored SEO documents of a site (sitemap, rss.xml, feed.json), built from the database and
 * kept in `seo_documents` so requests serve them as stored. A job on the alarm follows every
 * visible change (`scheduleDocuments`): the sitemap part of each changed item (`part:<k>`), or
 * every part (`all`), one part per run, so no run's work grows with the site.
 */
import { itemPath } from "../../../src/shared/binding/rules";
import type { SiteContext } from "../context";
import { firstMediaExpr } from "../storage/field-sql";
import { splitParts } from "../storage/parts";
import { presentItems } from "../content/public-items";
import { newestPublished, publishedExtent, seqsOfIds, sitemapRows } from "../storage/items-table";
import { publicBase } from "../hostnames/public-base";
import { type FeedChannel, type FeedItem, buildJsonFeed, buildRss } from "./feeds";
import { seoFields } from "./fields";
import { resolveItemSeo } from "./meta";
import { partName, type SitemapUrl, sitemapIndex, URLS_PER_PART, urlset } from "./sitemap";
import { scheduleJob } from "../../shared/jobs";
import type { Collection } from "../storage/rows";
import { type DocumentStats } from "./document-stats";
import { matchPath, redirectedPaths } from "../storage/redirects-table";
import { itemVersions, listVersions, localeBase, versionUrls } from "./locale-documents";
import { localePrefix } from "../storage/locale-set";
import { readPublishedPage } from "../reads/published-list";
import type { PublicItem } from "../../../src/contract/responses";

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

/** The sitemap part that holds the item of `seq`. */
const partOf = (seq: number) => Math.floor((seq - 1) / URLS_PER_PART) + 1;

/** Queues the documents' rebuild after a change: the parts of `items` (ids), or all of them when unnamed. */
export function scheduleDocuments(s: SiteContext, items?: readonly string[]): void {
  if (!s.capture()) return;
  const now = Date.now();
  if (items && items.length > 0) {
    // A deleted item's seq is gone with it: its part is not known, so every part is rebuilt.
    // An item of another collection (an author) queues the part its seq falls in: no URL of it
    // changes, but the run rebuilds the feeds, which show the items it is referenced from.
    const { seqs, missing } = seqsOfIds(s.sql, items);
    if (!missing) {
      for (const k of new Set(seqs.map(partOf))) scheduleJob(s.storage, SEO_DOCUMENTS_JOB, `part:${k}`, now);
      return;
    }
  }
  scheduleJob(s.storage, SEO_DOCUMENTS_JOB, "all", now);
}

function putDocument(sql: SqlStorage, name: string, body: string): void {
  sql.exec("DELETE FROM seo_documents WHERE name = ?", name);
  for (const [part, chunk] of splitParts(body).entries())
    sql.exec("INSERT INTO seo_documents (name, part, body) VALUES (?, ?, ?)", name, part, chunk);
}

type Capture = NonNullable<ReturnType<SiteContext["capture"]>>;

/** What every document of the capture is built from. */
interface Sources {
  capture: Capture;
  collection: Collection;
  origin: string;
  base: string;
  listUrl: string;
}

/** The sitemap URLs of the items with seq in part `k` (all of them: `k` null), the list page first in the first. */
function partUrls(s: SiteContext, src: Sources, k: number | null, newest: string): SitemapUrl[] {
  const fields = seoFields(src.collection, src.capture.extra.seo ?? {});
  const image = fields.image ? `(SELECT url FROM media WHERE id = ${firstMediaExpr(fields.image)})` : "NULL";
  const [from, to] = k === null ? [1, Number.MAX_SAFE_INTEGER] : [(k - 1) * URLS_PER_PART + 1, k * URLS_PER_PART];
  // A path an owner's rule sends elsewhere is no page of the site any more: the sitemap leaves it out.
  const redirected = redirectedPaths(s.sql);
  const isRedirected = (path: string) => redirected.size > 0 && redirected.has(matchPath(path));
  const urls: SitemapUrl[] = [];
  const rows = [...sitemapRows(s.sql, src.collection.id, image, from, to)];
  // A site with locales lists each page in every locale it exists in (seo/locale-documents.ts).
  const locales = s.locales();
  const versions = locales.all.length > 1 ? itemVersions(s.sql, locales, src.collection, src.base, rows) : null;
  for (const row of rows) {
    if (isRedirected(itemPath(src.base, row.slug))) continue;
    const mine = versions?.get(row.seq);
    if (mine)
      urls.push(
        ...versionUrls(
          src.origin,
          mine.filter((v) => v.code === locales.primary?.code || !isRedirected(v.path)),
          row.image,
        ),
      );
    else urls.push({ loc: `${src.origin}${itemPath(src.base, row.slug)}`, lastmod: row.updated_at, image: row.image });
  }
  if ((k === null || k === 1) && src.capture.showsList && !isRedirected(src.base)) {
    const refreshed = src.capture.refreshedAt;
    const lastmod = newest > refreshed ? newest : refreshed;
    if (versions) urls.unshift(...versionUrls(src.origin, listVersions(locales, src.base, lastmod), null));
    else urls.unshift({ loc: src.listUrl, lastmod });
  }
  return urls;
}

/**
 * One run of the documents' job (`key`: `all` or `part:<k>`), and the capture's first build. Up to
 * URLS_PER_PART items the sitemap is one urlset, built whole. Past it, `all` lists the parts
 * (table `sitemap_parts`) and queues each, and `part:<k>` builds part k and the index from the
 * parts' rows. The feeds (the newest items) are built on every run.
 */
export function regenerateDocuments(s: SiteContext, key = "all"): DocumentStats {
  const started = Date.now();
  const capture = s.capture();
  const collection = capture && s.collections().find((c) => c.id === capture.collectionId);
  if (!capture || !collection) {
    s.storage.transactionSync(() => {
      s.sql.exec("DELETE FROM seo_documents");
      s.sql.exec("DELETE FROM sitemap_parts");
    });
    return { at: new Date().toISOString(), ms: Date.now() - started, urls: 0, feedItems: 0, bytes: 0 };
  }
  const { origin, base } = publicBase(s, capture);
  const src: Sources = { capture, collection, origin, base, listUrl: `${origin}${base}` };
  const now = new Date().toISOString();
  const { maxSeq, newest } = publishedExtent(s.sql, collection.id);
  const parts = Math.max(1, Math.ceil(maxSeq / URLS_PER_PART));
  let singleUrls = 0;
  const feedItems = s.storage.transactionSync(() => {
    if (parts === 1) {
      const urls = partUrls(s, src, null, newest);
      singleUrls = urls.length;
      putDocument(s.sql, "sitemap.xml", urlset(urls));
      s.sql.exec("DELETE FROM seo_documents WHERE name LIKE 'sitemap-%'");
      s.sql.exec("DELETE FROM sitemap_parts");
    } else if (key === "all" || s.sql.exec("SELECT 1 FROM sitemap_parts LIMIT 1").toArray().length === 0) {
      // Every part is rebuilt on a run of its own; parts past the last item's go now.
      for (const [name] of s.sql.exec("SELECT name FROM seo_documents WHERE name LIKE 'sitemap-%'").raw()) {
        const k = Number(/^sitemap-(\d+)\.xml$/.exec(String(name))?.[1]);
        if (!(k >= 1 && k <= parts)) s.sql.exec("DELETE FROM seo_documents WHERE name = ?", name);
      }
      s.sql.exec("DELETE FROM sitemap_parts WHERE part > ?", parts);
      for (let k = 1; k <= parts; k++) {
        s.sql.exec("INSERT OR IGNORE INTO sitemap_parts (part, urls, lastmod) VALUES (?, 0, '')", k);
        scheduleJob(s.storage, SEO_DOCUMENTS_JOB, `part:${k}`, Date.now());
      }
    } else {
      const k = Number(key.slice("part:".length));
      const urls = k >= 1 && k <= parts ? partUrls(s, src, k, newest) : [];
      if (urls.length) putDocument(s.sql, partName(k), urlset(urls));
      else s.sql.exec("DELETE FROM seo_documents WHERE name = ?", partName(k));
      const lastmod = urls.reduce((m, u) => (u.lastmod > m ? u.lastmod : m), "") || now;
      s.sql.exec(
        "INSERT INTO sitemap_parts (part, urls, lastmod) VALUES (?1, ?2, ?3) ON CONFLICT (part) DO UPDATE SET urls = ?2, lastmod = ?3",
        k,
        urls.length,
        lastmod,
      );
      const listed = s.sql
        .exec<{ part: number; lastmod: string }>("SELECT part, lastmod FROM sitemap_parts WHERE urls > 0 ORDER BY part")
        .toArray();
      putDocument(s.sql, "sitemap.xml", sitemapIndex(listed, src.listUrl));
    }
    return putFeeds(s, src, newest, now);
  });
  const totals = s.sql
    .exec<{ urls: number | null; bytes: number | null }>(
      // octet_length reads each value's size from its record header, not its text (14 MB at 100,000 items).
      `SELECT (SELECT sum(urls) FROM sitemap_parts) AS urls, (SELECT sum(octet_length(body)) FROM seo_documents) AS bytes`,
    )
    .one();
  const urls = parts === 1 ? singleUrls : (totals.urls ?? 0);
  return { at: now, ms: Date.now() - started, urls, feedItems, bytes: totals.bytes ?? 0 };
}

/** rss.xml and feed.json: the newest published items, and on a site with locales each secondary's. Returns how many the primary's carry. */
function putFeeds(s: SiteContext, src: Sources, newest: string, now: string): number {
  const { capture, collection, base } = src;
  const limit = capture.extra.seo?.feedItems ?? DEFAULT_FEED_ITEMS;
  const rows = newestPublished(s.sql, collection.id, limit);
  const items = presentItems(s.sql, rows, s.collections(), s.publicStaleAfter());
  putFeedPair(s, src, "", items, base, newest || now);
  s.sql.exec("DELETE FROM seo_documents WHERE name LIKE '%/%'");
  const locales = s.locales();
  for (const l of locales.all) {
    if (l.primary) continue;
    // The locale's newest translated items, in its values, under its prefix (`/fr/blog/rss.xml`).
    const page = readPublishedPage(s, collection, new URLSearchParams({ locale: l.code, limit: String(limit) }));
    const updated = page.items.reduce((m, i) => (i.updatedAt > m ? i.updatedAt : m), "");
    putFeedPair(s, src, `${localePrefix(l.code).slice(1)}/`, page.items, localeBase(locales, l.code, base), updated || newest || now);
  }
  return items.length;
}

/** One locale's rss.xml and feed.json (`prefix`: "" for the primary, "fr/" for a secondary), of `items` under `base`. */
function putFeedPair(s: SiteContext, src: Sources, prefix: string, items: readonly PublicItem[], base: string, updated: string): void {
  const { capture, collection, origin } = src;
  const settings = capture.extra.seo ?? {};
  const fields = seoFields(collection, settings);
  const siteName = settings.siteName ?? (capture.page.siteName || s.site()!.name);
  const listUrl = `${origin}${base}`;
  const feedItems: FeedItem[] = items.map((item) => {
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
    updated,
  };
  putDocument(s.sql, `${prefix}rss.xml`, buildRss(channel, feedItems));
  putDocument(s.sql, `${prefix}feed.json`, buildJsonFeed(channel, feedItems));
}
