/**
 * The `imports` and `import_rows` tables (owner): every statement on them is here. An import's
 * row counts are computed from its rows (one GROUP BY), never kept as counters that a restart
 * could leave behind.
 */
import { ApiError, clip } from "../../../src/contract/errors";
import type {
  ColumnMapping,
  DoneOutcome,
  ImportProblem,
  ImportRowView,
  ImportState,
  ImportView,
  PlannedOutcome,
  StagedRow,
} from "../../../src/contract/imports";
import { IMPORT_LIMITS, RUNNING_STATES } from "../../../src/contract/imports";
import type { RevisionActor } from "../storage/revisions-table";

/** The job kind of imports on the alarm (job.ts runs it). */
export const IMPORT_JOB = "import";
/** The daily job that removes ended imports' staged rows after IMPORT_LIMITS.keepDays. */
export const IMPORTS_PRUNE_JOB = "imports-prune";

export type ImportRow = {
  id: string;
  kind: "csv" | "json" | "site";
  collection_id: string | null;
  file_name: string;
  file_bytes: number;
  delimiter: string;
  header: string;
  head: string | null;
  mapping: string;
  state: ImportState | "receiving";
  pass_row: number;
  rows_total: number;
  actor: string | null;
  /** The service origin the import's images are copied into the library under; null: they stay URL media. */
  media_origin: string | null;
  failure: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
};

export type StagedRowRecord = {
  row: number;
  line: number;
  cells: string;
  slug: string | null;
  planned: PlannedOutcome | null;
  done: DoneOutcome | "pending" | null;
  item_id: string | null;
  problems: string | null;
  refs: string | null;
  /** A translation row's secondary locale (its code); null: a row of the primary, the item itself. */
  locale: string | null;
  /** The file's id of the item the row belongs to (Webflow's `Item ID`), when a column says it. */
  item_ref: string | null;
};

export function insertImport(
  sql: SqlStorage,
  r: Pick<ImportRow, "id" | "kind" | "collection_id" | "file_name" | "file_bytes" | "delimiter" | "header" | "head" | "mapping">,
  now: number,
): void {
  sql.exec(
    `INSERT INTO imports (id, kind, collection_id, file_name, file_bytes, delimiter, header, head, mapping, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'receiving', ?, ?)`,
    r.id,
    r.kind,
    r.collection_id,
    r.file_name,
    r.file_bytes,
    r.delimiter,
    r.header,
    r.head,
    r.mapping,
    now,
    now,
  );
}

export function readImport(sql: SqlStorage, id: string): ImportRow | null {
  return sql.exec<ImportRow>("SELECT * FROM imports WHERE id = ?", id).toArray()[0] ?? null;
}

export function requireImport(sql: SqlStorage, id: string): ImportRow {
  const row = readImport(sql, id);
  if (!row || row.state === "receiving") throw new ApiError("not_found", `No import "${clip(id)}".`);
  return row;
}

export function listImports(sql: SqlStorage, limit: number): ImportRow[] {
  return sql.exec<ImportRow>("SELECT * FROM imports WHERE state != 'receiving' ORDER BY created_at DESC, id DESC LIMIT ?", limit).toArray();
}

/** The import the alarm is working on, if any (one at a time per site). */
export function runningImport(sql: SqlStorage): ImportRow | null {
  const states = RUNNING_STATES.map((s) => `'${s}'`).join(", ");
  return sql.exec<ImportRow>(`SELECT * FROM imports WHERE state IN (${states}) LIMIT 1`).toArray()[0] ?? null;
}

export function setImport(
  sql: SqlStorage,
  id: string,
  patch: Partial<
    Pick<ImportRow, "state" | "pass_row" | "rows_total" | "mapping" | "actor" | "media_origin" | "failure" | "finished_at" | "file_bytes">
  >,
  now: number,
): void {
  const keys = Object.keys(patch) as (keyof typeof patch)[];
  const sets = keys.map((k) => `${k} = ?`).join(", ");
  sql.exec(`UPDATE imports SET ${sets}${sets ? ", " : ""}updated_at = ? WHERE id = ?`, ...keys.map((k) => patch[k] ?? null), now, id);
}

