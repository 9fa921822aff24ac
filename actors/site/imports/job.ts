/**
 * The import job (kind `import`, key = the import's id) on the site's one alarm. Each run takes
 * slices of staged rows (SLICE_ROWS at most; in the write and link passes as many as fit
 * SLICE_WORK_MS) for up to RUN_MS and yields between slices, so reads and writes of the site are
 * answered while an import runs; then it asks to run again at once.
 *
 * Passes, each resumable at the row it last committed (`imports.pass_row`):
 * - check (the dry run): every row planned (create, update, skip, error with reasons); writes
 *   only `import_rows`. At its end, references to rows of the file that will not be created
 *   turn those rows into errors too (repeated until nothing changes).
 * - write: each row in its own transaction with its outcome and the pass position, so a row is
 *   written whole or not at all. A row naming items the file creates later is written as a
 *   draft without those references (or, for an existing item, not yet) and marked pending.
 * - link: pending rows get their references (every item of the file exists now) and their
 *   status; a row whose target failed is undone (its draft removed) and fails with the reason.
 * Webhooks: every row sends the item events a dashboard write of it would (the `items` triggers,
 * in the row's transaction), and `import.finished` the outcome. A new item waiting for the link
 * pass is written without events and announced (`item.created`, `item.published`) by the link
 * pass once whole; a waiting draft removed (its target failed, a cancel) was never announced.
 */
import type { JobHandler } from "../jobs";
import { log } from "../../../src/log/log";
import type { SiteContext } from "../context";
import type { ColumnMapping, ImportProblem } from "../../../src/contract/imports";
import { newItemId } from "../../../src/ids";
import type { Collection, ItemRow } from "../storage/rows";
import type { Change } from "../storage/revisions-table";
import {
  deleteItemRow,
  findItem,
  findItemBySlug,
  insertItem,
  setItemAuthor,
  updateItemContent,
  updateItemStatus,
} from "../storage/items-table";
import { insertMedia } from "../content/media";
import { keepPublicData } from "../content/public-items";
import { searchTextOf } from "../content/search-text";
import type { ItemData } from "../content/item-data";
import { recordEvent, recordItemCreated, withoutItemEvents } from "../webhooks/outbox";
import {
  actorOf,
  counts,
  earlierRowWithSlug,
  type ImportRow,
  pendingAfter,
  plannedRows,
  rowsAfter,
  setDone,
  setImport,
  setPlanned,
  type StagedRowRecord,
} from "./store";
import { checkData, type PlanContext, planRow, resolveRefs, type RowPlan, sameData, statusOf } from "./plan";
import { headCollections, planSiteItem, readSiteHead, type SiteItemPlan } from "./site-plan";
import { fieldsWithNew } from "./mapping";
import { type Copies, copyImages, imageUrlsOf, useCopies } from "./images";

/** Rows a slice takes at most (the dry run's slices, and the write and link passes' before the work bound). */
export const SLICE_ROWS = 50;
/**
 * The write and link passes end a slice when the work of its rows, estimated from their size,
 * reaches SLICE_WORK_MS: a read of the site waits at most about that long behind the import,
 * whatever the rows' size. The estimate stands in for a clock: a Worker's clock does not move
 * while synchronous code runs, so a slice (one synchronous transaction) cannot time itself.
 * Measured (docs/import.md "Speed"): a row costs about ROW_MS plus KB_MS per KB of its cells.
 */
export const SLICE_WORK_MS = 10;
const ROW_MS = 0.2;
const KB_MS = 0.35;

/** The first rows of `rows` whose estimated work fits SLICE_WORK_MS (always at least one). */
export function sliceByWork<R extends { cells: string }>(rows: readonly R[]): readonly R[] {
  let ms = 0;
  for (let i = 0; i < rows.length; i++) {
    ms += ROW_MS + (rows[i]!.cells.length / 1024) * KB_MS;
    if (ms >= SLICE_WORK_MS) return rows.slice(0, i + 1);
  }
  return rows;
}
/**
 * How long one alarm run goes on slicing (wall time) before it hands the alarm to the site's other
 * jobs and asks to run again at once. Other due jobs run between two runs, in the same alarm: the
 * search index embeds a batch of the items just published (seconds with the local model), so a run
 * of only 40 slices spent most of an import waiting behind it (2,000 rows written in 1.8 s, then
 * 11 s of embedding before the next run).
 */
