/**
 * Rows of a collection's file in a secondary locale: each is its item's translation (its slug and
 * localized fields), tied to the item by the file's item id (Webflow's `Item ID`): the row of the
 * primary locale with that id, else the collection's item with that id (a file this service
 * exported). The dry run plans them as it plans items; the write pass leaves them for the link
 * pass, when every item of the file exists, which writes each as the API's translation PUT does.
 */
import { ApiError } from "../../../src/contract/errors";
import type { ImportProblem } from "../../../src/contract/imports";
import type { SiteContext } from "../context";
import { lookupsFor } from "../content/items";
import { localizedFields } from "../reads/localized";
import { findItem } from "../storage/items-table";
import { translationsOf } from "../storage/locales-table";
import type { SiteLocale } from "../storage/locale-set";
import type { ItemRow } from "../storage/rows";
import { checkTranslation, putTranslation, secondaryLocale, storeTranslation } from "../locales/translations";
import type { PlanContext, RowPlan } from "./plan";
import type { SiteItemPlan } from "./site-plan";
import { earlierRowWithSlug, type ImportRow, primaryRowOf, refuseRow, setDone, setPlanned, type StagedRowRecord } from "./store";

/**
 * The item row `itemRef` names: the item the file's primary row of it wrote or will update (null
 * while that row is still to be written), else the collection's item with that id; undefined: none.
 */
function itemOf(s: SiteContext, imp: ImportRow, p: PlanContext, itemRef: string): ItemRow | null | undefined {
  const primary = primaryRowOf(s.sql, imp.id, itemRef);
  const planned = primary && primary.planned !== "error" && primary.planned !== null && primary.done !== "failed";
  if (primary && planned) {
    if (primary.item_id) return findItem(s.sql, p.collection.id, primary.item_id) ?? undefined;
    if (primary.done === null || primary.done === "pending") return null;
  }
  return findItem(s.sql, p.collection.id, itemRef) ?? undefined;
}

/** What a translation row holds: its slug and its localized values (an empty cell falls back). */
function translationInput(p: PlanContext, plan: RowPlan): { slug: string; data: Record<string, unknown> } {
  const data: Record<string, unknown> = {};
  for (const f of localizedFields(p.collection))
    if (plan.values[f.key] !== undefined && plan.values[f.key] !== null) data[f.key] = plan.values[f.key];
  return { slug: plan.slug ?? "", data };
}

const columnOf = (p: PlanContext, use: "locale" | "itemId" | "slug", fallback: string): string =>
  p.mapping.find((m) => m.use === use)?.column ?? fallback;

/** Checks the translation, adding its refusal to `problems`; answers the data it would store. */
function checked(s: SiteContext, p: PlanContext, plan: RowPlan, seq: number | null, problems: ImportProblem[]) {
  try {
    return checkTranslation(s.sql, p.collection, seq, plan.locale!, translationInput(p, plan), lookupsFor(s.sql, p.collections));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const column = err.code === "conflict" ? columnOf(p, "slug", "Slug") : columnOf(p, "locale", "Locale ID");
    problems.push({ column, value: err.code === "conflict" ? (plan.slug ?? "") : plan.locale!.code, reason: err.message });
    return null;
  }
}

/** The stored translation's slug and data, when it is the same as `data` under `slug`. */
function sameTranslation(s: SiteContext, item: ItemRow, locale: SiteLocale, slug: string, data: object): boolean | null {
  const stored = translationsOf(s.sql, item.seq).find((t) => t.locale === locale.id);
  if (!stored) return null;
  return stored.slug === slug && stored.data === JSON.stringify(data);
}

