/**
 * One row of a collection's file (CSV or JSON) as an item to write: its slug, status, the
 * values of the mapped fields, the references it names (slugs) and every problem in words
 * (row, column, value, reason). The dry run and the write pass both call this, so what the dry
 * run forecasts is what the import does (unless the site changed in between: the write pass
 * checks each row again).
 */
import { ApiError } from "../../../src/contract/errors";
import type { ColumnMapping, ImportProblem } from "../../../src/contract/imports";
import type { Field } from "../../../src/contract/fields";
import { isSlug, slugify as slugFrom, SLUG_RULE } from "../../../src/contract/slug";
import { titleFieldOf } from "../../../src/contract/item-title";
import { type ItemData, validateItemData } from "../content/item-data";
import { mediaExists, mediaType, readMedia, type MediaRow } from "../content/media";
import type { Collection, ItemRow } from "../storage/rows";
import { findItem, findItemBySlug } from "../storage/items-table";
import { findLocale, localeSet, type SiteLocale, type SiteLocaleSet } from "../storage/locale-set";

/**
 * The id of the collection's item with this slug, else this id. Two index lookups: the `id = ? OR
 * slug = ?` of findItemIdByRef reads the whole collection, once per row of a 10,000-row import.
 */
export function itemIdOf(sql: SqlStorage, collectionId: string, ref: string): string | null {
  return findItemBySlug(sql, collectionId, ref)?.id ?? findItem(sql, collectionId, ref)?.id ?? null;
}
import { readBoolean, readCell, readDate } from "./cells";

/** A reference cell: the field, its column and the slugs (or ids) it names. */
export interface RefCell {
  key: string;
  column: string;
  collection: string;
  many: boolean;
  targets: string[];
}

export interface RowPlan {
  slug: string | null;
  archived: boolean;
  /** null: the file says nothing about status (a new item is a draft; an existing one keeps its own). */
  status: "draft" | "published" | null;
  publishedAt: string | null;
  /** Mapped fields' values (references left out), null where the cell is empty (clears the field on update). */
  values: Record<string, unknown>;
  refs: RefCell[];
  problems: ImportProblem[];
  /** A secondary locale: the row is its item's translation (only its slug and localized fields are read). */
  locale: SiteLocale | null;
  /** The file's id of the row's item (the `itemId` column), which ties its rows in several locales. */
  itemRef: string | null;
}

export interface PlanContext {
  collection: Collection;
  /** The collection's fields with those the mapping creates. */
  fields: Field[];
  mapping: ColumnMapping[];
  /** Every collection of the site (reference targets). */
  collections: readonly Collection[];
  /** Media ids a site import brings (inserted when it starts), valid in its dry run. */
  knownMedia?: ReadonlySet<string>;
  /** The site's locales (a `locale` column's values are read against them). */
  locales?: SiteLocaleSet;
}

const clipValue = (v: string): string => (v.length > 200 ? `${v.slice(0, 200)}…` : v);

/**
 * The row's locale from its `locale` column: a value the mapping names (Webflow's `Locale ID`), or a
 * code of the site's; no column, or an empty cell: the primary. A secondary makes the row a translation.
 */
function rowLocale(p: PlanContext, cells: readonly string[], problems: ImportProblem[]): SiteLocale | null {
  const i = p.mapping.findIndex((m) => m.use === "locale");
  const cell = i < 0 ? "" : (cells[i] ?? "").trim();
  if (cell === "") return null;
  const m = p.mapping[i]!;
  const locales = p.locales ?? localeSet([]);
  const locale = findLocale(locales, m.locales?.[cell] ?? cell);
  if (!locale) {
    const codes = locales.all.map((l) => l.code).join(", ");
    problems.push({
      column: m.column,
      value: clipValue(cell),
      reason: codes
        ? `is not one of this site's locales (${codes}): choose its locale for the column in the mapping`
        : "names a locale, and this site has none: add its languages in Settings first",
    });
    return null;
  }
  return locale.primary ? null : locale;
}