const RUN_MS = 10_000;
/** Image URLs remembered per import between slices (a file reusing one image copies it once). */
const KNOWN_COPIES_MAX = 5_000;
/** Public answers are retired at most this often while an import writes (and once at its end). */
const BUMP_EVERY_MS = 2_000;

/** The job's `run` (site.ts loads this module on the first run and adds the retry rules). */
export function importJob(s: SiteContext): Pick<JobHandler, "run"> {
  let lastBump = 0;
  // The images this object copied for the running import (a restart copies again: the same bytes are one file).
  let copied = { id: "", copies: new Map() as Copies };
  const knownCopies = (id: string): Copies => {
    if (copied.id !== id || copied.copies.size > KNOWN_COPIES_MAX) copied = { id, copies: new Map() };
    return copied.copies;
  };
  return {
    async run(id) {
      const started = Date.now();
      const seen = { pass: "", rows: 0, slices: 0, maxSliceMs: 0, workMs: 0, maxWorkMs: 0, yieldMs: 0, maxYieldMs: 0 };
      try {
        while (Date.now() - started < RUN_MS) {
          const imp = s.sql.exec<ImportRow>("SELECT * FROM imports WHERE id = ?", id).toArray()[0];
          if (!imp) return;
          const sliceStart = Date.now();
          let rows = 0;
          if (imp.state === "checking") rows = checkSlice(s, imp);
          else if (imp.state === "importing") rows = await writeSlice(s, imp, knownCopies(imp.id));
          else if (imp.state === "linking") rows = await linkSlice(s, imp, knownCopies(imp.id));
          else if (imp.state === "cancelling") rows = cancelSlice(s, imp);
          else return;
          if (rows > 0 && imp.state !== "checking" && Date.now() - lastBump >= BUMP_EVERY_MS) {
            lastBump = Date.now();
            s.contentChanged();
          }
          const worked = Date.now();
          // Reads and writes of the site get their turn between slices (a DO's clock stands still in synchronous code).
          await scheduler.wait(1);
          seen.pass = imp.state;
          seen.rows += rows;
          seen.slices++;
          seen.maxSliceMs = Math.max(seen.maxSliceMs, Date.now() - sliceStart - 1);
          seen.workMs += worked - sliceStart;
          seen.maxWorkMs = Math.max(seen.maxWorkMs, worked - sliceStart);
          seen.yieldMs += Date.now() - worked;
          seen.maxYieldMs = Math.max(seen.maxYieldMs, Date.now() - worked);
        }
        return { next: Date.now() };
      } finally {
        if (seen.slices > 0) log("import_run", { siteId: s.site()?.id, importId: id, ...seen, durationMs: Date.now() - started });
      }
    },
  };
}

// ---- Planning context -----------------------------------------------------------------------

interface Plans {
  csv: PlanContext | null;
  site: Map<string, PlanContext> | null;
}

function plansOf(s: SiteContext, imp: ImportRow): Plans {
  const collections = s.collections();
  if (imp.kind === "site") {
    const head = readSiteHead(JSON.parse(imp.head ?? "null"));
    // Before the import starts, its collections exist only in the file.
    const all = imp.state === "checking" ? headCollections(head) : collections;
    const knownMedia = new Set(head.media.map((m) => m.id));
    return {
      csv: null,
      site: new Map(all.map((c) => [c.slug, { collection: c, fields: c.fields, mapping: [], collections: all, knownMedia }])),
    };
  }
  const c = collections.find((x) => x.id === imp.collection_id);
  if (!c) throw new Error("the collection was deleted");
  const mapping = JSON.parse(imp.mapping) as ColumnMapping[];
  // The fields the mapping creates exist once the import started; the dry run plans with them.
  const fields = fieldsWithNew(
    { ...c, fields: c.fields },
    mapping.filter((m) => !c.fields.some((f) => f.key === m.field)),
  );
  return { csv: { collection: c, fields, mapping, collections }, site: null };
}

interface Planned {
  p: PlanContext;
  plan: RowPlan | SiteItemPlan;
  problems: ImportProblem[];
  /** Images kept as links (null: none). */
  notes: ImportProblem[] | null;
}

