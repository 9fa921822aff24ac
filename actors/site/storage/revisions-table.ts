/**
 * The item history's table (`item_revisions`): every statement on it is here. The items
 * repository (items-table.ts) calls `recordRevision` inside each statement that changes an
 * item, so the revision and the change share one transaction and no write path can skip it.
 * What is done with revisions (listing, restore, the trash, pruning) is in actors/site/history/.
 *
 * A revision is a snapshot of the item after the change (restore is one read, pruning one
 * DELETE, no row depends on another). Its values are stored as '' (LIVE) while they are the
 * item's current `items.data`, which most revisions' are (a created item that is never edited,
 * a publish): migration 31's triggers copy them in before that data changes or the item goes,
 * and `DATA` reads either. Keyed by the item's id, never its seq (seqs are reused after the newest
 * item is deleted).
 */
import { utf8Length } from "./item-size";
import type { ItemRow } from "./rows";
import { selectIn } from "./sql-in";
import { itemExistsSql } from "./items-queries";
import type { REVISION_KIND_VALUES } from "../../../src/contract/history";

/** Who made a change, copied at write time (accounts get renamed, keys revoked). */
export interface RevisionActor {
  /** operator | siteKey | account | apiKey | schedule | system */
  kind: string;
  id: string | null;
  label: string;
  /** The person's name (an account; for the schedule, whoever set it); absent or null otherwise. */
  name?: string | null;
}

export type RevisionKind = (typeof REVISION_KIND_VALUES)[number];

/** What the caller of a repository write says about it; the kind defaults to the statement's own. */
export interface Change {
  actor: RevisionActor;
  kind?: RevisionKind;
  note?: string | null;
}

/**
 * Durable Object SQLite refuses a row over 2 MB in production, but the local runtime stores far
 * larger ones, so the limit is ours to enforce: a change whose snapshot (data and slug, UTF-8)
 * would not fit is refused rather than left unrecorded. Every write of an item's values is held
 * to MAX_ITEM_BYTES first (item-size.ts, with 413), so only a row stored before that check existed
 * can reach this one.
 */
export const MAX_REVISION_BYTES = 1_900_000;

export type RevisionRow = {
  seq: number;
  item_id: string;
  collection_id: string;
  number: number;
  kind: RevisionKind;
  status: "draft" | "published";
  slug: string;
  data: string;
  published_at: string | null;
  created_by: string | null;
  /** The item's creation time (migration 23; null in revisions written before it). */
  created_at: string | null;
  changed: string;
  at: number;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  /** Migration 25; null in revisions written before it, and for keys and the operator. */
  actor_name: string | null;
  note: string | null;
};

/** Revision rows without their data (lists). */
export type RevisionSummaryRow = Omit<RevisionRow, "data">;
const SUMMARY_COLUMNS =
  "seq, item_id, collection_id, number, kind, status, slug, published_at, created_by, changed, at, actor_kind, actor_id, actor_label, actor_name, note";

/** A revision's stored values while they are the item's current ones (never JSON). */
const LIVE = "";
/** A revision's values (`r`: item_revisions): as stored, or the item's own while they are (LIVE). */
const DATA = `CASE r.data WHEN '${LIVE}' THEN (SELECT i.data FROM items i WHERE i.id = r.item_id) ELSE r.data END`;
/** Every column of a revision, its values resolved. */
const REVISION_COLUMNS = `${SUMMARY_COLUMNS}, created_at, ${DATA} AS data`;

/** The columns a new revision is written with, in the order both inserts give them. */
const INSERT_COLUMNS =
  "item_id, collection_id, number, kind, status, slug, data, published_at, created_by, changed, at, actor_kind, actor_id, actor_label, note, created_at, actor_name";

const BEFORE_HISTORY: RevisionActor = { kind: "system", id: null, label: "before history" };

