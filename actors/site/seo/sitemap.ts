/**
 * sitemap.xml for the connected collection: the list page (when there is
 * one) and every published item, with lastmod and image entries. Over
 * 50,000 URLs it becomes a sitemap index with numbered parts.
 */
import { escapeXml } from "../../../src/shared/escape";

export const URLS_PER_SITEMAP = 50_000;

export interface SitemapUrl {
  loc: string;
  lastmod: string;
  image?: string | null;
}

const URLSET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n';

function urlset(urls: readonly SitemapUrl[]): string {
  const parts = [URLSET_OPEN];
  for (const u of urls) {
    parts.push(
      `<url><loc>${escapeXml(u.loc)}</loc><lastmod>${escapeXml(u.lastmod)}</lastmod>${u.image ? `<image:image><image:loc>${escapeXml(u.image)}</image:loc></image:image>` : ""}</url>\n`,
    );
  }
  parts.push("</urlset>\n");
  return parts.join("");
}

/** `{name: xml}`: `sitemap.xml`, plus `sitemap-1.xml`… when it has to be an index. `base` is the absolute list URL, ending in `/`. */
export function buildSitemaps(urls: readonly SitemapUrl[], base: string, now: string): Map<string, string> {
  const docs = new Map<string, string>();
  if (urls.length <= URLS_PER_SITEMAP) {
    docs.set("sitemap.xml", urlset(urls));
    return docs;
  }
  const index = ['<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  for (let i = 0, n = 1; i < urls.length; i += URLS_PER_SITEMAP, n++) {
    const chunk = urls.slice(i, i + URLS_PER_SITEMAP);
    const name = `sitemap-${n}.xml`;
    docs.set(name, urlset(chunk));
    const lastmod = chunk.reduce((m, u) => (u.lastmod > m ? u.lastmod : m), "") || now;
    index.push(`<sitemap><loc>${escapeXml(base + name)}</loc><lastmod>${escapeXml(lastmod)}</lastmod></sitemap>\n`);
  }
  index.push("</sitemapindex>\n");
  docs.set("sitemap.xml", index.join(""));
  return docs;
}