/** The row planned again; with `copies`, its image cells name the library's files copied for its slice. */
function planOf(plans: Plans, r: StagedRowRecord, copies: Copies | null = null): Planned | { failed: ImportProblem[] } {
  const cells = JSON.parse(r.cells) as string[];
  if (plans.csv) {
    const plan = planRow(plans.csv, cells);
    const notes = copies ? useCopies(plans.csv, plan, copies) : [];
    return { p: plans.csv, plan, problems: [...plan.problems], notes: notes.length ? notes : null };
  }
  const plan = planSiteItem(plans.site!, cells[0] ?? "");
  const p = plans.site!.get(plan.collection);
  return p ? { p, plan, problems: [...plan.problems], notes: null } : { failed: plan.problems };
}

/**
 * The images of a slice's rows copied into the library (images.ts), when the import copies them
 * (a collection's file started by someone who may add media) and its fields hold images.
 */
async function sliceCopies(s: SiteContext, imp: ImportRow, plans: Plans, rows: readonly StagedRowRecord[], known: Copies) {
  const p = plans.csv;
  if (!p || !imp.media_origin || !p.fields.some((f) => f.type === "image" || f.type === "video")) return null;
  const urls = new Set<string>();
  for (const r of rows) {
    if (r.planned !== "create" && r.planned !== "update") continue;
    for (const url of imageUrlsOf(p, planRow(p, JSON.parse(r.cells) as string[])).values()) urls.add(url);
  }
  return urls.size ? copyImages(s, imp, urls, known) : null;
}

/** After a slice waited (its copies), whether its rows are still the import's next ones (no cancel, no other run took them). */
function stillNext(s: SiteContext, imp: ImportRow): boolean {
  const now = s.sql.exec<ImportRow>("SELECT * FROM imports WHERE id = ?", imp.id).toArray()[0];
  return now?.state === imp.state && now.pass_row === imp.pass_row;
}

/** The item a row updates: by slug in the collection (a site import always creates). */
function existingOf(s: SiteContext, p: PlanContext, plan: RowPlan): ItemRow | null {
  if (!plan.slug || "id" in plan) return null;
  return findItemBySlug(s.sql, p.collection.id, plan.slug) ?? null;
}

/** What `import_rows.slug` holds: the slug, or for a site import the item id (references name ids). */
const keyOf = (plan: RowPlan | SiteItemPlan): string | null => ("id" in plan ? plan.id : plan.slug);

// ---- Check (dry run) ------------------------------------------------------------------------

/** A slice of the dry run; answers how many rows it planned. */
function checkSlice(s: SiteContext, imp: ImportRow): number {
  const rows = rowsAfter(s.sql, imp.id, imp.pass_row, SLICE_ROWS);
  const now = Date.now();
  if (rows.length === 0) {
    s.storage.transactionSync(() => {
      closeCheck(s.sql, imp.id);
      setImport(s.sql, imp.id, { state: "checked", pass_row: 0 }, now);
    });
    return 0;
  }
  const plans = plansOf(s, imp);
  s.storage.transactionSync(() => {
    for (const r of rows) checkRow(s, imp, plans, r);
    setImport(s.sql, imp.id, { pass_row: rows[rows.length - 1]!.row }, now);
  });
  return rows.length;
}

function checkRow(s: SiteContext, imp: ImportRow, plans: Plans, r: StagedRowRecord): void {
  const planned = planOf(plans, r);
  if ("failed" in planned)
    return setPlanned(s.sql, imp.id, r.row, { slug: null, planned: "error", itemId: null, problems: planned.failed, refs: null });
  const { p, plan, problems } = planned;
  const key = keyOf(plan);
  if (plan.archived) return setPlanned(s.sql, imp.id, r.row, { slug: key, planned: "skip", itemId: null, problems: [], refs: null });
  if (key) {
    const earlier = earlierRowWithSlug(s.sql, imp.id, key, r.row);
    if (earlier !== null)
      problems.push({ column: imp.kind === "site" ? "id" : "Slug", value: key, reason: `is also on row ${earlier} of the file` });
  }
  const existing = existingOf(s, p, plan);
  // Before the write pass, an item of this file may be named by any row (checked when the pass ends).
  const inFile = (collection: string) => imp.kind === "site" || collection === p.collection.slug;
  const res = resolveRefs(s.sql, p, plan.refs, inFile, problems);
  const base = existing ? (JSON.parse(existing.data) as ItemData) : null;
  const checked = checkData(s.sql, p, plan, res, base, problems);
  let outcome: "create" | "update" | "skip" | "error" = "create";
  if (problems.length || !checked) outcome = "error";
  else if (existing)
    outcome = res.pending.length === 0 && sameData(checked.data, base!) && statusOf(plan, existing) === existing.status ? "skip" : "update";
  setPlanned(s.sql, imp.id, r.row, {
    slug: key,
    planned: outcome,
    itemId: existing?.id ?? null,
    problems,
    refs: outcome !== "error" && res.waiting.length ? res.waiting : null,
  });
}