/** The dry run of a translation row: create (a new translation), update, skip (the same), or error. */
export function checkTranslationRow(s: SiteContext, imp: ImportRow, p: PlanContext, plan: RowPlan, r: StagedRowRecord): void {
  const problems = [...plan.problems];
  const locale = plan.locale!;
  const base = { slug: plan.slug, itemId: null, refs: null, locale: locale.code, itemRef: plan.itemRef };
  if (plan.archived) return setPlanned(s.sql, imp.id, r.row, { ...base, planned: "skip", problems: [] });
  if (!plan.itemRef)
    problems.push({
      column: columnOf(p, "itemId", "Item ID"),
      value: "",
      reason: `is a row in ${locale.code}, which translates an item: map the column holding its item's id (Webflow's Item ID) to "Item ID"`,
    });
  if (plan.slug) {
    const earlier = earlierRowWithSlug(s.sql, imp.id, plan.slug, locale.code, r.row);
    if (earlier !== null)
      problems.push({ column: columnOf(p, "slug", "Slug"), value: plan.slug, reason: `is also the ${locale.code} slug on row ${earlier}` });
  }
  const item = plan.itemRef ? itemOf(s, imp, p, plan.itemRef) : null;
  const data = checked(s, p, plan, item?.seq ?? null, problems);
  let planned: "create" | "update" | "skip" | "error" = "create";
  if (problems.length || !data) planned = "error";
  else if (item) {
    const same = sameTranslation(s, item, locale, plan.slug!, data);
    planned = same === null ? "create" : same ? "skip" : "update";
  }
  // An item the file has not planned yet (its primary row comes later) is checked when the dry run ends.
  setPlanned(s.sql, imp.id, r.row, { ...base, planned, itemId: item?.id ?? null, problems });
}

/**
 * At the end of the dry run: a translation row whose item no row of the file creates without
 * errors, and that the collection does not hold, becomes an error.
 */
export function closeTranslationRows(
  s: SiteContext,
  imp: ImportRow,
  rows: readonly { row: number; planned: string; locale: string | null; item_ref: string | null }[],
): void {
  const c = s.collections().find((x) => x.id === imp.collection_id);
  for (const r of rows) {
    if (r.locale === null || r.planned === "error" || r.planned === "skip" || r.item_ref === null) continue;
    const primary = primaryRowOf(s.sql, imp.id, r.item_ref);
    if (primary && primary.planned !== "error" && primary.planned !== null) continue;
    if (c && findItem(s.sql, c.id, r.item_ref)) continue;
    refuseRow(s.sql, imp.id, r.row, [
      {
        column: "Item ID",
        value: r.item_ref,
        reason: `no row of the primary locale with this item id imports without errors, and "${c?.slug ?? ""}" has no item with this id`,
      },
    ]);
  }
}

/** The link pass's write of a translation row, whole or not at all. */
export function writeTranslationRow(s: SiteContext, imp: ImportRow, p: PlanContext, plan: RowPlan, r: StagedRowRecord): void {
  const problems = [...plan.problems];
  const item = plan.itemRef ? itemOf(s, imp, p, plan.itemRef) : undefined;
  if (!item) {
    problems.push({
      column: columnOf(p, "itemId", "Item ID"),
      value: plan.itemRef ?? "",
      reason: "its item was not imported (its row in the primary locale failed) or was deleted during the import",
    });
    return setDone(s.sql, imp.id, r.row, "failed", null, problems);
  }
  const data = checked(s, p, plan, item.seq, problems);
  if (problems.length || !data) return setDone(s.sql, imp.id, r.row, "failed", item.id, problems);
  const same = sameTranslation(s, item, plan.locale!, plan.slug!, data);
  if (same) return setDone(s.sql, imp.id, r.row, "skipped", item.id, null);
  storeTranslation(s.sql, s.locales(), p.collection, item, plan.locale!, plan.slug!, data);
  setDone(s.sql, imp.id, r.row, same === null ? "created" : "updated", item.id, null);
}

/**
 * A site export's item line carries its translations: written with the item once it is whole, in
 * its row's transaction (a translation refused fails the row, the item with it).
 */
export function writeSiteTranslations(s: SiteContext, p: PlanContext, item: ItemRow, plan: SiteItemPlan): void {
  const locales = s.locales();
  for (const t of plan.translations)
    putTranslation(
      s.sql,
      locales,
      p.collection,
      item,
      secondaryLocale(locales, t.locale),
      t,
      lookupsFor(s.sql, p.collections),
      t.updatedAt,
    );
}