export function planRow(p: PlanContext, cells: readonly string[]): RowPlan {
  const problems: ImportProblem[] = [];
  const locale = rowLocale(p, cells, problems);
  const out: RowPlan = {
    slug: null,
    archived: false,
    status: null,
    publishedAt: null,
    values: {},
    refs: [],
    problems,
    locale,
    itemRef: null,
  };
  const byKey = new Map(p.fields.map((f) => [f.key, f]));
  let draft: boolean | null = null;
  let published: string | null | undefined;
  p.mapping.forEach((m, i) => {
    const cell = cells[i] ?? "";
    const problem = (reason: string) => problems.push({ column: m.column, value: clipValue(cell), reason });
    // A translation holds its slug and localized fields; its other cells are the item's, which its primary row sets.
    if (locale && m.use !== "slug" && m.use !== "archived" && m.use !== "itemId" && !byKey.get(m.field ?? "")?.localized) return;
    switch (m.use) {
      case "ignore":
      case "locale":
        return;
      case "itemId":
        if (cell.trim() !== "") out.itemRef = cell.trim();
        return;
      case "slug":
        if (cell.trim() !== "") out.slug = cell.trim();
        return;
      case "archived":
      case "draft": {
        if (cell.trim() === "") return;
        const b = readBoolean(cell);
        if (b === null) return problem("is not true or false");
        if (m.use === "archived") out.archived = b;
        else draft = b;
        return;
      }
      case "publishedOn": {
        if (cell.trim() === "") return void (published = null);
        const d = readDate(cell);
        if (!d) return problem("is not a date (write 2024-05-01T09:30:00Z or Webflow's form Tue Aug 12 2025 07:53:00 GMT+0000)");
        published = d;
        return;
      }
      case "field":
      case "new": {
        const field = byKey.get(m.field ?? "");
        if (!field) return;
        if (cell === "" || (field.type !== "text" && field.type !== "richText" && cell.trim() === "")) {
          if (field.type === "reference" || field.type === "references")
            out.refs.push({
              key: field.key,
              column: m.column,
              collection: field.collection!,
              many: field.type === "references",
              targets: [],
            });
          else out.values[field.key] = null;
          return;
        }
        const v = readCell(field, cell);
        if ("reason" in v) return problem(v.reason);
        if ("refs" in v)
          out.refs.push({
            key: field.key,
            column: m.column,
            collection: field.collection!,
            many: field.type === "references",
            targets: v.refs,
          });
        else out.values[field.key] = v.value;
      }
    }
  });
  const extra = cells.slice(p.mapping.length).filter((c) => c.trim() !== "");
  if (extra.length)
    problems.push({
      column: "",
      value: clipValue(extra.join(", ")),
      reason: `has ${cells.length} cells but the header names ${p.mapping.length} columns (a separator or quote out of place?)`,
    });
  if (out.slug === null) {
    const title = titleFieldOf(p.fields);
    const t = title ? out.values[title.key] : undefined;
    if (typeof t === "string" && slugFrom(t) !== "") out.slug = slugFrom(t);
    else problems.push({ column: "Slug", value: "", reason: "no slug, and no title to make one from" });
  } else if (!isSlug(out.slug)) {
    const column = p.mapping.find((m) => m.use === "slug")?.column ?? "Slug";
    problems.push({ column, value: clipValue(out.slug), reason: `is not a slug (${SLUG_RULE})` });
  }
  if (draft === true) out.status = "draft";
  else if (published !== undefined) {
    out.status = published === null ? "draft" : "published";
    out.publishedAt = published;
  } else if (draft === false) out.status = "published";
  return out;
}

/** How references are resolved: ids of existing items, or slugs the file creates (written by the link pass). */
export interface Resolution {
  /** Field key → the ids it holds now (targets that exist). */
  ids: Map<string, string[]>;
  /** References to items the file creates that do not exist yet. */
  pending: RefCell[];
  /** Those items, with the column naming each. */
  waiting: { column: string; target: string }[];
}

/**
 * Resolves each reference cell: an item that exists (by slug or id), else (`inFile`) an item
 * this file creates, else a problem naming the missing item.
 */
export function resolveRefs(
  sql: SqlStorage,
  p: PlanContext,
  refs: readonly RefCell[],
  inFile: (collection: string, slug: string) => boolean,
  problems: ImportProblem[],
): Resolution {
  const ids = new Map<string, string[]>();
  const pending: RefCell[] = [];
  const all: { column: string; target: string }[] = [];
  for (const r of refs) {
    const target = p.collections.find((c) => c.slug === r.collection);
    const found: string[] = [];
    const waiting: string[] = [];
    if (!r.many && r.targets.length > 1) {
      problems.push({ column: r.column, value: clipValue(r.targets.join("; ")), reason: "names more than one item (the field holds one)" });
      continue;
    }
    if (r.targets.length > 100) {
      problems.push({ column: r.column, value: clipValue(r.targets.join("; ")), reason: "names more than 100 items" });
      continue;
    }
    for (const slug of r.targets) {
      const id = target ? itemIdOf(sql, target.id, slug) : null;
      if (id) found.push(id);
      else if (inFile(r.collection, slug)) waiting.push(slug);
      else problems.push({ column: r.column, value: clipValue(slug), reason: `no item "${slug}" in collection "${r.collection}"` });
    }
    if (waiting.length) {
      pending.push(r);
      for (const target of waiting) all.push({ column: r.column, target });
    } else ids.set(r.key, [...new Set(found)]);
  }
  return { ids, pending, waiting: all };
}

