/**
 * The dry run (state `checking`): every staged row planned (create, update, skip, error with
 * reasons), writing only `import_rows`. At its end, references to rows of the file that will not
 * be created turn those rows into errors too (repeated until nothing changes).
 */
import type { SiteContext } from "../context";
import type { ImportProblem } from "../../../src/contract/imports";
import type { ItemData } from "../content/item-data";
import {
  earlierRowWithSlug,
  type ImportRow,
  plannedRows,
  refuseRow,
  rowsAfter,
  setImport,
  setPlanned,
  type StagedRowRecord,
} from "./store";
import { checkData, resolveRefs, sameData, statusOf } from "./plan";
import { existingOf, keyOf, planOf, type Plans, plansOf, SLICE_ROWS } from "./slice";
import { checkTranslationRow, closeTranslationRows } from "./translation-rows";

/** A slice of the dry run; answers how many rows it planned. */
export function checkSlice(s: SiteContext, imp: ImportRow): number {
  const rows = rowsAfter(s.sql, imp.id, imp.pass_row, SLICE_ROWS);
  const now = Date.now();
  if (rows.length === 0) {
    s.storage.transactionSync(() => {
      closeCheck(s, imp);
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
  if (plan.locale) return checkTranslationRow(s, imp, p, plan, r);
  const key = keyOf(plan);
  const itemRef = plan.itemRef;
  if (plan.archived)
    return setPlanned(s.sql, imp.id, r.row, { slug: key, planned: "skip", itemId: null, problems: [], refs: null, itemRef });
  if (key) {
    const earlier = earlierRowWithSlug(s.sql, imp.id, key, null, r.row);
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
    itemRef,
  });
}

/**
 * Rows naming items of the file that will not be created become errors, until nothing changes;
 * then translation rows whose item nothing imports.
 */
function closeCheck(s: SiteContext, imp: ImportRow): void {
  const { sql } = s;
  const id = imp.id;
  const rows = plannedRows(sql, id);
  const valid = new Set(rows.filter((r) => r.locale === null && (r.planned === "create" || r.planned === "update")).map((r) => r.slug));
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
      refuseRow(sql, id, r.row, problems);
    }
  }
  closeTranslationRows(s, imp, rows);
}
