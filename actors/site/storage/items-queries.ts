/**
 * The items repository's reads (items-table.ts re-exports them, beside the writes): whole rows,
 * public rows, counts (list pages: list-queries.ts), and the fragments of SQL on `items` that statements on other
 * tables embed (search_index, item_revisions). Statements keep their exact text (items-table.ts).
 */
import { FIELD_KEY } from "../../../src/contract/field-keys";
import type { ItemRow } from "./rows";
import { selectIn } from "./sql-in";

export type Status = "draft" | "published";

/**
 * `public_data` for `SELECT ${ITEM_COLUMNS}, ${PUBLIC_DATA_COLUMN} FROM items`: the kept public JSON
 * (table `item_public`), or NULL for a row that has none yet (then it is computed when read). A
 * kept value of '' (never JSON) says "the stored data", with `media` (the expanded MediaRefs)
 * laid over it by `json_patch` when the item shows media (`keepPublicData`): an item's values
 * are then stored once, and a save writes its 5 KB once, not twice.
 */
export const PUBLIC_DATA_COLUMN = `(SELECT CASE WHEN p.public_json <> '' THEN p.public_json WHEN p.media IS NULL THEN items.data
    ELSE json_patch(items.data, p.media) END FROM item_public p WHERE p.seq = items.seq) AS public_data`;

/**
 * What presenting a published item reads: the row without its stored `data` or `search_text`
 * (long rich text is not copied out of SQLite for nothing), with its public JSON.
 */
export const PUBLIC_COLUMNS = `seq, id, collection_id, slug, status, published_at, created_at, updated_at, ${PUBLIC_DATA_COLUMN}`;

/** A row read with PUBLIC_COLUMNS, or a whole row (`ITEM_COLUMNS, PUBLIC_DATA_COLUMN`). */
export type PublicRow = Omit<ItemRow, "data"> & { data?: string };

/**
 * Every column of `items` but `search_text`: what an ItemRow holds. The search text (the plain
 * text of the rich text, as long as the item) is written with the data and read only by SQL
 * (list-query.ts); a whole row read for a save or a page does not copy it out of SQLite.
 */
/** Every column but the values. */
const STATE_COLUMNS =
  "seq, id, collection_id, slug, status, published_at, created_at, updated_at, created_by, updated_by, publish_at, unpublish_at, schedule_tz, schedule_by";
export const ITEM_COLUMNS =
  "seq, id, collection_id, slug, status, data, published_at, created_at, updated_at, created_by, updated_by, publish_at, unpublish_at, schedule_tz, schedule_by";

/** The whole row by its seq. */
export const rowBySeq = (sql: SqlStorage, seq: number): ItemRow =>
  sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE seq = ?`, seq).one();

/** Items with a publish or unpublish time at or before `now`, earliest first (at most `limit`). */
export function dueScheduled(sql: SqlStorage, now: number, limit: number): { seq: number; action: "publish" | "unpublish"; at: number }[] {
  return sql
    .exec<{ seq: number; action: "publish" | "unpublish"; at: number }>(
      `SELECT seq, action, at FROM (
         SELECT seq, 'publish' AS action, publish_at AS at FROM items WHERE publish_at IS NOT NULL AND publish_at <= ?1
         UNION ALL
         SELECT seq, 'unpublish' AS action, unpublish_at AS at FROM items WHERE unpublish_at IS NOT NULL AND unpublish_at <= ?1)
       ORDER BY at, action LIMIT ?2`,
      now,
      limit,
    )
    .toArray();
}

/** The earliest publish or unpublish time of any item, or null. */
export function nextScheduled(sql: SqlStorage): number | null {
  return sql
    .exec<{ t: number | null }>(
      "SELECT min(t) AS t FROM (SELECT min(publish_at) AS t FROM items UNION ALL SELECT min(unpublish_at) AS t FROM items)",
    )
    .one().t;
}

/** How many items carry a schedule (bounded per site). */
export function countScheduled(sql: SqlStorage): number {
  return sql.exec<{ n: number }>("SELECT count(*) AS n FROM items WHERE publish_at IS NOT NULL OR unpublish_at IS NOT NULL").one().n;
}

type UpcomingRow = {
  id: string;
  slug: string;
  collection_id: string;
  data: string;
  status: string;
  publish_at: number | null;
  unpublish_at: number | null;
  schedule_tz: string | null;
};

/** The next scheduled changes of any collection, earliest first (the Overview's "goes live next"). */
export function upcomingScheduled(sql: SqlStorage, limit: number): UpcomingRow[] {
  return sql
    .exec<UpcomingRow>(
      `SELECT id, slug, collection_id, data, status, publish_at, unpublish_at, schedule_tz FROM items
       WHERE publish_at IS NOT NULL OR unpublish_at IS NOT NULL
       ORDER BY min(coalesce(publish_at, unpublish_at), coalesce(unpublish_at, publish_at)) LIMIT ?`,
      limit,
    )
    .toArray();
}
/** Up to `limit` items' search text after row `seq`, in `seq` order (a chunked rewrite's next chunk). */
export function searchTextsAfter(sql: SqlStorage, seq: number, limit: number): { seq: number; search_text: string }[] {
  return sql
    .exec<{ seq: number; search_text: string }>("SELECT seq, search_text FROM items WHERE seq > ? ORDER BY seq LIMIT ?", seq, limit)
    .toArray();
}
// ---- One item -----------------------------------------------------------------------------

/** An item of the collection by id, in any status. */
export function findItem(sql: SqlStorage, collectionId: string, id: string): ItemRow | undefined {
  return sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE collection_id = ? AND id = ?`, collectionId, id).toArray()[0];
}

