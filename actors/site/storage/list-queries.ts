/**
 * The items repository's list pages and orders (items-table.ts re-exports them): the content
 * API's published pages, the order memo's whole orders, the dashboard's pages and the overview's
 * latest changes. Statements keep their exact text (items-table.ts).
 */
import type { ItemRow } from "./rows";
import { ITEM_COLUMNS, PUBLIC_COLUMNS, type PublicRow, type Status } from "./items-queries";

/**
 * A page of published rows with PUBLIC_COLUMNS, by a list query's clause and order. The page's
 * seqs are chosen first, from an index alone where one holds the filter and the order (each
 * field's index carries `published_at`, the default order: items-table.ts `syncFieldIndexes`),
 * and only those rows are read whole. Selecting the columns in the same statement would read
 * every row the filter keeps before sorting: 10,000 rows for a range that keeps a tenth of
 * 100,000 items.
 */
export function publishedPage(
  sql: SqlStorage,
  where: string,
  orderBy: string,
  args: readonly SqlStorageValue[],
  limit: number,
  offset: number,
): PublicRow[] {
  return sql
    .exec<PublicRow>(
      `SELECT ${PUBLIC_COLUMNS} FROM items WHERE seq IN (SELECT seq FROM items WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?)
       ORDER BY ${orderBy}`,
      ...args,
      limit,
      offset,
    )
    .toArray();
}

/**
 * The most rows a list query may have for its order to be kept in memory (the site object's order
 * memo, `SiteContext.orderOf`): about 8 bytes a row. Longer lists page with LIMIT … OFFSET.
 */
export const ORDER_MEMO_ROWS = 5000;

/** The seqs of the rows a list query selects, in its order (every page of it is a slice). */
export function orderedSeqs(sql: SqlStorage, where: string, orderBy: string, args: readonly SqlStorageValue[]): number[] {
  // Rows as arrays (`raw`): an object per row cost about three times the query itself for 1,000 rows.
  const out: number[] = [];
  for (const [seq] of sql.exec(`SELECT seq FROM items WHERE ${where} ORDER BY ${orderBy}`, ...args).raw()) out.push(seq as number);
  return out;
}

/** Rows by seq, as `publishedPage` reads them, in the order of `seqs` (one bound value: a JSON array). */
export function publishedBySeqs(sql: SqlStorage, seqs: readonly number[]): PublicRow[] {
  if (seqs.length === 0) return [];
  const rows = sql
    .exec<PublicRow>(`SELECT ${PUBLIC_COLUMNS} FROM items WHERE seq IN (SELECT value FROM json_each(?))`, JSON.stringify(seqs))
    .toArray();
  const at = new Map(seqs.map((seq, i) => [seq, i]));
  return rows.sort((a, b) => (at.get(a.seq) as number) - (at.get(b.seq) as number));
}

/** The dashboard list's statement, newest first; migration 7 indexes exactly this order. */
export function dashboardListSql(status: Status | null): { page: string } {
  const where = status ? "collection_id = ? AND status = ?" : "collection_id = ?";
  return { page: `SELECT ${ITEM_COLUMNS} FROM items WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?` };
}

/**
 * A page of a collection's rows of every status sorted by `key` (a column or field expression with
 * an index on (collection_id, status, key)): the first `offset + limit` of each status in order,
 * read from its index alone, merged, and only the page's rows read whole. One index range cannot
 * serve both statuses in order, and sorting every row read whole cost a read of the collection.
 */
export function bothStatusesPage(
  sql: SqlStorage,
  collectionId: string,
  key: string,
  dir: "ASC" | "DESC",
  limit: number,
  offset: number,
): ItemRow[] {
  const order = `${key} ${dir}, seq ${dir}`;
  const prefix = (status: Status) =>
    `SELECT * FROM (SELECT seq, ${key} AS k FROM items WHERE collection_id = ?1 AND status = '${status}' ORDER BY ${order} LIMIT ?2)`;
  return sql
    .exec<ItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM items WHERE seq IN (
         SELECT seq FROM (${prefix("draft")} UNION ALL ${prefix("published")}) ORDER BY k ${dir}, seq ${dir} LIMIT ?3 OFFSET ?4)
       ORDER BY ${order}`,
      collectionId,
      offset + limit,
      limit,
      offset,
    )
    .toArray();
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
  return sql
    .exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, ...args, limit, offset)
    .toArray();
}

type RecentRow = {
  id: string;
  slug: string;
  collection_id: string;
  status: string;
  data: string;
  updated_at: string;
  pending: number;
};

/**
 * The latest changed items of any collection, newest first (the overview). Saving pending changes
 * is a change too: an item's time is its pending changes' when they are newer (read-only join on
 * item_pending's key, the table pending-table.ts owns).
 */
export function recentRows(sql: SqlStorage, collectionIds: readonly string[], limit: number): RecentRow[] {
  // The latest `limit` of each collection and status (items_by_updated, a few entries each) and of
  // the pending changes hold the latest `limit` of all: the site's items are never all read.
  const candidates: number[] = [];
  for (const id of collectionIds)
    for (const status of ["draft", "published"])
      for (const [seq] of sql
        .exec("SELECT seq FROM items WHERE collection_id = ? AND status = ? ORDER BY updated_at DESC, seq DESC LIMIT ?", id, status, limit)
        .raw())
        candidates.push(seq as number);
  for (const [seq] of sql.exec("SELECT seq FROM item_pending ORDER BY updated_at DESC LIMIT ?", limit).raw())
    candidates.push(seq as number);
  return sql
    .exec<RecentRow>(
      `SELECT i.id, i.slug, i.collection_id, i.status, i.data, max(i.updated_at, coalesce(p.updated_at, '')) AS updated_at,
         p.seq IS NOT NULL AS pending
       FROM items i LEFT JOIN item_pending p ON p.seq = i.seq
       WHERE i.seq IN (SELECT value FROM json_each(?))
       ORDER BY 6 DESC, i.seq DESC LIMIT ?`,
      JSON.stringify(candidates),
      limit,
    )
    .toArray();
}
