/**
 * Rendered pages of a site with locales: each secondary under a path prefix of the routed base
 * (`/fr/blog/`, the primary unprefixed at `/blog/`, as Webflow does), and the head tags that say
 * so: `hreflang` alternates for every locale a page exists in plus `x-default`, the page's own
 * canonical, `og:locale`. One small function per concern; every value escaped where it goes.
 */
import { itemPath } from "../../../src/shared/binding/rules";
import { escapeAttr } from "../../../src/shared/escape";
import { localePrefix, type SiteLocale, type SiteLocaleSet } from "../storage/locale-set";

/** The locale a rendered page is in, and where every locale's pages live. */
export interface PageLocale {
  code: string;
  primary: boolean;
  primaryCode: string;
  /** Each locale's base path (the primary's is the routed base), by code, in the site's order. */
  bases: ReadonlyMap<string, string>;
}

export { localePrefix };

/**
 * Which locale `path` is in under the routed `base`, and that locale's base: a secondary's when
 * the path starts with its prefix (`/fr/blog/…`, or `/fr/blog` itself), else the primary's.
 * Null for a site without secondaries: its pages are as they always were.
 */
export function localeOfPath(locales: SiteLocaleSet, path: string, base: string): { locale: PageLocale; base: string } | null {
  if (locales.all.length < 2) return null;
  const bases = new Map(locales.all.map((l) => [l.code, l.primary ? base : `${localePrefix(l.code)}${base}`]));
  const lower = path.toLowerCase();
  const found = locales.all.find((l) => {
    if (l.primary) return false;
    const b = bases.get(l.code)!.toLowerCase();
    return lower.startsWith(b) || lower === b.slice(0, -1);
  });
  const locale: SiteLocale = found ?? locales.primary!;
  return {
    locale: { code: locale.code, primary: locale.primary, primaryCode: locales.primary!.code, bases },
    base: bases.get(locale.code)!,
  };
}

/** `fr-CA` → `fr_CA`: Open Graph's form of a locale. */
const ogLocale = (code: string): string => code.replace(/-/g, "_");

const link = (hreflang: string, href: string) => `<link rel="alternate" hreflang="${escapeAttr(hreflang)}" href="${escapeAttr(href)}">`;
const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeAttr(content)}">`;

/**
 * The tags of a page that exists in `alternates` (locale → the page's path there): one
 * `hreflang` link each, this page's included, and `x-default` (the primary's, when the page
 * exists there), then `og:locale` and `og:locale:alternate`.
 */
export function alternateTags(origin: string, page: PageLocale, alternates: ReadonlyMap<string, string>): string[] {
  const tags: string[] = [];
  for (const [code, path] of alternates) tags.push(link(code, `${origin}${path}`));
  const fallback = alternates.get(page.primaryCode);
  if (fallback !== undefined) tags.push(link("x-default", `${origin}${fallback}`));
  tags.push(meta("og:locale", ogLocale(page.code)));
  for (const code of alternates.keys()) if (code !== page.code) tags.push(meta("og:locale:alternate", ogLocale(code)));
  return tags;
}

/** An item page's path in each locale it exists in, in the site's locale order. */
export function itemAlternates(page: PageLocale, alternates: readonly { locale: string; slug: string }[]): Map<string, string> {
  const slugs = new Map(alternates.map((a) => [a.locale, a.slug]));
  const out = new Map<string, string>();
  for (const [code, base] of page.bases) {
    const slug = slugs.get(code);
    if (slug !== undefined) out.set(code, itemPath(base, slug));
  }
  return out;
}

/** The list page's path in every locale (every locale has one). */
export const listAlternates = (page: PageLocale): Map<string, string> => new Map(page.bases);

/**
 * Where an in-page link of the template goes in a secondary locale: a path into the routed
 * base (the list, or one segment under it) gets the locale's prefix; any other link is left as
 * it is (null). `origin` is the site's public origin, for absolute links to it.
 */
export function localizedHref(href: string, page: PageLocale, origin: string, isDocument: (name: string) => boolean): string | null {
  if (page.primary) return null;
  let path = href;
  let prefix = "";
  if (href.startsWith(`${origin}/`)) {
    path = href.slice(origin.length);
    prefix = origin;
  } else if (!href.startsWith("/") || href.startsWith("//")) return null;
  const base = page.bases.get(page.primaryCode)!;
  const cut = path.search(/[?#]/);
  const bare = cut < 0 ? path : path.slice(0, cut);
  if (bare !== base && bare !== base.slice(0, -1) && !(bare.startsWith(base) && !bare.slice(base.length).includes("/"))) return null;
  if (bare.startsWith(base) && isDocument(bare.slice(base.length))) return null;
  return `${prefix}${localePrefix(page.code)}${path}`;
}