/** One batch of parsed records, numbered from `first` (each row its own statement: 100 bound parameters at most). */
export function stageRows(sql: SqlStorage, id: string, first: number, rows: readonly StagedRow[]): void {
  rows.forEach((r, i) => {
    sql.exec("INSERT INTO import_rows (import_id, row, line, cells) VALUES (?, ?, ?, ?)", id, first + i, r.line, JSON.stringify(r.cells));
  });
}

/** Rows staged so far (they are numbered 1…n without gaps, so the last number is the count: one index lookup). */
export function stagedCount(sql: SqlStorage, id: string): number {
  return sql.exec<{ n: number }>("SELECT coalesce(max(row), 0) AS n FROM import_rows WHERE import_id = ?", id).one().n;
}

/** Rows after `after`, in order (a slice of a pass). */
export function rowsAfter(sql: SqlStorage, id: string, after: number, limit: number): StagedRowRecord[] {
  return sql
    .exec<StagedRowRecord>("SELECT * FROM import_rows WHERE import_id = ? AND row > ? ORDER BY row LIMIT ?", id, after, limit)
    .toArray();
}

export function firstRows(sql: SqlStorage, id: string, n: number): string[][] {
  return rowsAfter(sql, id, 0, n).map((r) => JSON.parse(r.cells) as string[]);
}

/**
 * The earlier row of this import with the same slug, if any (a slug twice in one file). Through
 * the slug index by name: left to choose, SQLite walked the primary key's `row < ?` range, reading
 * every earlier row's cells, once per row (a 2,000-row dry run took 12 s, a 10,000-row one minutes).
 */
export function earlierRowWithSlug(sql: SqlStorage, id: string, slug: string, locale: string | null, row: number): number | null {
  return (
    sql
      .exec<{ row: number }>(
        "SELECT row FROM import_rows INDEXED BY import_rows_by_slug WHERE import_id = ? AND slug = ? AND locale IS ? AND row < ? AND planned IN ('create', 'update', 'skip') LIMIT 1",
        id,
        slug,
        locale,
        row,
      )
      .toArray()[0]?.row ?? null
  );
}

export function setPlanned(
  sql: SqlStorage,
  id: string,
  row: number,
  p: {
    slug: string | null;
    planned: PlannedOutcome;
    itemId: string | null;
    problems: ImportProblem[];
    refs: unknown;
    locale?: string | null;
    itemRef?: string | null;
  },
): void {
  sql.exec(
    "UPDATE import_rows SET slug = ?, planned = ?, item_id = ?, problems = ?, refs = ?, locale = ?, item_ref = ?, done = NULL WHERE import_id = ? AND row = ?",
    p.slug,
    p.planned,
    p.itemId,
    p.problems.length ? JSON.stringify(p.problems) : null,
    p.refs === null ? null : JSON.stringify(p.refs),
    p.locale ?? null,
    p.itemRef ?? null,
    id,
    row,
  );
}

/** The file's row of item `itemRef` in the primary locale (the first, if a file names it twice). */
export function primaryRowOf(
  sql: SqlStorage,
  id: string,
  itemRef: string,
): { row: number; planned: PlannedOutcome | null; done: StagedRowRecord["done"]; item_id: string | null } | null {
  return (
    sql
      .exec<{ row: number; planned: PlannedOutcome | null; done: StagedRowRecord["done"]; item_id: string | null }>(
        "SELECT row, planned, done, item_id FROM import_rows INDEXED BY import_rows_by_item_ref WHERE import_id = ? AND item_ref = ? AND locale IS NULL ORDER BY row LIMIT 1",
        id,
        itemRef,
      )
      .toArray()[0] ?? null
  );
}

/** The distinct values of column `index` among the staged rows, in the order the file first holds them (at most `limit`). */
export function columnValues(sql: SqlStorage, id: string, index: number, limit: number): { value: string; rows: number }[] {
  return sql
    .exec<{ value: string | null; rows: number }>(
      "SELECT json_extract(cells, ?) AS value, count(*) AS rows FROM import_rows WHERE import_id = ? GROUP BY 1 ORDER BY min(row) LIMIT ?",
      `$[${Math.trunc(index)}]`,
      id,
      limit,
    )
    .toArray()
    .map((r) => ({ value: String(r.value ?? ""), rows: r.rows }));
}

