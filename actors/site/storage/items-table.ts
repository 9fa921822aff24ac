/**
 * The items table's one repository: every SQL statement that reads or writes `items` is in
 * this file (migrations.ts only creates it). "Where is an item read or written?" — here; the
 * rooms above decide what to read and write (content/ validates and writes, reads/ builds list
 * queries and presents rows, seo/ and search/ read what they need) and call these functions.
 *
 * Statements keep their exact text so SQLite's plan for each stays what the indexes of
 * migrations 1–9 were made for. Field keys reach SQL only through `fieldExpr` or after
 * FIELD_KEY, and every `IN (…)` goes through selectIn (bound-parameter limit).
 */
import { FIELD_KEY } from "../../../src/contract/field-keys";
import type { ItemRow } from "./rows";
import { selectIn } from "./sql-in";

type Status = "draft" | "published";

/**
 * `public_data` for `SELECT *, ${PUBLIC_DATA_COLUMN} FROM items`: the stored public JSON (table
 * `item_public`), or NULL for a row that has none yet (then it is computed when read).
 */
export const PUBLIC_DATA_COLUMN = "(SELECT public_json FROM item_public p WHERE p.seq = items.seq) AS public_data";

/**
 * What presenting a published item reads: the row without its stored `data` or `search_text`
 * (long rich text is not copied out of SQLite for nothing), with its public JSON.
 */
export const PUBLIC_COLUMNS = `seq, id, collection_id, slug, status, published_at, created_at, updated_at, ${PUBLIC_DATA_COLUMN}`;

/** A row read with PUBLIC_COLUMNS, or a whole row (`SELECT *, PUBLIC_DATA_COLUMN`). */
export type PublicRow = Omit<ItemRow, "data"> & { data?: string };

const safeKey = (key: string): string => {
  if (!FIELD_KEY.test(key)) throw new Error(`unsafe field key ${key}`);
  return key;
};

// ---- Writes -------------------------------------------------------------------------------

export interface NewItemRow {
  id: string;
  collectionId: string;
  slug: string;
  status: Status;
  data: string;
  searchText: string;
  publishedAt: string | null;
  now: string;
}

export function insertItem(sql: SqlStorage, r: NewItemRow): ItemRow {
  return sql
    .exec<ItemRow>(
      `INSERT INTO items (id, collection_id, slug, status, data, search_text, published_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      r.id,
      r.collectionId,
      r.slug,
      r.status,
      r.data,
      r.searchText,
      r.publishedAt,
      r.now,
      r.now,
    )
    .one();
}

export function updateItemContent(sql: SqlStorage, seq: number, slug: string, data: string, searchText: string, now: string): ItemRow {
  return sql
    .exec<ItemRow>(
      "UPDATE items SET slug = ?, data = ?, search_text = ?, updated_at = ? WHERE seq = ? RETURNING *",
      slug,
      data,
      searchText,
      now,
      seq,
    )
    .one();
}

/** Publishing keeps the first publish time (`publishedAt` only fills an empty one). */
export function updateItemStatus(sql: SqlStorage, seq: number, status: Status, publishedAt: string | null, now: string): ItemRow {
  return sql
    .exec<ItemRow>(
      "UPDATE items SET status = ?, published_at = COALESCE(published_at, ?), updated_at = ? WHERE seq = ? RETURNING *",
      status,
      publishedAt,
      now,
      seq,
    )
    .one();
}

export function deleteItemRow(sql: SqlStorage, seq: number): void {
  sql.exec("DELETE FROM items WHERE seq = ?", seq);
}

/**
 * Who created (`created`) or last changed the item: the account or key id of the caller, null for
 * the operator and admin keys (src/access/). Written in the transaction of the change.
 */
export function setItemAuthor(sql: SqlStorage, seq: number, actorId: string | null, created: boolean): ItemRow {
  return sql
    .exec<ItemRow>(
      created
        ? "UPDATE items SET created_by = ?1, updated_by = ?1 WHERE seq = ?2 RETURNING *"
        : "UPDATE items SET updated_by = ?1 WHERE seq = ?2 RETURNING *",
      actorId,
      seq,
    )
    .one();
}

/** Drops a removed field's value from every item of the collection. */
export function removeFieldValues(sql: SqlStorage, collectionId: string, key: string): void {
  sql.exec(`UPDATE items SET data = json_remove(data, '$.${safeKey(key)}') WHERE collection_id = ?`, collectionId);
}

/** Every item of a collection that is being deleted. */
export function deleteCollectionItems(sql: SqlStorage, collectionId: string): void {
  sql.exec("DELETE FROM items WHERE collection_id = ?", collectionId);
}

/** An item's search text after the collection's searchable fields changed. */
export function setSearchText(sql: SqlStorage, seq: number, text: string): void {
  sql.exec("UPDATE items SET search_text = ? WHERE seq = ?", text, seq);
}

/** One field's value of one item, rewritten in place (stored rich text cleaned once). */
export function setFieldValue(sql: SqlStorage, id: string, key: string, value: string): void {
  sql.exec(`UPDATE items SET data = json_set(data, '$.${safeKey(key)}', ?) WHERE id = ?`, value, id);
}

// ---- One item -----------------------------------------------------------------------------

/** An item of the collection by id, in any status. */
export function findItem(sql: SqlStorage, collectionId: string, id: string): ItemRow | undefined {
  return sql.exec<ItemRow>("SELECT * FROM items WHERE collection_id = ? AND id = ?", collectionId, id).toArray()[0];
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
  return selectIn<ItemRow>(sql, ids, (list) => `SELECT * FROM items WHERE id IN (${list})`);
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

// ---- Counts -------------------------------------------------------------------------------

/** How many items match `where` (a list query's clause, built by reads/list-query.ts). */
export function countWhere(sql: SqlStorage, where: string, args: readonly SqlStorageValue[]): number {
  return sql.exec<{ n: number }>(`SELECT count(*) AS n FROM items WHERE ${where}`, ...args).one().n;
}

export function countInCollection(sql: SqlStorage, collectionId: string): number {
  return sql.exec<{ n: number }>("SELECT count(*) AS n FROM items WHERE collection_id = ?", collectionId).one().n;
}

/** Items of a collection whose field (`expr` from fieldExpr) holds a value, or (`value`) this value. */
export function countWithValue(sql: SqlStorage, collectionId: string, expr: string, value?: string): number {
  return value === undefined
    ? sql.exec<{ n: number }>(`SELECT count(*) AS n FROM items WHERE collection_id = ? AND ${expr} IS NOT NULL`, collectionId).one().n
    : sql.exec<{ n: number }>(`SELECT count(*) AS n FROM items WHERE collection_id = ? AND ${expr} = ?`, collectionId, value).one().n;
}

/** Items by status, over every collection (the overview). */
export function countByStatus(sql: SqlStorage): { status: string; n: number }[] {
  return sql.exec<{ status: string; n: number }>("SELECT status, count(*) AS n FROM items GROUP BY status").toArray();
}

// ---- Lists --------------------------------------------------------------------------------

/** A page of published rows with PUBLIC_COLUMNS, by a list query's clause and order. */
export function publishedPage(
  sql: SqlStorage,
  where: string,
  orderBy: string,
  args: readonly SqlStorageValue[],
  limit: number,
  offset: number,
): PublicRow[] {
  return sql
    .exec<PublicRow>(`SELECT ${PUBLIC_COLUMNS} FROM items WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, ...args, limit, offset)
    .toArray();
}