/** Both sides' values as objects, when the caller already holds them (a save parsed them once). */
export interface ParsedValues {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** Equal field values: strings (most values, rich text among them) compared as they are, others as JSON. */
const sameValue = (x: unknown, y: unknown): boolean =>
  typeof x === "string" || typeof y === "string" ? x === y : JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

/**
 * Field keys whose values differ, then "slug", "status" and "schedule" when those changed.
 * `parsed`: the two rows' `data` as objects (must be what those strings hold), so they are not parsed again.
 */
export function changedFields(before: ItemRow | null, after: ItemRow, parsed?: ParsedValues): string[] {
  if (!before) return [];
  const changed: string[] = [];
  if (before.data !== after.data) {
    const a = parsed?.before ?? (JSON.parse(before.data) as Record<string, unknown>);
    const b = parsed?.after ?? (JSON.parse(after.data) as Record<string, unknown>);
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!sameValue(a[k], b[k])) changed.push(k);
    }
  }
  if (before.slug !== after.slug) changed.push("slug");
  if (before.status !== after.status) changed.push("status");
  if ((before.publish_at ?? null) !== (after.publish_at ?? null) || (before.unpublish_at ?? null) !== (after.unpublish_at ?? null))
    changed.push("schedule");
  return changed;
}

/**
 * Inserts `row` as a revision and returns its number: `number`, or (null) the item's next one,
 * worked out in the same statement.
 */
function insertRevision(
  sql: SqlStorage,
  row: ItemRow,
  number: number | null,
  kind: RevisionKind,
  actor: RevisionActor,
  changed: string[],
  at: number,
  note: string | null,
): number {
  // A UTF-16 unit is at most 3 UTF-8 bytes: only a large snapshot is counted.
  if ((row.data.length + row.slug.length) * 3 > MAX_REVISION_BYTES) {
    const bytes = utf8Length(row.data) + utf8Length(row.slug);
    if (bytes > MAX_REVISION_BYTES) throw new Error(`item ${row.id}: a revision of ${bytes} bytes exceeds ${MAX_REVISION_BYTES}`);
  }
  return sql
    .exec<{ number: number }>(
      `INSERT INTO item_revisions (${INSERT_COLUMNS})
       VALUES (?1, ?2, COALESCE(?3, (SELECT COALESCE(max(number), 0) + 1 FROM item_revisions WHERE item_id = ?1)),
         ?4, ?5, ?6, CASE WHEN ?7 = (SELECT data FROM items WHERE id = ?1) THEN '${LIVE}' ELSE ?7 END,
         ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) RETURNING number`,
      row.id,
      row.collection_id,
      number,
      kind,
      row.status,
      row.slug,
      row.data,
      row.published_at,
      row.created_by ?? null,
      JSON.stringify(changed),
      at,
      actor.kind,
      actor.id,
      actor.label,
      note,
      row.created_at,
      actor.name ?? null,
    )
    .one().number;
}

/**
 * Records the item as it is after a change (`after`; for a delete, as it was). `before` is the
 * row before the change, or null for a new item. An item that has no revision yet (written
 * before history existed) also gets a `baseline` of `before` as its first, so its old state can
 * be restored. Call only from the items repository, inside the statement's transaction. `parsed`:
 * both rows' values as objects, when the caller holds them (see changedFields). Returns the
 * revision's number: the item's version from now on.
 */
export function recordRevision(
  sql: SqlStorage,
  before: ItemRow | null,
  after: ItemRow,
  kind: RevisionKind,
  change: Change,
  parsed?: ParsedValues,
): number {
  // One statement in the usual case: the number is the item's next, worked out by the INSERT.
  const number = insertRevision(
    sql,
    after,
    null,
    change.kind ?? kind,
    change.actor,
    changedFields(before, after, parsed),
    Date.now(),
    change.note ?? null,
  );
  if (number !== 1 || !before) return number;
  // The item's first revision of a change: the state before it goes first, as number 1.
  sql.exec("UPDATE item_revisions SET number = 2 WHERE item_id = ? AND number = 1", after.id);
  const at = Date.parse(before.updated_at);
  insertRevision(sql, before, 1, "baseline", BEFORE_HISTORY, [], Number.isFinite(at) ? at : Date.now(), null);
  return 2;
}

/**
 * The revisions of one status change made to many items in one statement (a bulk publish):
 * each is a snapshot of its item as it now is, so its values are LIVE, numbered after the
 * item's newest revision, with "status" as what changed. Every item of `seqs` must have a
 * revision already (unrecordedOf): recordRevision writes the baseline of one that has none.
 */
