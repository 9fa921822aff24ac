/** rss.xml (RSS 2.0) and feed.json (JSON Feed 1.1) for the newest published items. */
import { escapeXml } from "../../../src/shared/escape";

export interface FeedChannel {
  title: string;
  description: string;
  /** The list page (or site home) URL. */
  link: string;
  rssUrl: string;
  jsonUrl: string;
  updated: string;
}

export interface FeedItem {
  title: string;
  url: string;
  publishedAt: string;
  updatedAt: string;
  summary: string;
  html: string;
  author: string;
  image: { url: string; width?: number; height?: number } | null;
}

const rfc822 = (iso: string) => new Date(iso).toUTCString();

export function buildRss(channel: FeedChannel, items: readonly FeedItem[]): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">\n<channel>\n',
    `<title>${escapeXml(channel.title)}</title>\n<link>${escapeXml(channel.link)}</link>\n<description>${escapeXml(channel.description || channel.title)}</description>\n`,
    `<atom:link href="${escapeXml(channel.rssUrl)}" rel="self" type="application/rss+xml"/>\n<lastBuildDate>${rfc822(channel.updated)}</lastBuildDate>\n<generator>open-content-edge</generator>\n`,
  ];
  for (const it of items) {
    out.push(
      `<item>\n<title>${escapeXml(it.title)}</title>\n<link>${escapeXml(it.url)}</link>\n<guid isPermaLink="true">${escapeXml(it.url)}</guid>\n<pubDate>${rfc822(it.publishedAt)}</pubDate>\n`,
    );
    if (it.author) out.push(`<dc:creator>${escapeXml(it.author)}</dc:creator>\n`);
    if (it.summary) out.push(`<description>${escapeXml(it.summary)}</description>\n`);
    if (it.html) out.push(`<content:encoded>${escapeXml(it.html)}</content:encoded>\n`);
    if (it.image) {
      const size = `${it.image.width ? ` width="${it.image.width}"` : ""}${it.image.height ? ` height="${it.image.height}"` : ""}`;
      out.push(`<media:content url="${escapeXml(it.image.url)}" medium="image"${size}/>\n`);
    }
    out.push("</item>\n");
  }
  out.push("</channel>\n</rss>\n");
  return out.join("");
}

export function buildJsonFeed(channel: FeedChannel, items: readonly FeedItem[]): string {
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: channel.title,
    home_page_url: channel.link,
    feed_url: channel.jsonUrl,
    description: channel.description || undefined,
    items: items.map((it) => ({
      id: it.url,
      url: it.url,
      title: it.title,
      content_html: it.html || undefined,
      summary: it.summary || undefined,
      image: it.image?.url,
      date_published: it.publishedAt,
      date_modified: it.updatedAt,
      authors: it.author ? [{ name: it.author }] : undefined,
    })),
  });
}
