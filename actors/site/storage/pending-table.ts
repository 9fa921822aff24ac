/**
 * Pending changes of published items (`item_pending`): every statement on the table is here.
 * `items.data` and `item_public` stay the live version, always, so every public reader (content
 * API, rendered pages, sitemap, feeds, search) never sees a pending change by construction; only
 * the crawler preview and share links read this table. Saving and discarding record the item's
 * revision (kind `pending` / `discard`) in the same transaction.
 */
import type { ItemRow } from "./rows";
import { checkItemSize } from "./item-size";
import { selectIn } from "./sql-in";
import { type Change, recordRevision } from "./revisions-table";

export type PendingRow = { seq: number; collection_id: string; slug: string; data: string; updated_at: string; updated_by: string | null };

export function findPending(sql: SqlStorage, seq: number): PendingRow | undefined {
  return sql.exec<PendingRow>("SELECT * FROM item_pending WHERE seq = ?", seq).toArray()[0];
}

/** Pending rows of the items among `seqs` (a dashboard page). */
export function pendingOf(sql: SqlStorage, seqs: readonly number[]): Map<number, PendingRow> {
  return new Map(selectIn<PendingRow>(sql, seqs, (list) => `SELECT * FROM item_pending WHERE seq IN (${list})`).map((p) => [p.seq, p]));
}

/** Whether another item's pending changes claim `slug` in the collection. */
export function pendingSlugTaken(sql: SqlStorage, collectionId: string, slug: string, seq: number): boolean {
  return (
    sql.exec("SELECT 1 FROM item_pending WHERE collection_id = ? AND slug = ? AND seq <> ?", collectionId, slug, seq).toArray().length > 0
  );
}

/**
 * Saves `item`'s pending version (replacing an earlier one) and records it as a `pending` revision.
 * `searchText`: the item's search text with these values. Publishing writes them to `items`, so
 * they are refused (413) here when they would make the item pass MAX_ITEM_BYTES, before anything is written.
 */
export function savePending(
  sql: SqlStorage,
  item: ItemRow,
  slug: string,
  data: string,
  searchText: string,
  now: string,
  change: Change,
): PendingRow {
  checkItemSize(slug, data, searchText);
  const before = findPending(sql, item.seq);
  const row = sql
    .exec<PendingRow>(
      `INSERT INTO item_pending (seq, collection_id, slug, data, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (seq) DO UPDATE SET slug = excluded.slug, data = excluded.data, updated_at = excluded.updated_at, updated_by = excluded.updated_by
       RETURNING *`,
      item.seq,
      item.collection_id,
      slug,
      data,
      now,
      change.actor.id,
    )
    .one();
  const shown = (p: PendingRow | undefined): ItemRow => (p ? { ...item, slug: p.slug, data: p.data, updated_at: p.updated_at } : item);
  recordRevision(sql, shown(before), shown(row), "pending", change);
  return row;
}

/**
 * Drops the item's pending version. `discarded`: record a `discard` revision of the live
 * version (what was discarded stays in the `pending` revision before it); a publish that
 * applied the changes records its own.
 */
export function dropPending(sql: SqlStorage, item: ItemRow, change: Change | null): boolean {
  const before = findPending(sql, item.seq);
  if (!before) return false;
  sql.exec("DELETE FROM item_pending WHERE seq = ?", item.seq);
  if (change) recordRevision(sql, { ...item, slug: before.slug, data: before.data }, item, "discard", change);
  return true;
}