export function recordStatusRevisions(sql: SqlStorage, seqs: readonly number[], kind: RevisionKind, change: Change): void {
  if (!seqs.length) return;
  const { actor } = change;
  sql.exec(
    `INSERT INTO item_revisions (${INSERT_COLUMNS})
     SELECT i.id, i.collection_id, (SELECT max(number) + 1 FROM item_revisions r WHERE r.item_id = i.id), ?1, i.status, i.slug,
       '${LIVE}', i.published_at, i.created_by, '["status"]', ?2, ?3, ?4, ?5, ?6, i.created_at, ?7
     FROM json_each(?8) j JOIN items i ON i.seq = j.value ORDER BY j.key`,
    change.kind ?? kind,
    Date.now(),
    actor.kind,
    actor.id,
    actor.label,
    change.note ?? null,
    actor.name ?? null,
    JSON.stringify(seqs),
  );
}

/** The items among `seqs` with no revision yet (older sites' items never changed since history began). */
export function unrecordedOf(sql: SqlStorage, seqs: readonly number[]): Set<number> {
  const rows = sql
    .exec<{ seq: number }>(
      `SELECT i.seq FROM json_each(?) j JOIN items i ON i.seq = j.value
       WHERE NOT EXISTS (SELECT 1 FROM item_revisions r WHERE r.item_id = i.id)`,
      JSON.stringify(seqs),
    )
    .toArray();
  return new Set(rows.map((r) => r.seq));
}

// ---- Reads --------------------------------------------------------------------------------

/** One page of an item's revisions, newest first, and how many it has. */
export function revisionPage(
  sql: SqlStorage,
  itemId: string,
  limit: number,
  offset: number,
): { rows: RevisionSummaryRow[]; total: number } {
  const total = sql.exec<{ n: number }>("SELECT count(*) AS n FROM item_revisions WHERE item_id = ?", itemId).one().n;
  const rows = sql
    .exec<RevisionSummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM item_revisions WHERE item_id = ? ORDER BY number DESC LIMIT ? OFFSET ?`,
      itemId,
      limit,
      offset,
    )
    .toArray();
  return { rows, total };
}

export function findRevision(sql: SqlStorage, itemId: string, seq: number): RevisionRow | undefined {
  return sql.exec<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM item_revisions r WHERE item_id = ? AND seq = ?`, itemId, seq).toArray()[0];
}

/** The newest revision of an item (the trash reads a deleted item's last state from it). */
export function latestRevision(sql: SqlStorage, itemId: string): RevisionRow | undefined {
  return sql
    .exec<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM item_revisions r WHERE item_id = ? ORDER BY number DESC LIMIT 1`, itemId)
    .toArray()[0];
}

/**
 * The trash's rows (`r`: item_revisions; one parameter, the earliest delete time). Served by the
 * partial index of deletes (migration 22), so an edit's revision writes no index of this.
 */
export const TRASH_WHERE = `kind = 'delete' AND at >= ? AND number = (SELECT max(number) FROM item_revisions x WHERE x.item_id = r.item_id)
    AND NOT ${itemExistsSql("r.item_id")}`;

/**
 * Items whose newest revision is a delete since `since` and that do not exist any more (the
 * trash), newest delete first. The `delete` revision holds the full item as it was.
 */
export function deletedSince(sql: SqlStorage, since: number, limit: number, offset: number): { rows: RevisionSummaryRow[]; total: number } {
  const where = TRASH_WHERE;
  const total = sql.exec<{ n: number }>(`SELECT count(*) AS n FROM item_revisions r WHERE ${where}`, since).one().n;
  const rows = sql
    .exec<RevisionSummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM item_revisions r WHERE ${where} ORDER BY at DESC, seq DESC LIMIT ? OFFSET ?`,
      since,
      limit,
      offset,
    )
    .toArray();
  return { rows, total };
}

/** One value of a revision's data, by field key (keys are identifiers: quoted, never interpolated raw). */
export function revisionValue(sql: SqlStorage, seq: number, key: string): SqlStorageValue | undefined {
  return sql
    .exec<{ v: SqlStorageValue }>(`SELECT json_extract(${DATA}, ?) AS v FROM item_revisions r WHERE seq = ?`, `$."${key}"`, seq)
    .toArray()[0]?.v;
}

