/**
 * sitemap.xml for the connected collection: the list page (when there is one) and every published
 * item, with lastmod and image entries. Up to URLS_PER_PART items it is one urlset; past that, an
 * index of numbered parts, part k holding the items whose `seq` falls in the k-th URLS_PER_PART
 * (so a change rewrites the one part its item is in: seo/documents.ts).
 */
import { escapeXml } from "../../../src/shared/escape";

/**
 * The items a part holds at most (a range of seqs): a part's build then costs a few milliseconds
 * of CPU. Google takes 50,000 URLs a sitemap; a 50,000-URL part cost 171 ms to build.
 */
export const URLS_PER_PART = 5_000;

export interface SitemapUrl {
  loc: string;
  lastmod: string;
  image?: string | null;
  /** On a site with locales: the page in every locale it exists in, this one included, and `x-default`. */
  alternates?: readonly { hreflang: string; href: string }[];
}

const URLSET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n';
// Google's form of a page's language versions: xhtml:link elements in each url.
const URLSET_OPEN_ALTERNATES = URLSET_OPEN.replace('1.1">\n', '1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n');

const alternateLinks = (u: SitemapUrl): string =>
  (u.alternates ?? []).map((a) => `<xhtml:link rel="alternate" hreflang="${escapeXml(a.hreflang)}" href="${escapeXml(a.href)}"/>`).join("");

/** A urlset document of `urls`. */
export function urlset(urls: readonly SitemapUrl[]): string {
  const parts = [urls.some((u) => u.alternates?.length) ? URLSET_OPEN_ALTERNATES : URLSET_OPEN];
  for (const u of urls) {
    parts.push(
      `<url><loc>${escapeXml(u.loc)}</loc><lastmod>${escapeXml(u.lastmod)}</lastmod>${alternateLinks(u)}${u.image ? `<image:image><image:loc>${escapeXml(u.image)}</image:loc></image:image>` : ""}</url>\n`,
    );
  }
  parts.push("</urlset>\n");
  return parts.join("");
}

/** The name of part `k` (1, 2, …). */
export const partName = (k: number) => `sitemap-${k}.xml`;

/** A sitemap index of `parts` (each with its latest change). `base` is the absolute list URL, ending in `/`. */
export function sitemapIndex(parts: readonly { part: number; lastmod: string }[], base: string): string {
  const index = ['<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  for (const p of parts)
    index.push(`<sitemap><loc>${escapeXml(base + partName(p.part))}</loc><lastmod>${escapeXml(p.lastmod)}</lastmod></sitemap>\n`);
  index.push("</sitemapindex>\n");
  return index.join("");
}
