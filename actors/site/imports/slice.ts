/**
 * A slice of an import's staged rows, as every pass takes it: how many rows (SLICE_ROWS, and for
 * the write and link passes the work bound), each row planned again against the site as it is
 * now, and the images of its rows copied into the library.
 */
import type { SiteContext } from "../context";
import type { ColumnMapping, ImportProblem } from "../../../src/contract/imports";
import type { ItemRow } from "../storage/rows";
import { findItemBySlug } from "../storage/items-table";
import { type ImportRow, readImport, type StagedRowRecord } from "./store";
import { type PlanContext, planRow, type RowPlan } from "./plan";
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
export interface Plans {
  csv: PlanContext | null;
  site: Map<string, PlanContext> | null;
}

export function plansOf(s: SiteContext, imp: ImportRow): Plans {
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
  return { csv: { collection: c, fields, mapping, collections, locales: s.locales() }, site: null };
}

interface Planned {
  p: PlanContext;
  plan: RowPlan | SiteItemPlan;
  problems: ImportProblem[];
  /** Images kept as links (null: none). */
  notes: ImportProblem[] | null;
}

/** The row planned again; with `copies`, its image cells name the library's files copied for its slice. */
export function planOf(plans: Plans, r: StagedRowRecord, copies: Copies | null = null): Planned | { failed: ImportProblem[] } {
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
export async function sliceCopies(s: SiteContext, imp: ImportRow, plans: Plans, rows: readonly StagedRowRecord[], known: Copies) {
  const p = plans.csv;
  if (!p || !imp.media_origin || !p.fields.some((f) => f.type === "image" || f.type === "video" || f.type === "gallery")) return null;
  const urls = new Set<string>();
  for (const r of rows) {
    if (r.planned !== "create" && r.planned !== "update") continue;
    for (const list of imageUrlsOf(p, planRow(p, JSON.parse(r.cells) as string[])).values()) for (const url of list) urls.add(url);
  }
  return urls.size ? copyImages(s, imp, urls, known) : null;
}

/** After a slice waited (its copies), whether its rows are still the import's next ones (no cancel, no other run took them). */
export function stillNext(s: SiteContext, imp: ImportRow): boolean {
  const now = readImport(s.sql, imp.id);
  return now?.state === imp.state && now.pass_row === imp.pass_row;
}

/** The item a row updates: by slug in the collection (a site import always creates). */
export function existingOf(s: SiteContext, p: PlanContext, plan: RowPlan): ItemRow | null {
  if (!plan.slug || "id" in plan) return null;
  return findItemBySlug(s.sql, p.collection.id, plan.slug) ?? null;
}

/** What `import_rows.slug` holds: the slug, or for a site import the item id (references name ids). */
export const keyOf = (plan: RowPlan | SiteItemPlan): string | null => ("id" in plan ? plan.id : plan.slug);
