/**
 * Reads in a locale (`locale=`, `fallback=`): which locale a read asks for, and a published
 * item's answer in it, built from the item's answer in the primary with the localized fields
 * taken along the locale's chain. Without `locale` nothing here runs: the answers are the
 * primary's, byte for byte.
 */
import { ApiError, clip } from "../../../src/contract/errors";
import { LOCALIZABLE_TYPES } from "../../../src/contract/field-types";
import type { Collection } from "../storage/rows";
import type { Field } from "../../../src/contract/fields";
import { findLocale, type SiteLocale, type SiteLocaleSet } from "../storage/locale-set";
import { type TranslationRow, translationsOfSeqs } from "../storage/locales-table";
import type { PublicRow } from "../storage/items-queries";
import type { LocaleScope } from "./list-query";

/** The fields of `c` each locale holds its own value of. */
export const localizedFields = (c: Collection): Field[] => c.fields.filter((f) => f.localized && LOCALIZABLE_TYPES.has(f.type));

/** The locale a read asked for; `scope` is null for the primary (its values are the items' own). */
export interface ReadLocale {
  locale: SiteLocale;
  fallback: boolean;
  scope: LocaleScope | null;
}

/** The `locale` and `fallback` parameters of a read, or null when it names no locale. */
export function readLocale(locales: SiteLocaleSet, params: URLSearchParams): ReadLocale | null {
  const raw = params.get("locale");
  const fallbackRaw = params.get("fallback");
  if (raw === null) {
    if (fallbackRaw !== null)
      throw new ApiError("bad_request", "fallback applies to a read in a locale: send locale too.", { parameter: "fallback" });
    return null;
  }
  const codes = locales.all.map((l) => l.code);
  const locale = findLocale(locales, raw);
  if (!locale) {
    const message = codes.length
      ? `Unknown locale "${clip(raw)}"; this site's locales: ${codes.join(", ")}.`
      : `Unknown locale "${clip(raw)}": this site has no locales set (Settings → Locales in the dashboard).`;
    throw new ApiError("bad_request", message, { parameter: "locale", allowed: codes });
  }
  if (fallbackRaw !== null && fallbackRaw !== "true" && fallbackRaw !== "false") {
    throw new ApiError("bad_request", `fallback is true or false, not "${clip(fallbackRaw)}".`, { parameter: "fallback" });
  }
  const fallback = fallbackRaw !== "false";
  return { locale, fallback, scope: locale.primary ? null : { chain: locale.chain, fallback } };
}

/**
 * Published items' answers (`texts`, as the primary's read built them from `rows`) in `read`'s
 * locale: the slug of that locale, each localized field from the first translation of the chain
 * that holds it (then the item's own value unless `fallback=false`), and three members more:
 * `locale`, `alternates` (every locale the item exists in, with its slug there, this one
 * included) and `fallbacks` (the fields whose value came from another locale, and which).
 */
export function localizeItems(
  sql: SqlStorage,
  locales: SiteLocaleSet,
  collection: Collection,
  rows: readonly PublicRow[],
  texts: readonly string[],
  read: ReadLocale,
): string[] {
  const translations = translationsOfSeqs(
    sql,
    rows.map((r) => r.seq),
  );
  const localized = localizedFields(collection);
  const primary = locales.primary as SiteLocale;
  return rows.map((row, i) => {
    const item = JSON.parse(texts[i] as string) as { slug: string; updatedAt: string; data: Record<string, unknown> };
    const own = (translations.get(row.seq) ?? []).filter((t) => locales.byId.has(t.locale));
    const byLocale = new Map(own.map((t) => [t.locale, t]));
    const values = new Map(own.map((t) => [t.locale, JSON.parse(t.data) as Record<string, unknown>]));
    const fallbacks: Record<string, string> = {};
    const mine = read.locale.primary ? undefined : byLocale.get(read.locale.id);
    if (!read.locale.primary) {
      const chain = read.fallback ? read.locale.chain : read.locale.chain.slice(0, 1);
      for (const f of localized) {
        const from = chain.find((id) => values.get(id)?.[f.key] !== undefined);
        if (from !== undefined) {
          item.data[f.key] = values.get(from)?.[f.key];
          if (from !== read.locale.id) fallbacks[f.key] = locales.byId.get(from)!.code;
        } else if (!read.fallback) delete item.data[f.key];
        else if (item.data[f.key] !== undefined) fallbacks[f.key] = primary.code;
      }
      item.data = inFieldOrder(collection, item.data);
      if (mine) {
        item.slug = mine.slug;
        if (mine.updated_at > item.updatedAt) item.updatedAt = mine.updated_at;
      }
    }
    // With nothing to translate, every item is in every locale under its own slug.
    const alternates = localized.length
      ? [{ locale: primary.code, slug: row.slug }, ...own.map((t) => alternateOf(locales, t))]
      : locales.all.map((l) => ({ locale: l.code, slug: row.slug }));
    return JSON.stringify({ ...item, locale: read.locale.code, alternates, fallbacks });
  });
}

const alternateOf = (locales: SiteLocaleSet, t: TranslationRow) => ({ locale: locales.byId.get(t.locale)!.code, slug: t.slug });

/** `data` with its keys in the collection's field order, as every answer holds them. */
function inFieldOrder(collection: Collection, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of collection.fields) if (data[f.key] !== undefined) out[f.key] = data[f.key];
  return out;
}
