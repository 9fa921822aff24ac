/**
 * Writes of locales and translations: the site's locale set (with its plan's count, chains that
 * end at the primary, and removals that say what they take), an item's translation into one
 * secondary, and the search texts a translation keeps folded for reads in its locale.
 */
import { ApiError, clip } from "../../../src/contract/errors";
import type { SiteLocalesInput } from "../../../src/contract/locales";
import { localizedFields } from "../reads/localized";
import { PLAN_LIMITS, type Plan, planLimit } from "../../../src/contract/plans";
import type { Collection, ItemRow } from "../storage/rows";
import { findLocale, type SiteLocale, type SiteLocaleSet } from "../storage/locale-set";
import {
  clearStale,
  deleteTranslation,
  markTranslationsStale,
  seqByLocaleSlug,
  setTranslationSearchText,
  staleTranslatedItems,
  translationCounts,
  translationsOf,
  upsertTranslation,
  writeLocaleRows,
} from "../storage/locales-table";
import { dataOfSeq } from "../storage/items-table";
import { type DataLookups, type ItemData, validateItemData } from "../content/item-data";
import { searchTextOf } from "../content/search-text";

/**
 * Replaces the site's locales. Refused: more locales than the plan allows (a site already over
 * after a downgrade keeps its own and may remove some); a secondary made the primary (the
 * primary's values are the items' own, so it would lose its translations); a chain that comes
 * back to itself; removing a secondary that holds translations without naming it in `remove`
 * (409, saying how many). Returns the codes removed; their translations are purged on the alarm.
 */
export function replaceLocales(sql: SqlStorage, current: SiteLocaleSet, input: SiteLocalesInput, plan: Plan): string[] {
  const count = 1 + input.secondary.length;
  if (count > PLAN_LIMITS[plan].locales && count > current.all.length) throw planLimit(plan, "locales");
  const was = current.byCode.get(input.primary);
  if (was && !was.primary) {
    throw new ApiError(
      "conflict",
      `"${input.primary}" is a secondary locale: the primary's values are the items' own, so its translations would be lost. Remove it first, or keep the primary.`,
      { locale: input.primary },
    );
  }
  const fallbackOf = new Map(input.secondary.map((l) => [l.code, l.fallback ?? input.primary]));
  for (const start of fallbackOf.keys()) {
    const seen = new Set<string>();
    for (let at: string | undefined = start; at !== undefined && at !== input.primary; at = fallbackOf.get(at)) {
      if (seen.has(at)) {
        throw new ApiError("bad_request", `The fallbacks of "${start}" come back to "${at}": every chain must end at the primary.`, {
          locale: start,
        });
      }
      seen.add(at);
    }
  }
  const counts = translationCounts(sql);
  const removed = current.all.filter((l) => !l.primary && !fallbackOf.has(l.code));
  const confirmed = new Set(input.remove ?? []);
  const unconfirmed = removed
    .map((l) => ({ locale: l.code, translations: counts.get(l.id) ?? 0 }))
    .filter((r) => r.translations > 0 && !confirmed.has(r.locale));
  if (unconfirmed.length) {
    const said = unconfirmed.map((r) => `${r.locale} (${r.translations} translation${r.translations === 1 ? "" : "s"})`).join(", ");
    throw new ApiError("conflict", `Removing ${said} deletes its translations. Send the codes in "remove" to confirm.`, {
      removes: unconfirmed,
    });
  }
  writeLocaleRows(sql, [
    { code: input.primary, fallback: null },
    ...input.secondary.map((l) => ({ code: l.code, fallback: l.fallback ?? input.primary })),
  ]);
  // Chains may have changed: every translation's search text as its readers see it is rebuilt.
  markTranslationsStale(sql);
  return removed.map((l) => l.code);
}

/** The secondary locale `raw` names, or the 404/400 that says why not. */
export function secondaryLocale(locales: SiteLocaleSet, raw: string): SiteLocale {
  const locale = findLocale(locales, raw);
  if (!locale) {
    throw new ApiError(
      "not_found",
      `No locale "${clip(raw)}" on this site${locales.all.length ? ` (its locales: ${locales.all.map((l) => l.code).join(", ")})` : ""}.`,
      {
        allowed: locales.all.map((l) => l.code),
      },
    );
  }
  if (locale.primary) {
    throw new ApiError(
      "bad_request",
      `"${locale.code}" is the primary locale: its values are the item's own; change them with PATCH on the item.`,
      {
        locale: locale.code,
      },
    );
  }
  return locale;
}

/**
 * Item `seq`'s translation into `locale` as it would be stored, or the ApiError that says why not:
 * its localized values checked (a field left out falls back) and its slug free in the collection
 * and locale (`seq` null: an item an import has not written yet). Writes nothing.
 */
