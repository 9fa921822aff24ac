/**
 * The passes that write items: write (state `importing`: each row in the transaction of its
 * outcome and the pass position; a row naming items the file creates later waits as a draft
 * without those references), link (state `linking`: waiting rows get their references and
 * status, or are undone), cancel (waiting drafts removed), and the import's end.
 */
import type { SiteContext } from "../context";
import { newItemId } from "../../../src/ids";
import type { Collection, ItemRow } from "../storage/rows";
import type { Change } from "../storage/revisions-table";
import { deleteItemRow, findItem, insertItem, itemById, setItemAuthor, updateItemContent, updateItemStatus } from "../storage/items-table";
import { insertMedia } from "../content/media";
import { keepPublicData } from "../content/public-items";
import { searchTextOf } from "../content/search-text";
import type { ItemData } from "../content/item-data";
import { recordEvent, recordItemCreated, withoutItemEvents } from "../webhooks/outbox";
import { actorOf, counts, fileCreates, type ImportRow, pendingAfter, rowsAfter, setDone, setImport, type StagedRowRecord } from "./store";
import { checkData, resolveRefs, sameData, statusOf } from "./plan";
import type { SiteItemPlan } from "./site-plan";
import type { Copies } from "./images";
import { existingOf, planOf, type Plans, plansOf, SLICE_ROWS, sliceByWork, sliceCopies, stillNext } from "./slice";
import { writeSiteTranslations, writeTranslationRow } from "./translation-rows";

const changeOf = (imp: ImportRow): Change => ({ actor: actorOf(imp), note: `import ${imp.id}` });

/** A slice of the write pass; answers how many rows it wrote (0: the pass ended). */
export async function writeSlice(s: SiteContext, imp: ImportRow, known: Copies): Promise<number> {
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
  // A translation is written by the link pass, once every item of the file exists.
  if (r.locale !== null) return setDone(s.sql, imp.id, r.row, "pending", null, null);
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
      if (site) writeSiteTranslations(s, p, row, site);
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
  // The author goes in the status change's own write when there is one.
  if (status !== existing.status)
    updateItemStatus(s.sql, existing.seq, status, status === "published" ? (publishedAt ?? now) : null, now, change, actorOf(imp).id);
  else setItemAuthor(s.sql, existing.seq, actorOf(imp).id, false);
}

// ---- Link ---------------------------------------------------------------------------------------

export async function linkSlice(s: SiteContext, imp: ImportRow, known: Copies): Promise<number> {
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
  if (plan.locale) return writeTranslationRow(s, imp, p, plan, r);
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
  if (site) writeSiteTranslations(s, p, item, site);
  setDone(s.sql, imp.id, r.row, placeholder ? "created" : "updated", item.id, notes);
}

// ---- Cancel and finish ---------------------------------------------------------------------------

/** Cancelled during the write or link pass: drafts still waiting for their references are removed. */
export function cancelSlice(s: SiteContext, imp: ImportRow): number {
  const rows = pendingAfter(s.sql, imp.id, 0, SLICE_ROWS);
  if (rows.length === 0) {
    finish(s, imp, "cancelled");
    return 0;
  }
  const change = changeOf(imp);
  for (const r of rows) {
    s.storage.transactionSync(() => {
      if (r.planned === "create" && r.item_id) {
        const item = itemById(s.sql, r.item_id);
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