/** A row of the file that will create (or update) `target` and has not failed. */
export function fileCreates(sql: SqlStorage, id: string, target: string): boolean {
  return (
    sql
      .exec(
        "SELECT 1 FROM import_rows INDEXED BY import_rows_by_slug WHERE import_id = ? AND slug = ? AND locale IS NULL AND planned IN ('create', 'update') AND (done IS NULL OR done != 'failed') LIMIT 1",
        id,
        target,
      )
      .toArray().length > 0
  );
}

/** A row the check pass found naming items nobody creates: planned as an error, with why. */
export function refuseRow(sql: SqlStorage, id: string, row: number, problems: readonly ImportProblem[]): void {
  sql.exec("UPDATE import_rows SET planned = 'error', problems = ? WHERE import_id = ? AND row = ?", JSON.stringify(problems), id, row);
}

export function setDone(
  sql: SqlStorage,
  id: string,
  row: number,
  done: DoneOutcome | "pending",
  itemId: string | null,
  problems: ImportProblem[] | null,
): void {
  sql.exec(
    "UPDATE import_rows SET done = ?, item_id = COALESCE(?, item_id), problems = COALESCE(?, problems) WHERE import_id = ? AND row = ?",
    done,
    itemId,
    problems && problems.length ? JSON.stringify(problems) : null,
    id,
    row,
  );
}

/** Rows whose item waits for the link pass, after `after`. */
export function pendingAfter(sql: SqlStorage, id: string, after: number, limit: number): StagedRowRecord[] {
  return sql
    .exec<StagedRowRecord>(
      "SELECT * FROM import_rows WHERE import_id = ? AND done = 'pending' AND row > ? ORDER BY row LIMIT ?",
      id,
      after,
      limit,
    )
    .toArray();
}

/** Slug → planned outcome and pending references of every row (the dry run's closing check; bounded by IMPORT_LIMITS.rows). */
export function plannedRows(
  sql: SqlStorage,
  id: string,
): { row: number; slug: string | null; planned: PlannedOutcome; refs: string | null; locale: string | null; item_ref: string | null }[] {
  return sql
    .exec<{
      row: number;
      slug: string | null;
      planned: PlannedOutcome;
      refs: string | null;
      locale: string | null;
      item_ref: string | null;
    }>("SELECT row, slug, planned, refs, locale, item_ref FROM import_rows WHERE import_id = ? AND planned IS NOT NULL ORDER BY row", id)
    .toArray();
}

/**
 * An import's rows counted by planned and by done outcome; `translations` only its translation
 * rows (rows in a secondary locale). Each count is read from an index of its own.
 */
export function counts(sql: SqlStorage, id: string, translations = false): { planned: ImportView["planned"]; done: ImportView["done"] } {
  const only = translations ? "INDEXED BY import_rows_translations" : "";
  const where = translations ? "AND locale IS NOT NULL" : "";
  const planned = { create: 0, update: 0, skip: 0, error: 0 };
  const done = { created: 0, updated: 0, skipped: 0, failed: 0 };
  for (const r of sql.exec<{ k: string; n: number }>(
    `SELECT planned AS k, count(*) AS n FROM import_rows ${only} WHERE import_id = ? ${where} AND planned IS NOT NULL GROUP BY planned`,
    id,
  ))
    planned[r.k as keyof typeof planned] = r.n;
  for (const r of sql.exec<{ k: string; n: number }>(
    `SELECT done AS k, count(*) AS n FROM import_rows ${only} WHERE import_id = ? ${where} AND done IS NOT NULL AND done != 'pending' GROUP BY done`,
    id,
  ))
    done[r.k as keyof typeof done] = r.n;
  return { planned, done };
}

/**
 * A row for the report. `problems` of a row written (created, updated, skipped) are its notes:
 * what happened besides the outcome (an image kept as a link), never a reason it failed.
 */
