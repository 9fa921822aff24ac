/**
 * Tables `site_locales` and `item_locales` (migration 38): the site's locales, and each item's
 * translation into a secondary one. The primary's values are the item's own (`items.data`).
 */

/** A locale of the site, as stored: its chain is worked out once per change (`SiteLocaleSet`). */
export type LocaleRow = {
  id: number;
  code: string;
  position: number;
  fallback: number | null;
};

export type TranslationRow = {
  seq: number;
  locale: number;
  slug: string;
  data: string;
  updated_at: string;
};

/** The site's locales, the primary (position 0) first. */
export function readLocaleRows(sql: SqlStorage): LocaleRow[] {
  return sql.exec<LocaleRow>("SELECT id, code, position, fallback FROM site_locales ORDER BY position").toArray();
}

/**
 * Writes the site's locales: `rows` in order (the primary first), each with the code of its
 * fallback. A code already stored keeps its id (and so its translations); a code not in `rows`
 * is deleted, its translations left for `purgeRemovedTranslations`.
 */
export function writeLocaleRows(sql: SqlStorage, rows: readonly { code: string; fallback: string | null }[]): void {
  const codes = rows.map((r) => r.code);
  sql.exec("DELETE FROM site_locales WHERE code NOT IN (SELECT value FROM json_each(?))", JSON.stringify(codes));
  rows.forEach((r, i) =>
    sql.exec(
      `INSERT INTO site_locales (code, position) VALUES (?1, ?2) ON CONFLICT (code) DO UPDATE SET position = excluded.position`,
      r.code,
      i,
    ),
  );
  for (const r of rows) {
    sql.exec("UPDATE site_locales SET fallback = (SELECT id FROM site_locales WHERE code = ?2) WHERE code = ?1", r.code, r.fallback);
  }
}

/** How many translations each stored locale id holds. */
export function translationCounts(sql: SqlStorage): Map<number, number> {
  const rows = sql.exec<{ locale: number; n: number }>("SELECT locale, count(*) AS n FROM item_locales GROUP BY locale").toArray();
  return new Map(rows.map((r) => [r.locale, r.n]));
}

/** How many items of `collectionId` in `status` are translated into `locale` (kept by migration 39's triggers). */
export function countInLocale(sql: SqlStorage, collectionId: string, locale: number, status: "draft" | "published"): number {
  return sql
    .exec<{ n: number }>(
      "SELECT coalesce(sum(n), 0) AS n FROM item_locale_counts WHERE collection_id = ? AND locale = ? AND status = ?",
      collectionId,
      locale,
      status,
    )
    .one().n;
}

/** Every item of the site (the primary's count: its values are every item's own), from the kept counts. */
export function countAllItems(sql: SqlStorage): number {
  return sql.exec<{ n: number }>("SELECT coalesce(sum(n), 0) AS n FROM item_counts").one().n;
}

/** Deletes up to `limit` translations of locales the site no longer has; returns how many. */
export function purgeRemovedTranslations(sql: SqlStorage, limit: number): number {
  return sql.exec(
    `DELETE FROM item_locales WHERE (seq, locale) IN (
       SELECT seq, locale FROM item_locales WHERE locale NOT IN (SELECT id FROM site_locales) LIMIT ?)`,
    limit,
  ).rowsWritten;
}

export function hasRemovedTranslations(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM item_locales WHERE locale NOT IN (SELECT id FROM site_locales) LIMIT 1").toArray().length > 0;
}

/** Every translation of one item, in the site's locale order. */
export function translationsOf(sql: SqlStorage, seq: number): TranslationRow[] {
  return sql
    .exec<TranslationRow>(
      `SELECT t.seq, t.locale, t.slug, t.data, t.updated_at FROM item_locales t JOIN site_locales l ON l.id = t.locale
        WHERE t.seq = ? ORDER BY l.position`,
      seq,
    )
    .toArray();
}

/** The translations of several items, each item's in the site's locale order. */
export function translationsOfSeqs(sql: SqlStorage, seqs: readonly number[]): Map<number, TranslationRow[]> {
  const out = new Map<number, TranslationRow[]>();
  if (seqs.length === 0) return out;
  const rows = sql
    .exec<TranslationRow>(
      `SELECT t.seq, t.locale, t.slug, t.data, t.updated_at FROM item_locales t JOIN site_locales l ON l.id = t.locale
        WHERE t.seq IN (SELECT value FROM json_each(?)) ORDER BY t.seq, l.position`,
      JSON.stringify(seqs),
    )
    .toArray();
  for (const r of rows) {
    const list = out.get(r.seq);
    if (list) list.push(r);
    else out.set(r.seq, [r]);
  }
  return out;
}

