/**
 * The sitemap and feeds of a site with locales: each page's versions in every locale it exists in
 * (an item's translations; the list in every locale), which the sitemap lists as URLs of their own,
 * each naming all of them and `x-default` (Google's hreflang rules: reciprocal, self-referencing,
 * one URL per locale), and one RSS and JSON Feed per secondary under its prefix.
 */
import { itemPath } from "../../../src/shared/binding/rules";
import { localePrefix, type SiteLocaleSet } from "../storage/locale-set";
import { type TranslationRow, translationsOfSeqs } from "../storage/locales-table";
import { localizedFields } from "../reads/localized";
import type { Collection } from "../storage/rows";
import type { SitemapUrl } from "./sitemap";

/** One locale version of a page: its code, path and latest change. */
export interface PageVersion {
  code: string;
  path: string;
  lastmod: string;
}

/** A locale's base under the public `base`: the primary's is `base` itself. */
export const localeBase = (locales: SiteLocaleSet, code: string, base: string): string =>
  locales.byCode.get(code)?.primary ? base : `${localePrefix(code)}${base}`;

/**
 * Each item's versions, for the items of `rows` (one part of the sitemap). A collection with
 * nothing to translate has every item in every locale under its own slug.
 */
export function itemVersions(
  sql: SqlStorage,
  locales: SiteLocaleSet,
  collection: Collection,
  base: string,
  rows: readonly { seq: number; slug: string; updated_at: string }[],
): Map<number, PageVersion[]> {
  const out = new Map<number, PageVersion[]>();
  const translated = localizedFields(collection).length > 0;
  const translations = translated
    ? translationsOfSeqs(
        sql,
        rows.map((r) => r.seq),
      )
    : new Map<number, TranslationRow[]>();
  for (const row of rows) {
    const versions: PageVersion[] = [];
    for (const l of locales.all) {
      if (l.primary || !translated) {
        versions.push({ code: l.code, path: itemPath(localeBase(locales, l.code, base), row.slug), lastmod: row.updated_at });
        continue;
      }
      const t = translations.get(row.seq)?.find((x) => x.locale === l.id);
      if (t) {
        const lastmod = t.updated_at > row.updated_at ? t.updated_at : row.updated_at;
        versions.push({ code: l.code, path: itemPath(localeBase(locales, l.code, base), t.slug), lastmod });
      }
    }
    out.set(row.seq, versions);
  }
  return out;
}

/** The list page in every locale. */
export const listVersions = (locales: SiteLocaleSet, base: string, lastmod: string): PageVersion[] =>
  locales.all.map((l) => ({ code: l.code, path: localeBase(locales, l.code, base), lastmod }));

/** One sitemap URL per version, each naming every version and `x-default` (the primary's). */
export function versionUrls(origin: string, versions: readonly PageVersion[], image: string | null): SitemapUrl[] {
  const alternates = versions.map((v) => ({ hreflang: v.code, href: `${origin}${v.path}` }));
  const primary = versions[0];
  if (primary) alternates.push({ hreflang: "x-default", href: `${origin}${primary.path}` });
  return versions.map((v) => ({ loc: `${origin}${v.path}`, lastmod: v.lastmod, image, alternates }));
}