/** Rows naming items of the file that will not be created become errors, until nothing changes. */
function closeCheck(sql: SqlStorage, id: string): void {
  const rows = plannedRows(sql, id);
  const valid = new Set(rows.filter((r) => r.planned === "create" || r.planned === "update").map((r) => r.slug));
  for (let changed = true; changed;) {
    changed = false;
    for (const r of rows) {
      if ((r.planned !== "create" && r.planned !== "update") || !r.refs) continue;
      const missing = (JSON.parse(r.refs) as { column: string; target: string }[]).filter((w) => !valid.has(w.target));
      if (!missing.length) continue;
      r.planned = "error";
      valid.delete(r.slug);
      changed = true;
      const problems: ImportProblem[] = missing.map((w) => ({
        column: w.column,
        value: w.target,
        reason: `no item "${w.target}": no row of the file creates it without errors, and the site has none`,
      }));
      sql.exec(
        "UPDATE import_rows SET planned = 'error', problems = ? WHERE import_id = ? AND row = ?",
        JSON.stringify(problems),
        id,
        r.row,
      );
    }
  }
}

// ---- Write ------------------------------------------------------------------------------------

const changeOf = (imp: ImportRow): Change => ({ actor: actorOf(imp), note: `import ${imp.id}` });

/** A row of the file that will create (or update) `target` and has not failed. */
function fileCreates(sql: SqlStorage, id: string, target: string): boolean {
  return (
    sql
      .exec(
        "SELECT 1 FROM import_rows INDEXED BY import_rows_by_slug WHERE import_id = ? AND slug = ? AND planned IN ('create', 'update') AND (done IS NULL OR done != 'failed') LIMIT 1",
        id,
        target,
      )
      .toArray().length > 0
  );
}

/** A slice of the write pass; answers how many rows it wrote (0: the pass ended). */
async function writeSlice(s: SiteContext, imp: ImportRow, known: Copies): Promise<number> {
  const rows = sliceByWork(rowsAfter(s.sql, imp.id, imp.pass_row, SLICE_ROWS));
  const now = Date.now();
  if (rows.length === 0) {
    const pending = pendingAfter(s.sql, imp.id, 0, 1).length > 0;
    if (pending) setImport(s.sql, imp.id, { state: "linking", pass_row: 0 }, now);
    else finish(s, imp, "done");
    return 0;
  }
  const copies = await sliceCopies(s, imp, plansOf(s, imp), rows, known);
  if (copies && !stillNext(s, imp)) return 0;
  const plans = plansOf(s, imp);
  eachRow(s, imp, rows, (r) => writeRow(s, imp, plans, r, copies));
  return rows.length;
}