/** The item of `collectionId` whose slug in `locale` is `slug`, or null. */
export function seqByLocaleSlug(sql: SqlStorage, collectionId: string, locale: number, slug: string): number | null {
  const row = sql
    .exec<{ seq: number }>("SELECT seq FROM item_locales WHERE collection_id = ? AND locale = ? AND slug = ?", collectionId, locale, slug)
    .toArray()[0];
  return row?.seq ?? null;
}

/** The slug in `locale` of the published item of `collectionId` whose own slug is `slug`, or null. */
export function translatedSlug(sql: SqlStorage, collectionId: string, locale: number, slug: string): string | null {
  const row = sql
    .exec<{ slug: string }>(
      `SELECT t.slug FROM items i JOIN item_locales t ON t.seq = i.seq AND t.locale = ?3
        WHERE i.collection_id = ?1 AND i.slug = ?2 AND i.status = 'published'`,
      collectionId,
      slug,
      locale,
    )
    .toArray()[0];
  return row?.slug ?? null;
}

/**
 * Where `slug` in `locale` leads, for a slug no translation there has: the translation's slug of
 * the published item whose own slug it is, or whose translation there had it before a rename.
 */
export function slugInLocale(sql: SqlStorage, collectionId: string, locale: number, slug: string): string | null {
  return translatedSlug(sql, collectionId, locale, slug) ?? movedTranslationSlug(sql, collectionId, locale, slug);
}

/**
 * The slug in `locale` now of the published item whose translation there once had `slug`, or
 * null (never a translation's slug, or its item is unpublished or no longer translated).
 */
function movedTranslationSlug(sql: SqlStorage, collectionId: string, locale: number, slug: string): string | null {
  const row = sql
    .exec<{ slug: string }>(
      `SELECT t.slug FROM translation_slug_moves m
         JOIN item_locales t ON t.seq = m.seq AND t.locale = m.locale
         JOIN items i ON i.seq = m.seq
        WHERE m.collection_id = ?1 AND m.locale = ?2 AND m.slug = ?3 AND i.status = 'published'`,
      collectionId,
      locale,
      slug,
    )
    .toArray()[0];
  return row?.slug ?? null;
}

export function upsertTranslation(
  sql: SqlStorage,
  t: { seq: number; locale: number; collectionId: string; slug: string; data: string; updatedAt: string },
): void {
  sql.exec(
    `INSERT INTO item_locales (seq, locale, collection_id, slug, data, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (seq, locale) DO UPDATE SET slug = excluded.slug, data = excluded.data, updated_at = excluded.updated_at`,
    t.seq,
    t.locale,
    t.collectionId,
    t.slug,
    t.data,
    t.updatedAt,
  );
}

export function deleteTranslation(sql: SqlStorage, seq: number, locale: number): boolean {
  return sql.exec("DELETE FROM item_locales WHERE seq = ? AND locale = ?", seq, locale).rowsWritten > 0;
}

/** The job that deletes translations of removed locales, a slice per run. */
export const LOCALES_PURGE_JOB = "locales-purge";

export function hasStaleTranslations(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM item_locales WHERE stale = 1 LIMIT 1").toArray().length > 0;
}

/** The job that rebuilds stale search texts of translations (the trigger of migration 38 queues it too). */
export const TRANSLATIONS_SEARCH_JOB = "translations-search";

/** Sets the two search texts of a translation (content/translations.ts works them out) and clears its stale mark. */
export function setTranslationSearchText(sql: SqlStorage, seq: number, locale: number, text: string, own: string): void {
  sql.exec(
    "UPDATE item_locales SET search_text = ?3, own_search_text = ?4, stale = 0 WHERE seq = ?1 AND locale = ?2",
    seq,
    locale,
    text,
    own,
  );
}

export function clearStale(sql: SqlStorage, seq: number): void {
  sql.exec("UPDATE item_locales SET stale = 0 WHERE seq = ?", seq);
}

/** Marks every translation's search text stale (its locale's chain changed), or those of one collection (its fields changed). */
export function markTranslationsStale(sql: SqlStorage, collectionId?: string): number {
  return collectionId === undefined
    ? sql.exec("UPDATE item_locales SET stale = 1 WHERE stale = 0").rowsWritten
    : sql.exec("UPDATE item_locales SET stale = 1 WHERE stale = 0 AND collection_id = ?", collectionId).rowsWritten;
}

/** Up to `limit` items whose translations have stale search texts, with their collection. */
export function staleTranslatedItems(sql: SqlStorage, limit: number): { seq: number; collection_id: string }[] {
  return sql
    .exec<{ seq: number; collection_id: string }>(
      "SELECT DISTINCT seq, collection_id FROM item_locales WHERE stale = 1 ORDER BY seq LIMIT ?",
      limit,
    )
    .toArray();
}