export function checkTranslation(
  sql: SqlStorage,
  c: Collection,
  seq: number | null,
  locale: SiteLocale,
  input: { slug: string; data: Record<string, unknown> },
  lookups: DataLookups,
): ItemData {
  const fields = localizedFields(c);
  if (fields.length === 0) {
    throw new ApiError("bad_request", `Collection "${c.slug}" has no localized fields: mark its text fields as localized first.`, {
      collection: c.slug,
    });
  }
  // No field is required of a translation: what it leaves out comes from its fallbacks.
  const { data } = validateItemData(
    fields.map((f) => ({ ...f, required: false })),
    input.data,
    null,
    lookups,
  );
  const taken = seqByLocaleSlug(sql, c.id, locale.id, input.slug);
  if (taken !== null && taken !== seq) {
    throw new ApiError("conflict", `The slug "${input.slug}" is taken in ${locale.code} by another item of "${c.slug}".`, {
      slug: input.slug,
      locale: locale.code,
    });
  }
  const ordered: ItemData = {};
  for (const f of fields) if (data[f.key] !== undefined) ordered[f.key] = data[f.key];
  return ordered;
}

/**
 * Writes `row`'s translation into `locale` whole: its slug (unique in the collection and locale)
 * and its localized values (a field left out falls back). Returns the stored data.
 */
export function putTranslation(
  sql: SqlStorage,
  locales: SiteLocaleSet,
  c: Collection,
  row: ItemRow,
  locale: SiteLocale,
  input: { slug: string; data: Record<string, unknown> },
  lookups: DataLookups,
  updatedAt = new Date().toISOString(),
): ItemData {
  const ordered = checkTranslation(sql, c, row.seq, locale, input, lookups);
  storeTranslation(sql, locales, c, row, locale, input.slug, ordered, updatedAt);
  return ordered;
}

/** Writes a translation checkTranslation answered, and the search texts of the item's translations. */
export function storeTranslation(
  sql: SqlStorage,
  locales: SiteLocaleSet,
  c: Collection,
  row: ItemRow,
  locale: SiteLocale,
  slug: string,
  data: ItemData,
  updatedAt = new Date().toISOString(),
): void {
  upsertTranslation(sql, {
    seq: row.seq,
    locale: locale.id,
    collectionId: c.id,
    slug,
    data: JSON.stringify(data),
    updatedAt,
  });
  refreshTranslationSearch(sql, locales, c, row.seq);
}

/** Deletes `row`'s translation into `locale`; false when it had none. */
export function removeTranslation(sql: SqlStorage, locales: SiteLocaleSet, c: Collection, row: ItemRow, locale: SiteLocale): boolean {
  const gone = deleteTranslation(sql, row.seq, locale.id);
  // Locales falling back to this one read their values further down their chain now.
  if (gone) refreshTranslationSearch(sql, locales, c, row.seq);
  return gone;
}

/**
 * Works out the two search texts of each translation of item `seq`: the values a reader of its
 * locale sees (each localized field from the first translation of the chain holding it, then the
 * item's own; shared fields the item's own) and its own values only (`fallback=false`).
 */
export function refreshTranslationSearch(sql: SqlStorage, locales: SiteLocaleSet, c: Collection, seq: number): void {
  const rows = translationsOf(sql, seq);
  // Translations of removed locales (waiting for their purge) are not read: their mark goes too.
  clearStale(sql, seq);
  if (rows.length === 0) return;
  const item = JSON.parse(dataOfSeq(sql, seq)) as ItemData;
  const localized = localizedFields(c);
  const values = new Map(rows.map((r) => [r.locale, JSON.parse(r.data) as ItemData]));
  for (const r of rows) {
    const locale = locales.byId.get(r.locale);
    if (!locale) continue;
    const seen: ItemData = { ...item };
    const own: ItemData = { ...item };
    for (const f of localized) {
      const from = locale.chain.find((id) => values.get(id)?.[f.key] !== undefined);
      seen[f.key] = from === undefined ? item[f.key] : values.get(from)?.[f.key];
      own[f.key] = values.get(r.locale)?.[f.key];
    }
    setTranslationSearchText(sql, seq, r.locale, searchTextOf(c.fields, seen), searchTextOf(c.fields, own));
  }
}

/** Rebuilds the search texts of up to `limit` items' stale translations; returns how many items were done. */
export function refreshStaleTranslations(
  sql: SqlStorage,
  locales: SiteLocaleSet,
  collections: readonly Collection[],
  limit: number,
): number {
  const stale = staleTranslatedItems(sql, limit);
  const byId = new Map(collections.map((c) => [c.id, c]));
  for (const s of stale) {
    const c = byId.get(s.collection_id);
    if (c) refreshTranslationSearch(sql, locales, c, s.seq);
    // A collection that is gone took its items and their translations (migration 38's trigger).
    else clearStale(sql, s.seq);
  }
  return stale.length;
}