/**
 * Each item's newest revision number, by item id: the item's version, which the dashboard sends
 * back in `If-Match` (pruning never removes an item's newest revision, so it only ever grows).
 */
export function latestRevisions(sql: SqlStorage, itemIds: readonly string[]): Map<string, number> {
  const rows = selectIn<{ item_id: string; n: number }>(
    sql,
    itemIds,
    (list) => `SELECT item_id, max(number) AS n FROM item_revisions WHERE item_id IN (${list}) GROUP BY item_id`,
  );
  return new Map(rows.map((r) => [r.item_id, r.n]));
}

/** One item's version (latestRevisions for one id; 0 before its first revision). */
export const currentRevision = (sql: SqlStorage, itemId: string): number => latestRevisions(sql, [itemId]).get(itemId) ?? 0;

// ---- Pruning (history/retention.ts decides what) -----------------------------------------------

/**
 * Deletes, at most `limit` rows: revisions of items that no longer exist whose delete is older
 * than `deletedBefore`; and of live items, those beyond the newest `keep` per item or older than
 * `olderThan` (null: no such bound), never an item's newest revision. Returns how many went.
 */
export function pruneRevisions(
  sql: SqlStorage,
  deletedBefore: number,
  keep: number | null,
  olderThan: number | null,
  limit: number,
): number {
  let removed = sql.exec(
    `DELETE FROM item_revisions WHERE seq IN (
       SELECT r.seq FROM item_revisions r
       WHERE NOT ${itemExistsSql("r.item_id")}
         AND (SELECT max(at) FROM item_revisions x WHERE x.item_id = r.item_id) < ?
       LIMIT ?)`,
    deletedBefore,
    limit,
  ).rowsWritten;
  if (keep === null && olderThan === null) return removed;
  removed += sql.exec(
    `DELETE FROM item_revisions WHERE seq IN (
       SELECT seq FROM (
         SELECT r.seq, r.at, row_number() OVER (PARTITION BY r.item_id ORDER BY r.number DESC) AS rank
         FROM item_revisions r WHERE ${itemExistsSql("r.item_id")})
       WHERE rank > 1 AND (rank > ? OR at < ?)
       LIMIT ?)`,
    keep ?? Number.MAX_SAFE_INTEGER,
    olderThan ?? 0,
    Math.max(0, limit - removed),
  ).rowsWritten;
  return removed;
}

// ---- Marking existing revisions (migration 31) ----------------------------------------------

/** The mark once every item's revisions have been compared with its data. */
const COMPACTED = Number.MAX_SAFE_INTEGER;
/** Items whose revisions one slice compares (a few milliseconds each). */
const COMPACT_SLICE = 1_000;

export const REVISIONS_COMPACT_JOB = "revisions-compact";

/** Whether revisions written before migration 31 are all marked. */
export function revisionsCompacted(sql: SqlStorage): boolean {
  return sql.exec<{ done_to: number }>("SELECT done_to FROM revision_compaction WHERE id = 1").one().done_to === COMPACTED;
}

/**
 * One slice: the revisions of the items after the mark, in seq order, that hold their item's
 * current values become LIVE, in one transaction with the mark. Returns true when more is left.
 */
export function compactRevisions(storage: DurableObjectStorage): boolean {
  return storage.transactionSync(() => {
    const sql = storage.sql;
    const from = sql.exec<{ done_to: number }>("SELECT done_to FROM revision_compaction WHERE id = 1").one().done_to;
    if (from === COMPACTED) return false;
    const last = sql
      .exec<{ seq: number | null }>(
        "SELECT max(seq) AS seq FROM (SELECT seq FROM items WHERE seq > ? ORDER BY seq LIMIT ?)",
        from,
        COMPACT_SLICE,
      )
      .one().seq;
    sql.exec(
      `UPDATE item_revisions SET data = '${LIVE}' WHERE seq IN (
         SELECT r.seq FROM items i JOIN item_revisions r ON r.item_id = i.id
         WHERE i.seq > ? AND i.seq <= ? AND r.data = i.data)`,
      from,
      last ?? from,
    );
    sql.exec("UPDATE revision_compaction SET done_to = ? WHERE id = 1", last ?? COMPACTED);
    return last !== null;
  });
}
