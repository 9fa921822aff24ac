/**
 * The items table's one repository: every SQL statement that reads or writes `items` is in
 * this file (the writes), items-queries.ts (the reads and the SQL other tables' statements
 * embed) and list-queries.ts (list pages and orders), re-exported here; the migrations only
 * create it. "Where is an item read or written?" — here; the rooms above decide what to read
 * and write (content/ validates and writes, reads/ builds list queries and presents rows, seo/
 * and search/ read what they need) and call these functions.
 *
 * Statements keep their exact text so SQLite's plan for each stays what the indexes of
 * migrations 1–9 were made for. Field keys reach SQL only through `fieldExpr` or after
 * FIELD_KEY, and every `IN (…)` goes through selectIn (bound-parameter limit).
 *
 * Every write that changes what an item says (data, slug, status, schedule, its existence)
 * takes a `Change` (who, and the kind when it is not the statement's own) and records the
 * item's revision in the same transaction (revisions-table.ts): nothing changes an item without
 * leaving one. The two maintenance rewrites (`setFieldValue`: stored rich text cleaned once;
 * `setSearchText`: the derived search text) change nothing an item says and record none.
 */
import { FIELD_KEY } from "../../../src/contract/field-keys";
import type { Collection, ItemRow } from "./rows";
import { valueExpr, valueIndexName } from "./field-sql";
import { checkItemSize } from "./item-size";
import { type Change, type ParsedValues, recordRevision, recordStatusRevisions } from "./revisions-table";
import { ITEM_COLUMNS, rowBySeq as rowOfSeq, type Status } from "./items-queries";

export * from "./items-queries";
export * from "./list-queries";

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
  /** The account or key id that creates it (also stamped by setItemAuthor); recorded on its first revision. */
  createdBy?: string | null;
  /** Times kept from elsewhere (a site import keeps them, so public answers stay the same); default `now`. */
  createdAt?: string;
  updatedAt?: string;
}

/** Refused with 413 before anything is written when the item would pass MAX_ITEM_BYTES (item-size.ts). */
export function insertItem(sql: SqlStorage, r: NewItemRow, change: Change): ItemRow {
  checkItemSize(r.slug, r.data, r.searchText);
  const row = sql
    .exec<ItemRow>(
      `INSERT INTO items (id, collection_id, slug, status, data, search_text, published_at, created_at, updated_at, created_by, updated_by)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?10, ?10) RETURNING ${ITEM_COLUMNS}`,
      r.id,
      r.collectionId,
      r.slug,
      r.status,
      r.data,
      r.searchText,
      r.publishedAt,
      r.createdAt ?? r.now,
      r.updatedAt ?? r.now,
      r.createdBy ?? null,
    )
    .one();
  recordRevision(sql, null, row, "create", change);
  return row;
}
/** What a content write may bring besides the values: the row as read in the same synchronous turn, and who changed it. */
export interface ContentWrite {
  /** The row as it is now (read in this transaction's turn): saves reading 5 KB again. */
  before?: ItemRow;
  /** Stamped as `updated_by` in the same statement (undefined: left as it is). */
  updatedBy?: string | null;
  /** The values before and after as objects (what `before.data` and `data` hold): the revision's comparison parses neither again. */
  parsed?: ParsedValues;
}

/**
 * The item's new slug and values, in one UPDATE (nothing read back: the row after is the row
 * before with what was written, as no trigger changes `items` itself), and its revision. Returns
 * the row and the revision's number: the item's version from now on. Values that would make the
 * item pass MAX_ITEM_BYTES are refused with 413 before anything is written (item-size.ts).
 */
export function updateItemContent(
  sql: SqlStorage,
  seq: number,
  slug: string,
  data: string,
  searchText: string,
  now: string,
  change: Change,
  write: ContentWrite = {},
): { row: ItemRow; revision: number } {
  const before = write.before ?? rowOfSeq(sql, seq);
  if (before.seq !== seq) throw new Error(`updateItemContent: row ${before.seq} given for ${seq}`);
  checkItemSize(slug, data, searchText);
  const stamp = write.updatedBy !== undefined;
  const updatedBy = write.updatedBy ?? null;
  // SQLite rewrites the entry of every index on a column the SET names, whatever its value: a
  // slug written again unchanged cost its two indexes (the unique one and items_by_slug) a
  // delete and an insert, and the save's commit two more pages of 14. Most saves keep the slug.
  const sets = `${slug === before.slug ? "" : "slug = ?, "}data = ?, search_text = ?, updated_at = ?${stamp ? ", updated_by = ?" : ""}`;
  const values: SqlStorageValue[] = slug === before.slug ? [] : [slug];
  values.push(data, searchText, now);
  if (stamp) values.push(updatedBy);
  sql.exec(`UPDATE items SET ${sets} WHERE seq = ?`, ...values, seq);
  const row: ItemRow & { search_text?: string } = {
    ...before,
    slug,
    data,
    search_text: searchText,
    updated_at: now,
    ...(stamp ? { updated_by: updatedBy } : {}),
  };
  const revision = recordRevision(sql, before, row, "edit", change, write.parsed);
  return { row, revision };
}