export interface Checked {
  data: ItemData;
  media: MediaRow[];
}

/**
 * The item's data after this row: `base` (an existing item's data, or null) with the mapped
 * values and resolved references, checked by the same rules as the API (validateItemData). A
 * field whose references wait for the link pass is left as it is. Problems are added in words.
 */
export function checkData(
  sql: SqlStorage,
  p: PlanContext,
  plan: RowPlan,
  res: Resolution,
  base: ItemData | null,
  problems: ImportProblem[],
): Checked | null {
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(plan.values)) {
    if (v === null && base === null) continue;
    input[k] = sameMedia(sql, p.fields, k, v, base) ?? v;
  }
  for (const [k, ids] of res.ids) {
    const f = p.fields.find((x) => x.key === k)!;
    input[k] =
      f.type === "references" ? (ids.length ? ids : base === null ? undefined : null) : (ids[0] ?? (base === null ? undefined : null));
    if (input[k] === undefined) delete input[k];
  }
  const waiting = new Set(res.pending.map((r) => r.key));
  // A required field whose references arrive in the link pass is checked there.
  const fields = p.fields.map((f) => (waiting.has(f.key) ? { ...f, required: false } : f));
  try {
    const { data, newMedia } = validateItemData(fields, input, base, {
      mediaExists: (id) => p.knownMedia?.has(id) === true || mediaExists(sql, id),
      mediaType: (id) => mediaType(sql, id),
      // References reach validation as the ids resolveRefs found (those waiting for the link pass are left out).
      resolveReference: (collection, ref) => {
        const target = p.collections.find((c) => c.slug === collection);
        return target ? itemIdOf(sql, target.id, ref) : null;
      },
    });
    return { data, media: newMedia };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const issues = (err.details as { issues?: { path: string; message: string }[] } | undefined)?.issues ?? [
      { path: "data", message: err.message },
    ];
    for (const issue of issues) {
      const key = issue.path.replace(/^data\.?/, "");
      const m = p.mapping.find((x) => x.field === key);
      const column = m?.column ?? key;
      const raw = plan.values[key];
      problems.push({ column, value: clipValue(raw === undefined || raw === null ? "" : String(raw)), reason: issue.message });
    }
    return null;
  }
}

/**
 * An image cell naming the URL the existing item's media already has: the same media, so an
 * unchanged row is unchanged. A gallery's entries each: a URL its stored gallery shows is that id.
 */
function sameMedia(sql: SqlStorage, fields: readonly Field[], key: string, v: unknown, base: ItemData | null): unknown {
  const f = fields.find((x) => x.key === key);
  if (!f || !base) return undefined;
  const urlOf = (e: unknown) => (e as { url?: unknown } | null)?.url;
  if (f.type === "gallery") {
    const stored = Array.isArray(base[key]) ? (base[key] as unknown[]).filter((id): id is string => typeof id === "string") : [];
    if (!Array.isArray(v) || stored.length === 0) return undefined;
    const byUrl = new Map([...readMedia(sql, stored).values()].map((m) => [m.url, m.id]));
    return v.map((e) => {
      const url = urlOf(e);
      return (typeof url === "string" && byUrl.get(url)) || e;
    });
  }
  if ((f.type !== "image" && f.type !== "video") || typeof base[key] !== "string") return undefined;
  const stored = readMedia(sql, [base[key] as string]).get(base[key] as string);
  return stored && stored.url === urlOf(v) ? stored.id : undefined;
}

/** Whether two item data objects say the same (key order aside). */
export function sameData(a: ItemData, b: ItemData): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** What status the row gives the item. */
export function statusOf(plan: RowPlan, existing: ItemRow | null): "draft" | "published" {
  return plan.status ?? existing?.status ?? "draft";
}