function writeRow(s: SiteContext, imp: ImportRow, plans: Plans, r: StagedRowRecord, copies: Copies | null): void {
  if (r.planned === "skip") return setDone(s.sql, imp.id, r.row, "skipped", null, null);
  if (r.planned !== "create" && r.planned !== "update") return setDone(s.sql, imp.id, r.row, "failed", null, null);
  const planned = planOf(plans, r, copies);
  if ("failed" in planned) return setDone(s.sql, imp.id, r.row, "failed", null, planned.failed);
  const { p, plan, problems, notes } = planned;
  if (plan.archived) return setDone(s.sql, imp.id, r.row, "skipped", null, null);
  const existing = existingOf(s, p, plan);
  const res = resolveRefs(s.sql, p, plan.refs, (_c, target) => fileCreates(s.sql, imp.id, target), problems);
  const base = existing ? (JSON.parse(existing.data) as ItemData) : null;
  const checked = checkData(s.sql, p, plan, res, base, problems);
  if (problems.length || !checked) return setDone(s.sql, imp.id, r.row, "failed", null, problems);
  const status = statusOf(plan, existing);
  const change = changeOf(imp);
  const site = "id" in plan ? (plan as SiteItemPlan) : null;
  {
    if (res.pending.length) {
      // Its references wait for the link pass: a new item waits as a draft without them, an existing one unchanged.
      if (existing) return setDone(s.sql, imp.id, r.row, "pending", existing.id, null);
      const row = withoutItemEvents(s.sql, () => insertRow(s, p.collection, checked, plan.slug!, "draft", null, change, imp, site));
      return setDone(s.sql, imp.id, r.row, "pending", row.id, notes);
    }
    if (!existing) {
      const row = insertRow(s, p.collection, checked, plan.slug!, status, plan.publishedAt, change, imp, site);
      return setDone(s.sql, imp.id, r.row, "created", row.id, notes);
    }
    const same = sameData(checked.data, base!) && status === existing.status;
    if (same) return setDone(s.sql, imp.id, r.row, "skipped", existing.id, notes);
    updateRow(s, p.collection, existing, checked, status, plan.publishedAt, change, imp, null);
    setDone(s.sql, imp.id, r.row, "updated", existing.id, notes);
  }
}

/**
 * The slice's rows in one transaction with the pass position (one commit). If any row's
 * statement is refused (a slug or id taken meanwhile), the whole slice rolls back and is written
 * again a row at a time, each in its own transaction: a row is written whole or not at all, and
 * only the refused row fails, with why.
 */
function eachRow(s: SiteContext, imp: ImportRow, rows: readonly StagedRowRecord[], one: (r: StagedRowRecord) => void): void {
  const now = Date.now();
  try {
    s.storage.transactionSync(() => {
      for (const r of rows) one(r);
      setImport(s.sql, imp.id, { pass_row: rows[rows.length - 1]!.row }, now);
    });
    return;
  } catch {
    // Rolled back whole: row by row below finds the row that is refused.
  }
  for (const r of rows) {
    try {
      s.storage.transactionSync(() => {
        one(r);
        setImport(s.sql, imp.id, { pass_row: r.row }, now);
      });
    } catch (err) {
      const reason = `could not be written: ${err instanceof Error ? err.message : String(err)}`;
      s.storage.transactionSync(() => {
        setDone(s.sql, imp.id, r.row, "failed", null, [{ column: "", value: "", reason }]);
        setImport(s.sql, imp.id, { pass_row: r.row }, now);
      });
    }
  }
}

function insertRow(
  s: SiteContext,
  c: Collection,
  checked: { data: ItemData; media: { id: string; url: string; alt: string; width: number | null; height: number | null }[] },
  slug: string,
  status: "draft" | "published",
  publishedAt: string | null,
  change: Change,
  imp: ImportRow,
  site: SiteItemPlan | null,
): ItemRow {
  const now = new Date().toISOString();
  for (const m of checked.media) insertMedia(s.sql, m);
  const row = insertItem(
    s.sql,
    {
      id: site?.id ?? newItemId(),
      collectionId: c.id,
      slug,
      status,
      data: JSON.stringify(checked.data),
      searchText: searchTextOf(c.fields, checked.data),
      publishedAt: status === "published" ? (publishedAt ?? now) : null,
      now,
      createdAt: site?.createdAt ?? undefined,
      updatedAt: site?.updatedAt ?? undefined,
      createdBy: actorOf(imp).id,
    },
    change,
  );
  keepPublicData(s.sql, c, row.seq, checked.data);
  return row;
}

function updateRow(
  s: SiteContext,
  c: Collection,
  existing: ItemRow,
  checked: { data: ItemData; media: { id: string; url: string; alt: string; width: number | null; height: number | null }[] },
  status: "draft" | "published",
  publishedAt: string | null,
  change: Change,
  imp: ImportRow,
  site: SiteItemPlan | null,
): void {
  const now = site?.updatedAt ?? new Date().toISOString();
  for (const m of checked.media) insertMedia(s.sql, m);
  if (!sameData(checked.data, JSON.parse(existing.data) as ItemData)) {
    updateItemContent(s.sql, existing.seq, existing.slug, JSON.stringify(checked.data), searchTextOf(c.fields, checked.data), now, change);
    keepPublicData(s.sql, c, existing.seq, checked.data);
  }
  if (status !== existing.status)
    updateItemStatus(s.sql, existing.seq, status, status === "published" ? (publishedAt ?? now) : null, now, change);
  setItemAuthor(s.sql, existing.seq, actorOf(imp).id, false);
}