/**
 * Publishing keeps the first publish time (`publishedAt` only fills an empty one). A revision
 * is recorded when the status changes (publishing a published item changes nothing it says).
 */
export function updateItemStatus(
  sql: SqlStorage,
  seq: number,
  status: Status,
  publishedAt: string | null,
  now: string,
  change: Change,
  updatedBy?: string | null,
): ItemRow {
  const before = rowOfSeq(sql, seq);
  // The author of the change in the same write, when given (one row write instead of two);
  // left as it was when not.
  const row = sql
    .exec<ItemRow>(
      "UPDATE items SET status = ?1, published_at = COALESCE(published_at, ?2), updated_at = ?3" +
        (updatedBy === undefined ? "" : ", updated_by = ?5") +
        " WHERE seq = ?4 RETURNING " +
        ITEM_COLUMNS,
      status,
      publishedAt,
      now,
      seq,
      ...(updatedBy === undefined ? [] : [updatedBy]),
    )
    .one();
  if (before.status !== row.status) recordRevision(sql, before, row, status === "published" ? "publish" : "unpublish", change);
  return row;
}

/**
 * Publishes the drafts among `seqs` in one statement, each as updateItemStatus would with the
 * same arguments, and records their revisions: a thousand single-row updates cost several times
 * one that changes a thousand rows (each statement runs the table's update triggers and moves
 * the index entries on its own). Every item must have a revision already (unrecordedOf).
 * Returns the seqs it published.
 */
export function publishDrafts(sql: SqlStorage, seqs: readonly number[], now: string, change: Change, updatedBy: string | null): number[] {
  const published = sql
    .exec<{ seq: number }>(
      `UPDATE items SET status = 'published', published_at = COALESCE(published_at, ?1), updated_at = ?1, updated_by = ?2
       WHERE seq IN (SELECT value FROM json_each(?3)) AND status = 'draft' RETURNING seq`,
      now,
      updatedBy,
      JSON.stringify(seqs),
    )
    .toArray()
    .map((r) => r.seq);
  recordStatusRevisions(sql, published, "publish", change);
  return published;
}

/** Deletes the item; its `delete` revision keeps it whole (the trash that history/restore.ts reads). */
export function deleteItemRow(sql: SqlStorage, seq: number, change: Change): void {
  const before = rowOfSeq(sql, seq);
  recordRevision(sql, before, before, "delete", change);
  sql.exec("DELETE FROM items WHERE seq = ?", seq);
}

/**
 * Sets (or, with nulls, clears) when the item is published and unpublished (epoch ms), the zone
 * it was picked in and who set it (JSON actor, recorded on the revisions the schedule makes).
 */
export function updateItemSchedule(
  sql: SqlStorage,
  seq: number,
  s: { publishAt: number | null; unpublishAt: number | null; timeZone: string | null; by: string | null },
  change: Change,
): ItemRow {
  const before = rowOfSeq(sql, seq);
  const row = sql
    .exec<ItemRow>(
      "UPDATE items SET publish_at = ?, unpublish_at = ?, schedule_tz = ?, schedule_by = ? WHERE seq = ? RETURNING " + ITEM_COLUMNS,
      s.publishAt,
      s.unpublishAt,
      s.publishAt === null && s.unpublishAt === null ? null : s.timeZone,
      s.publishAt === null && s.unpublishAt === null ? null : s.by,
      seq,
    )
    .one();
  const kind = s.publishAt === null && s.unpublishAt === null ? "unschedule" : "schedule";
  if (before.publish_at !== row.publish_at || before.unpublish_at !== row.unpublish_at) recordRevision(sql, before, row, kind, change);
  return row;
}

/**
 * The scheduled change of one item that is due: publish (at its scheduled time, kept as
 * `published_at` when it has none, so a late alarm does not reorder feeds) or unpublish, with
 * that time cleared in the same statement. Returns null when it is not due (any more): running
 * the due work twice changes nothing the second time.
 */