/** The dashboard list's statements, newest first; migration 7 indexes exactly this order. */
export function dashboardListSql(status: Status | null): { count: string; page: string } {
  const where = status ? "collection_id = ? AND status = ?" : "collection_id = ?";
  return {
    count: `SELECT count(*) AS n FROM items WHERE ${where}`,
    page: `SELECT * FROM items WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`,
  };
}

/** A page of whole rows by a clause and order (the dashboard's sorted or searched list). */
export function rowsPage(
  sql: SqlStorage,
  where: string,
  orderBy: string,
  args: readonly SqlStorageValue[],
  limit: number,
  offset: number,
): ItemRow[] {
  return sql.exec<ItemRow>(`SELECT * FROM items WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, ...args, limit, offset).toArray();
}

type RecentRow = { id: string; slug: string; collection_id: string; status: string; data: string; updated_at: string };

/** The latest changed items of any collection, newest first (the overview). */
export function recentRows(sql: SqlStorage, limit: number): RecentRow[] {
  return sql
    .exec<RecentRow>(
      "SELECT id, slug, collection_id, status, data, updated_at FROM items ORDER BY updated_at DESC, seq DESC LIMIT ?",
      limit,
    )
    .toArray();
}

/** Slug, last change and image URL (`imageSql`, a media lookup or NULL) of every published item, newest first (sitemaps). */
export function sitemapRows(
  sql: SqlStorage,
  collectionId: string,
  imageSql: string,
): Iterable<{ slug: string; updated_at: string; image: string | null }> {
  return sql.exec<{ slug: string; updated_at: string; image: string | null }>(
    `SELECT slug, updated_at, ${imageSql} AS image FROM items
     WHERE collection_id = ? AND status = 'published' ORDER BY published_at DESC, seq DESC`,
    collectionId,
  );
}

/** The newest `limit` published items, whole and with their public data (feeds). */
export function newestPublished(sql: SqlStorage, collectionId: string, limit: number): ItemRow[] {
  return sql
    .exec<ItemRow>(
      `SELECT *, ${PUBLIC_DATA_COLUMN} FROM items WHERE collection_id = ? AND status = 'published' ORDER BY published_at DESC, seq DESC LIMIT ?`,
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