// ---- Link ---------------------------------------------------------------------------------------

async function linkSlice(s: SiteContext, imp: ImportRow, known: Copies): Promise<number> {
  const rows = sliceByWork(pendingAfter(s.sql, imp.id, imp.pass_row, SLICE_ROWS));
  if (rows.length === 0) {
    finish(s, imp, "done");
    return 0;
  }
  const copies = await sliceCopies(s, imp, plansOf(s, imp), rows, known);
  if (copies && !stillNext(s, imp)) return 0;
  const plans = plansOf(s, imp);
  eachRow(s, imp, rows, (r) => linkRow(s, imp, plans, r, copies));
  return rows.length;
}

function linkRow(s: SiteContext, imp: ImportRow, plans: Plans, r: StagedRowRecord, copies: Copies | null): void {
  const planned = planOf(plans, r, copies);
  if ("failed" in planned) return setDone(s.sql, imp.id, r.row, "failed", null, planned.failed);
  const { p, plan, problems, notes } = planned;
  const item = r.item_id ? findItem(s.sql, p.collection.id, r.item_id) : undefined;
  if (!item)
    return setDone(s.sql, imp.id, r.row, "failed", null, [
      { column: "Slug", value: plan.slug ?? "", reason: "the item was deleted during the import" },
    ]);
  const placeholder = r.planned === "create";
  const res = resolveRefs(s.sql, p, plan.refs, () => false, problems);
  const base = JSON.parse(item.data) as ItemData;
  const checked = checkData(s.sql, p, plan, res, base, problems);
  const change = changeOf(imp);
  if (problems.length || !checked) {
    // All or nothing: the draft written without its references goes again (never announced, so silently).
    if (placeholder) withoutItemEvents(s.sql, () => deleteItemRow(s.sql, item.seq, change));
    return setDone(s.sql, imp.id, r.row, "failed", null, problems);
  }
  const site = "id" in plan ? (plan as SiteItemPlan) : null;
  const link = () =>
    updateRow(s, p.collection, item, checked, statusOf(plan, placeholder ? null : item), plan.publishedAt, change, imp, site);
  if (placeholder) {
    // Whole now: announced as a dashboard create of it would be, not as the update of a draft no receiver heard of.
    withoutItemEvents(s.sql, link);
    recordItemCreated(s.sql, s.site()!.id, p.collection.slug, findItem(s.sql, p.collection.id, item.id)!, Date.now());
  } else link();
  setDone(s.sql, imp.id, r.row, placeholder ? "created" : "updated", item.id, notes);
}

// ---- Cancel and finish ---------------------------------------------------------------------------

/** Cancelled during the write or link pass: drafts still waiting for their references are removed. */
function cancelSlice(s: SiteContext, imp: ImportRow): number {
  const rows = pendingAfter(s.sql, imp.id, 0, SLICE_ROWS);
  if (rows.length === 0) {
    finish(s, imp, "cancelled");
    return 0;
  }
  const change = changeOf(imp);
  for (const r of rows) {
    s.storage.transactionSync(() => {
      if (r.planned === "create" && r.item_id) {
        const item = s.sql.exec<ItemRow>("SELECT * FROM items WHERE id = ?", r.item_id).toArray()[0];
        // A draft waiting for its references was never announced: it goes without an event.
        if (item) withoutItemEvents(s.sql, () => deleteItemRow(s.sql, item.seq, change));
      }
      setDone(s.sql, imp.id, r.row, "failed", null, [
        { column: "", value: "", reason: "the import was cancelled before this row was finished" },
      ]);
    });
  }
  return rows.length;
}

function finish(s: SiteContext, imp: ImportRow, state: "done" | "cancelled"): void {
  const now = Date.now();
  const { done } = counts(s.sql, imp.id);
  const collection = s.collections().find((c) => c.id === imp.collection_id)?.slug ?? null;
  s.storage.transactionSync(() => {
    setImport(s.sql, imp.id, { state, pass_row: 0, finished_at: now }, now);
    recordEvent(s.sql, "import.finished", imp.id, { siteId: s.site()!.id, import: { id: imp.id, state, collection, ...done } }, now);
  });
  s.contentChanged();
}