export function applyScheduled(
  sql: SqlStorage,
  seq: number,
  action: "publish" | "unpublish",
  now: number,
  change: (before: ItemRow) => Change,
): ItemRow | null {
  const before = rowOfSeq(sql, seq);
  const due = action === "publish" ? before.publish_at : before.unpublish_at;
  if (due === null || due === undefined || due > now) return null;
  const stamp = new Date(now).toISOString();
  const row =
    action === "publish"
      ? sql
          .exec<ItemRow>(
            "UPDATE items SET status = 'published', published_at = COALESCE(published_at, ?), publish_at = NULL, updated_at = ? WHERE seq = ? RETURNING " +
              ITEM_COLUMNS,
            new Date(due).toISOString(),
            stamp,
            seq,
          )
          .one()
      : sql
          .exec<ItemRow>(
            "UPDATE items SET status = 'draft', unpublish_at = NULL, updated_at = ? WHERE seq = ? RETURNING " + ITEM_COLUMNS,
            stamp,
            seq,
          )
          .one();
  if (row.publish_at === null && row.unpublish_at === null) {
    sql.exec("UPDATE items SET schedule_tz = NULL, schedule_by = NULL WHERE seq = ?", seq);
    row.schedule_tz = null;
    row.schedule_by = null;
  }
  recordRevision(sql, before, row, action === "publish" ? "scheduled_publish" : "scheduled_unpublish", change(before));
  return row;
}
/**
 * Who created (`created`) or last changed the item: the account or key id of the caller, null for
 * the operator and admin keys (src/access/). Written in the transaction of the change.
 */
export function setItemAuthor(sql: SqlStorage, seq: number, actorId: string | null, created: boolean): ItemRow {
  return sql
    .exec<ItemRow>(
      created
        ? "UPDATE items SET created_by = ?1, updated_by = ?1 WHERE seq = ?2 RETURNING " + ITEM_COLUMNS
        : "UPDATE items SET updated_by = ?1 WHERE seq = ?2 RETURNING " + ITEM_COLUMNS,
      actorId,
      seq,
    )
    .one();
}

/**
 * Drops a removed field's value from every item of the collection; the items that had one get
 * a `schema` revision (their earlier revisions keep the value: add the field back and restore).
 */
export function removeFieldValues(sql: SqlStorage, collectionId: string, key: string, change: Change): void {
  const path = `'$.${safeKey(key)}'`;
  const before = sql
    .exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE collection_id = ? AND json_type(data, ${path}) IS NOT NULL`, collectionId)
    .toArray();
  for (const b of before) {
    const after = sql
      .exec<ItemRow>(`UPDATE items SET data = json_remove(data, ${path}) WHERE seq = ? RETURNING ${ITEM_COLUMNS}`, b.seq)
      .one();
    recordRevision(sql, b, after, "schema", change);
  }
}

/** Every item of a collection that is being deleted, each with its `delete` revision. */
export function deleteCollectionItems(sql: SqlStorage, collectionId: string, change: Change): void {
  for (const b of sql.exec<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE collection_id = ?`, collectionId).toArray()) {
    recordRevision(sql, b, b, "delete", change);
  }
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

/** The second index of a number, decimal or date field: `items_range_field_price`, never another key's name. */
const rangeIndexName = (f: { key: string; type: string }): string => valueIndexName(f).replace(/^items_/, "items_range_");

/** The kinds a list filters by range (`gt`, `lte`…) more than by value. */
const RANGE_TYPES: ReadonlySet<string> = new Set(["number", "decimal", "date"]);

/**
 * One expression index per indexed field key (and kind: a decimal's compares as a number),
 * shared by every collection that indexes that key: (collection, status, value) serves filters
 * and sorts without scanning the table, ties in seq order. A number's or a date's has a second,
 * ending in `published_at` (the default order), so a range in that order picks its page from an
 * index alone (list-queries.ts `publishedPage`); on the first one, ties in seq order would stop
 * being the index's own.
 */
export function syncFieldIndexes(sql: SqlStorage, all: readonly Collection[]): void {
  const wanted = new Map<string, string>();
  for (const f of all.flatMap((c) => c.fields.filter((x) => x.indexed))) {
    wanted.set(valueIndexName(f), `collection_id, status, ${valueExpr(f)}`);
    if (RANGE_TYPES.has(f.type)) wanted.set(rangeIndexName(f), `collection_id, status, ${valueExpr(f)}, published_at`);
  }
  const present = sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND (name LIKE 'items_field_%' OR name LIKE 'items_decimal_%' OR name LIKE 'items_range_%')",
    )
    .toArray()
    .map((r) => r.name);
  for (const [name, columns] of wanted) sql.exec(`CREATE INDEX IF NOT EXISTS ${name} ON items (${columns})`);
  for (const name of present) {
    if (!wanted.has(name)) sql.exec(`DROP INDEX IF EXISTS "${name.replaceAll('"', "")}"`);
  }
}