/** An item of the collection by slug, in any status (one lookup of the (collection, slug) index). */
export function findItemBySlug(sql: SqlStorage, collectionId: string, slug: string): ItemRow | undefined {
  return sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE collection_id = ? AND slug = ?`, collectionId, slug).toArray()[0];
}

/** The id of the collection's item whose id or slug is `ref` (a reference being written). */
export function findItemIdByRef(sql: SqlStorage, collectionId: string, ref: string): string | null {
  return (
    sql
      .exec<{ id: string }>("SELECT id FROM items WHERE collection_id = ? AND (id = ? OR slug = ?) LIMIT 1", collectionId, ref, ref)
      .toArray()[0]?.id ?? null
  );
}

/** A published item by slug, with PUBLIC_COLUMNS (the content API's single-item read). */
export function findPublishedBySlug(sql: SqlStorage, collectionId: string, slug: string): PublicRow | undefined {
  return sql
    .exec<PublicRow>(
      `SELECT ${PUBLIC_COLUMNS} FROM items WHERE collection_id = ? AND slug = ? AND status = 'published'`,
      collectionId,
      slug,
    )
    .toArray()[0];
}

/** The id of a published item by slug (related items). */
export function findPublishedIdBySlug(sql: SqlStorage, collectionId: string, slug: string): string | undefined {
  return sql
    .exec<{ id: string }>("SELECT id FROM items WHERE collection_id = ? AND slug = ? AND status = 'published'", collectionId, slug)
    .toArray()[0]?.id;
}

/** An item by id in any collection, every column (search_text too): an import's own draft being removed. */
export function itemById(sql: SqlStorage, id: string): ItemRow | undefined {
  return sql.exec<ItemRow>("SELECT * FROM items WHERE id = ?", id).toArray()[0];
}

/** An item's stored data by its row number. */
export function dataOfSeq(sql: SqlStorage, seq: number): string {
  return sql.exec<{ data: string }>("SELECT data FROM items WHERE seq = ?", seq).one().data;
}

// ---- Many items ---------------------------------------------------------------------------

/** Which of `slugs` the collection's items already use. */
export function takenSlugs(sql: SqlStorage, collectionId: string, slugs: readonly string[]): string[] {
  return selectIn<{ slug: string }>(sql, slugs, (list) => `SELECT slug FROM items WHERE collection_id = ? AND slug IN (${list})`, [
    collectionId,
  ]).map((r) => r.slug);
}

/** Whole rows by id, any status (search results before filtering). */
export function rowsByIds(sql: SqlStorage, ids: readonly string[]): ItemRow[] {
  return selectIn<ItemRow>(sql, ids, (list) => `SELECT ${ITEM_COLUMNS} FROM items WHERE id IN (${list})`);
}

/** An item row without its values (what a status change decides on). */
export type ItemState = Omit<ItemRow, "data">;

/** Rows by id, any status, without their values: a bulk status change reads a thousand at once. */
export function statesByIds(sql: SqlStorage, ids: readonly string[]): ItemState[] {
  return selectIn<ItemState>(sql, ids, (list) => `SELECT ${STATE_COLUMNS} FROM items WHERE id IN (${list})`);
}

/** Published rows by id, with PUBLIC_COLUMNS (references being expanded). */
export function publishedRowsByIds(sql: SqlStorage, ids: Iterable<string>): PublicRow[] {
  return selectIn<PublicRow>(sql, ids, (list) => `SELECT ${PUBLIC_COLUMNS} FROM items WHERE status = 'published' AND id IN (${list})`);
}

/**
 * The published items among the ids in `list` (placeholders) whose vector of the model (the one
 * leading parameter) is indexed. Written so the ids drive the lookup: as a JOIN, SQLite walked
 * `search_index_by_state` over every indexed row once the list had more than a few ids (2.6 ms of
 * CPU per search or related request at 10,000 items).
 */
export function indexedItemsSql(list: string): string {
  return `SELECT items.*, ${PUBLIC_DATA_COLUMN} FROM items
    WHERE EXISTS (SELECT 1 FROM search_index s WHERE s.item_id = items.id AND s.state = 'indexed' AND s.model = ?)
      AND items.status = 'published' AND items.id IN (${list})`;
}

/** Published items among `ids` indexed for `model`, with their public data. */
export function indexedPublishedRows(sql: SqlStorage, ids: readonly string[], model: string): ItemRow[] {
  return selectIn<ItemRow>(sql, ids, indexedItemsSql, [model]);
}

/** Seq, collection and data of the items among `ids` (their public data is being rebuilt). */
export function dataByIds(sql: SqlStorage, ids: readonly string[]): { seq: number; collection_id: string; data: string }[] {
  return selectIn<{ seq: number; collection_id: string; data: string }>(
    sql,
    ids,
    (list) => `SELECT seq, collection_id, data FROM items WHERE id IN (${list})`,
  );
}

/** Seq and data of every item of a collection, or (`onlyMissing`) of those without public JSON. */
export function dataOfCollection(sql: SqlStorage, collectionId: string, onlyMissing = false): { seq: number; data: string }[] {
  const missing = " AND NOT EXISTS (SELECT 1 FROM item_public p WHERE p.seq = items.seq)";
  return sql
    .exec<{ seq: number; data: string }>(`SELECT seq, data FROM items WHERE collection_id = ?${onlyMissing ? missing : ""}`, collectionId)
    .toArray();
}

/** Seq, collection and data of up to `limit` items after `seq`, in `seq` order (a chunked rebuild's next chunk). */
export function dataAfterSeq(sql: SqlStorage, seq: number, limit: number): { seq: number; collection_id: string; data: string }[] {
  return sql
    .exec<{ seq: number; collection_id: string; data: string }>(
      "SELECT seq, collection_id, data FROM items WHERE seq > ? ORDER BY seq LIMIT ?",
      seq,
      limit,
    )
    .toArray();
}

/** Ids and text values of one field of a collection's items (`expr` from fieldExpr). */
export function textValuesOf(sql: SqlStorage, collectionId: string, expr: string): { id: string; v: string }[] {
  return sql
    .exec<{ id: string; v: string }>(
      `SELECT id, ${expr} AS v FROM items WHERE collection_id = ? AND typeof(${expr}) = 'text'`,
      collectionId,
    )
    .toArray();
}

/** Items of a collection whose media field (`expr`) holds one of `mediaIds`. */
export function itemsHoldingMedia(
  sql: SqlStorage,
  collectionId: string,
  expr: string,
  mediaIds: readonly string[],
): { id: string; slug: string; m: string }[] {
  return selectIn<{ id: string; slug: string; m: string }>(
    sql,
    mediaIds,
    (list) => `SELECT id, slug, ${expr} AS m FROM items WHERE collection_id = ? AND ${expr} IN (${list})`,
    [collectionId],
  );
}

/**
 * Items of a collection whose gallery field `key` (an array of media ids) holds one of `mediaIds`,
 * one row per item and id held. json_each with a path reads the array in place; a value that is
 * not an array (data written before the field became a gallery) is read as a one-entry list.
 */
export function itemsHoldingMediaInList(
  sql: SqlStorage,
  collectionId: string,
  key: string,
  mediaIds: readonly string[],
): { id: string; slug: string; m: string }[] {
  if (!FIELD_KEY.test(key)) throw new Error(`unsafe field key ${key}`);
  return selectIn<{ id: string; slug: string; m: string }>(
    sql,
    mediaIds,
    (list) =>
      `SELECT DISTINCT items.id, items.slug, g.value AS m FROM items, json_each(items.data, '$.${key}') AS g
       WHERE items.collection_id = ? AND g.value IN (${list})`,
    [collectionId],
  );
}

// ---- Counts -------------------------------------------------------------------------------

/** How many items match `where` (a list query's clause, built by reads/list-query.ts). */
export function countWhere(sql: SqlStorage, where: string, args: readonly SqlStorageValue[]): number {
  return sql.exec<{ n: number }>(`SELECT count(*) AS n FROM items WHERE ${where}`, ...args).one().n;
}

/** Items of a collection, every status (table `item_counts`, kept by triggers: one row per status read). */
export function countInCollection(sql: SqlStorage, collectionId: string): number {
  return sql.exec<{ n: number }>("SELECT coalesce(sum(n), 0) AS n FROM item_counts WHERE collection_id = ?", collectionId).one().n;
}

/** Items of a collection in one status (`item_counts`). */
export function countInStatus(sql: SqlStorage, collectionId: string, status: Status): number {
  return sql
    .exec<{ n: number }>("SELECT coalesce(sum(n), 0) AS n FROM item_counts WHERE collection_id = ? AND status = ?", collectionId, status)
    .one().n;
}

/** Items of a collection whose field (`expr` from fieldExpr) holds a value, or (`value`) this value. */
export function countWithValue(sql: SqlStorage, collectionId: string, expr: string, value?: string): number {
  return value === undefined
    ? sql.exec<{ n: number }>(`SELECT count(*) AS n FROM items WHERE collection_id = ? AND ${expr} IS NOT NULL`, collectionId).one().n
    : sql.exec<{ n: number }>(`SELECT count(*) AS n FROM items WHERE collection_id = ? AND ${expr} = ?`, collectionId, value).one().n;
}

/** Slugs of up to `limit` items of the collection where `expr` (a field's SQL) has no value, oldest first. */
export function slugsWithoutValue(sql: SqlStorage, collectionId: string, expr: string, limit: number): string[] {
  return sql
    .exec<{ slug: string }>(`SELECT slug FROM items WHERE collection_id = ? AND ${expr} IS NULL ORDER BY seq LIMIT ?`, collectionId, limit)
    .toArray()
    .map((r) => r.slug);
}

/** Items by status, over every collection (the overview). */
export function countByStatus(sql: SqlStorage): { status: string; n: number }[] {
  return sql.exec<{ status: string; n: number }>("SELECT status, sum(n) AS n FROM item_counts GROUP BY status").toArray();
}

/**
 * Slug, last change and image URL (`imageSql`, a media lookup or NULL) of the published items with
 * `seq` in [`fromSeq`, `toSeq`], newest first (a sitemap part; items_by_status_seq finds them).
 */
export function sitemapRows(
  sql: SqlStorage,
  collectionId: string,
  imageSql: string,
  fromSeq: number,
  toSeq: number,
): Iterable<{ seq: number; slug: string; updated_at: string; image: string | null }> {
  return sql.exec<{ seq: number; slug: string; updated_at: string; image: string | null }>(
    `SELECT seq, slug, updated_at, ${imageSql} AS image FROM items
     WHERE collection_id = ? AND status = 'published' AND seq BETWEEN ? AND ? ORDER BY published_at DESC, seq DESC`,
    collectionId,
    fromSeq,
    toSeq,
  );
}

/** The highest `seq` and the latest change of a collection's published items (each one index seek). */
export function publishedExtent(sql: SqlStorage, collectionId: string): { maxSeq: number; newest: string } {
  const maxSeq = sql
    .exec<{ s: number | null }>("SELECT max(seq) AS s FROM items WHERE collection_id = ? AND status = 'published'", collectionId)
    .one().s;
  const newest = sql
    .exec<{ u: string | null }>("SELECT max(updated_at) AS u FROM items WHERE collection_id = ? AND status = 'published'", collectionId)
    .one().u;
  return { maxSeq: maxSeq ?? 0, newest: newest ?? "" };
}

/** The seqs of the items among `ids` that exist, and whether any does not. */
export function seqsOfIds(sql: SqlStorage, ids: readonly string[]): { seqs: number[]; missing: boolean } {
  const rows = selectIn<{ seq: number }>(sql, ids, (list) => `SELECT seq FROM items WHERE id IN (${list})`);
  return { seqs: rows.map((r) => r.seq), missing: rows.length < new Set(ids).size };
}

/** The newest `limit` published items, whole and with their public data (feeds). */
export function newestPublished(sql: SqlStorage, collectionId: string, limit: number): ItemRow[] {
  return sql
    .exec<ItemRow>(
      `SELECT ${ITEM_COLUMNS}, ${PUBLIC_DATA_COLUMN} FROM items WHERE collection_id = ? AND status = 'published' ORDER BY published_at DESC, seq DESC LIMIT ?`,
      collectionId,
      limit,
    )
    .toArray();
}

/**
 * The sub-select of a reference filter: ids of the items of collection `target` (SQL of a
 * bound value) that match `condition` on alias `r` (reads/list-query.ts builds both).
 */
export const referencedIdsSql = (target: string, condition: string): string =>
  `(SELECT r.id FROM items r WHERE r.collection_id = ${target} AND ${condition})`;

/**
 * Every published item as the rows of another table's INSERT … SELECT: its id, its collection,
 * then `rest` (that table's other columns, as SQL). Search queues them all again with it.
 */
export const publishedItemsSql = (rest: string): string => `SELECT id, collection_id, ${rest} FROM items WHERE status = 'published'`;

/** Whether the item of id `idSql` (a column of another table's statement) exists: the trash and pruning of revisions. */
export const itemExistsSql = (idSql: string): string => `EXISTS (SELECT 1 FROM items i WHERE i.id = ${idSql})`;