export function rowView(r: StagedRowRecord): ImportRowView {
  const listed = r.problems ? (JSON.parse(r.problems) as ImportProblem[]) : [];
  const written = r.done === "created" || r.done === "updated" || r.done === "skipped";
  return {
    row: r.row,
    line: r.line,
    slug: r.slug,
    locale: r.locale,
    planned: r.planned,
    done: r.done === "pending" ? null : r.done,
    itemId: r.item_id,
    problems: written ? [] : listed,
    notes: written ? listed : [],
  };
}

/** Rows for the report screen: all, those with an outcome (planned or done), or (`noted`) those written with notes. */
export function reportRows(sql: SqlStorage, id: string, outcome: string | null, after: number, limit: number): StagedRowRecord[] {
  if (!outcome) return rowsAfter(sql, id, after, limit);
  if (outcome === "noted")
    return sql
      .exec<StagedRowRecord>(
        `SELECT * FROM import_rows WHERE import_id = ? AND done IN ('created', 'updated', 'skipped') AND problems IS NOT NULL
           AND row > ? ORDER BY row LIMIT ?`,
        id,
        after,
        limit,
      )
      .toArray();
  return sql
    .exec<StagedRowRecord>(
      "SELECT * FROM import_rows WHERE import_id = ? AND (planned = ?2 OR done = ?2) AND row > ? ORDER BY row LIMIT ?",
      id,
      outcome,
      after,
      limit,
    )
    .toArray();
}

export function toView(sql: SqlStorage, r: ImportRow, collectionSlug: string | null): ImportView {
  const c = counts(sql, r.id);
  const pass = r.state === "checking" ? "check" : r.state === "importing" ? "write" : r.state === "linking" ? "link" : null;
  return {
    id: r.id,
    kind: r.kind,
    collection: collectionSlug,
    fileName: r.file_name,
    fileBytes: r.file_bytes,
    delimiter: r.delimiter,
    header: JSON.parse(r.header) as string[],
    sample: r.kind === "site" ? [] : firstRows(sql, r.id, 5),
    mapping: JSON.parse(r.mapping) as ColumnMapping[],
    state: r.state === "receiving" ? "uploaded" : r.state,
    planned: c.planned,
    done: c.done,
    ...translationCounts(sql, r),
    progress: { pass, rows: pass ? r.pass_row : 0, rowsTotal: r.rows_total },
    failure: r.failure,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at).toISOString(),
  };
}

export const actorOf = (r: ImportRow): RevisionActor =>
  r.actor ? (JSON.parse(r.actor) as RevisionActor) : { kind: "system", id: null, label: "Import" };

/** Removes an import and its staged rows (never the items it wrote). */
export function deleteImport(sql: SqlStorage, id: string): void {
  sql.exec("DELETE FROM import_rows WHERE import_id = ?", id);
  sql.exec("DELETE FROM imports WHERE id = ?", id);
}

/** The job gave up on an import (it failed every attempt): said so on the import. */
export function importFailed(sql: SqlStorage, id: string, error: string): void {
  const now = Date.now();
  setImport(sql, id, { state: "failed", failure: `The import stopped: ${error}`, finished_at: now }, now);
}

/** Imports that ended more than IMPORT_LIMITS.keepDays ago, and uploads left half-received, are removed. */
export function pruneImports(sql: SqlStorage, now: number): number {
  const cutoff = now - IMPORT_LIMITS.keepDays * 86_400_000;
  const old = sql
    .exec<{ id: string }>(
      `SELECT id FROM imports WHERE (finished_at IS NOT NULL AND finished_at < ?1)
         OR (state IN ('receiving', 'uploaded', 'checked') AND updated_at < ?1)`,
      cutoff,
    )
    .toArray();
  for (const { id } of old) deleteImport(sql, id);
  return old.length;
}

/** The translation rows' counts, on a collection's import into a site with secondary locales that has any. */
function translationCounts(sql: SqlStorage, r: ImportRow): Pick<ImportView, "translations"> {
  if (r.kind === "site" || !JSON.parse(r.mapping).some((m: ColumnMapping) => m.use === "locale")) return {};
  const t = counts(sql, r.id, true);
  const any = Object.values(t.planned).some((n) => n > 0);
  return any ? { translations: t } : {};
}
