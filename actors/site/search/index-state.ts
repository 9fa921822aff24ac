/**
 * `search_index`: one row per item that is, or is on its way into or out of,
 * the vector index. SQL triggers on `items` (migration 4) keep it current on
 * every write path: publish, edit, unpublish, delete, batch import, field removal.
 *
 * - `pending`: published, waiting to be embedded (also after every edit);
 * - `indexed`: its vector of `model` is in the index;
 * - `failed`: the model gave up on it, `reason` says why;
 * - `removing`: unpublished or deleted; its vector is being removed.
 * `gen` grows with every change, so a batch that embedded an old version never
 * marks a newer one indexed.
 */

import { publishedItemsSql } from "../storage/items-table";

export type IndexState = "pending" | "indexed" | "failed";

/** What the dashboard shows of an item's place in the search index. */
export interface SearchIndexView {
  state: IndexState;
  reason?: string;
  model?: string;
  indexedAt?: string;
}

export type QueuedRow = {
  item_id: string;
  collection_id: string;
  state: "pending" | "removing";
  gen: number;
  text_hash: string | null;
  model: string | null;
};

/**
 * Keeps the queue in step with the plan (table `search_paused`, migration 22): on a plan without
 * search the triggers queue nothing, so a save writes no row here. When search comes back every
 * published item is queued again, since edits meanwhile were not queued (text that did not change
 * is not embedded again: `text_hash`). Writes only when the state changes; returns whether it did.
 */
export function setQueuePaused(sql: SqlStorage, paused: boolean): boolean {
  const now = sql.exec("SELECT 1 FROM search_paused").toArray().length > 0;
  if (now === paused) return false;
  if (paused) {
    sql.exec("INSERT INTO search_paused (id) VALUES (1)");
    return true;
  }
  sql.exec("DELETE FROM search_paused");
  sql.exec(
    `INSERT INTO search_index (item_id, collection_id, state, updated_at)
     ${publishedItemsSql("'pending', ?1")}
     ON CONFLICT (item_id) DO UPDATE SET state = 'pending', gen = gen + 1, reason = NULL, updated_at = ?1`,
    new Date().toISOString(),
  );
  return true;
}

export function hasQueuedWork(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM search_index WHERE state IN ('pending', 'removing') LIMIT 1").toArray().length > 0;
}

export function queuedBatch(sql: SqlStorage, limit: number): QueuedRow[] {
  return sql
    .exec<QueuedRow>(
      `SELECT item_id, collection_id, state, gen, text_hash, model FROM search_index
       WHERE state IN ('pending', 'removing') ORDER BY updated_at, item_id LIMIT ?`,
      limit,
    )
    .toArray();
}

export function markIndexed(sql: SqlStorage, row: QueuedRow, model: string, hash: string): void {
  sql.exec(
    `UPDATE search_index SET state = 'indexed', model = ?, text_hash = ?, reason = NULL, indexed_at = ?, updated_at = ?
     WHERE item_id = ? AND gen = ?`,
    model,
    hash,
    now(),
    now(),
    row.item_id,
    row.gen,
  );
}

export function markFailed(sql: SqlStorage, row: QueuedRow, reason: string): void {
  sql.exec(
    "UPDATE search_index SET state = 'failed', reason = ?, updated_at = ? WHERE item_id = ? AND gen = ?",
    reason,
    now(),
    row.item_id,
    row.gen,
  );
}

export function failAllPending(sql: SqlStorage, reason: string): void {
  sql.exec("UPDATE search_index SET state = 'failed', reason = ?, updated_at = ? WHERE state = 'pending'", reason, now());
}

/** The row goes once its vector is gone, unless the item changed again meanwhile. */
export function forget(sql: SqlStorage, row: QueuedRow): void {
  sql.exec("DELETE FROM search_index WHERE item_id = ? AND gen = ?", row.item_id, row.gen);
}

export function indexViews(sql: SqlStorage, itemIds: readonly string[]): Map<string, SearchIndexView> {
  const out = new Map<string, SearchIndexView>();
  for (const id of itemIds) {
    const r = sql
      .exec<{ state: string; reason: string | null; model: string | null; indexed_at: string | null }>(
        "SELECT state, reason, model, indexed_at FROM search_index WHERE item_id = ?",
        id,
      )
      .toArray()[0];
    if (!r || r.state === "removing") continue;
    const view: SearchIndexView = { state: r.state as IndexState };
    if (r.state === "failed" && r.reason) view.reason = r.reason;
    if (r.state === "indexed") {
      if (r.model) view.model = r.model;
      if (r.indexed_at) view.indexedAt = r.indexed_at;
    }
    out.set(id, view);
  }
  return out;
}

function now(): string {
  return new Date().toISOString();
}

/** Failed items go back in the queue (the dashboard's "Retry failed items"); returns how many. */
export function retryFailed(sql: SqlStorage): number {
  return sql.exec("UPDATE search_index SET state = 'pending', gen = gen + 1, reason = NULL, updated_at = ? WHERE state = 'failed'", now())
    .rowsWritten;
}

/** Items that have (or may still have) a vector in the index: each row a model ever indexed. */
export function itemsWithVectors(sql: SqlStorage): string[] {
  return sql
    .exec<{ item_id: string }>("SELECT item_id FROM search_index WHERE model IS NOT NULL")
    .toArray()
    .map((r) => r.item_id);
}
