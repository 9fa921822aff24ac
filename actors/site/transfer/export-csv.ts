/**
 * A collection as CSV in the shape Webflow's CMS exports (Name, Slug, Collection ID, Locale ID,
 * Item ID, Archived, Draft, Created On, Updated On, Published On, then one column per field), so
 * the file opens in the tools people already use and imports back. Streamed: one keyset page
 * of items per pull, never the whole collection in memory. Written with csv-stringify (RFC 4180
 * quoting of commas, quotes, CR and LF: CSV_WRITE), UTF-8 with a BOM (Excel reads it right) and CRLF.
 * Every cell a spreadsheet would run as a formula is written behind a `'` (escapeFormula), which
 * the collection CSV import takes away again (unescapeFormula): the round trip gives back `=1+1`.
 * On a site with secondary locales, `Locale ID` holds each row's locale code: an item's row in the
 * primary, then a row per translation (its slug, its own localized values, empty where it falls
 * back; the shared fields repeated), all with the item's `Item ID`, as Webflow's localized export
 * ties an item's rows. The import reads them back into the same translations.
 */
import { stringify } from "csv-stringify/sync";
import { CSV_WRITE, escapeFormula } from "../../../src/contract/csv";
import type { Field } from "../../../src/contract/fields";
import { GALLERY_SEPARATOR } from "../../../src/contract/field-types";
import { titleFieldOf } from "../../../src/contract/item-title";
import type { Collection, ItemRow } from "../storage/rows";
import { rowsByIds, rowsPage } from "../storage/items-table";
import { readMedia } from "../content/media";
import { localizedFields } from "../reads/localized";
import { type TranslationRow, translationsOfSeqs } from "../storage/locales-table";
import type { SiteLocaleSet } from "../storage/locale-set";

export const EXPORT_PAGE = 500;
const SYSTEM_COLUMNS = [
  "Name",
  "Slug",
  "Collection ID",
  "Locale ID",
  "Item ID",
  "Archived",
  "Draft",
  "Created On",
  "Updated On",
  "Published On",
];

/** The collection's items in `seq` order, a page at a time (an item changed meanwhile appears once, as read). */
export function* itemPages(sql: SqlStorage, collectionId: string): Generator<ItemRow[]> {
  let after = 0;
  for (;;) {
    const rows = rowsPage(sql, "collection_id = ? AND seq > ?", "seq", [collectionId, after], EXPORT_PAGE, 0);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.seq;
  }
}

/** Column names for the fields after the system columns: the display name, or the key where names clash. */
export function fieldColumns(c: Collection): { field: Field; column: string }[] {
  const title = titleFieldOf(c.fields);
  const rest = c.fields.filter((f) => f !== title);
  const names = rest.map((f) => f.name ?? f.key);
  return rest.map((field, i) => ({
    field,
    column: names.filter((n) => n === names[i]).length > 1 || SYSTEM_COLUMNS.includes(names[i]!) ? field.key : names[i]!,
  }));
}

export function collectionCsv(sql: SqlStorage, c: Collection, locales: SiteLocaleSet): ReadableStream<Uint8Array> {
  const title = titleFieldOf(c.fields);
  const columns = fieldColumns(c);
  const pages = itemPages(sql, c.id);
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(
            encoder.encode(`\ufeff${stringify([[...SYSTEM_COLUMNS, ...columns.map((x) => escapeFormula(x.column))]], CSV_WRITE)}`),
          );
          return;
        }
        const next = pages.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(stringify(csvRows(sql, c, locales, title, columns, next.value), CSV_WRITE)));
      },
    },
    { highWaterMark: 0 },
  );
}

/** One row per item, and on a site with secondary locales one more per translation after it. */
interface CsvRow {
  item: ItemRow;
  data: Record<string, unknown>;
  slug: string;
  locale: string;
  updatedAt: string;
}

function localeRows(sql: SqlStorage, c: Collection, locales: SiteLocaleSet, rows: readonly ItemRow[]): CsvRow[] {
  const primary = locales.all.length > 1 ? (locales.primary?.code ?? "") : "";
  const out: CsvRow[] = [];
  const translations = primary
    ? translationsOfSeqs(
        sql,
        rows.map((r) => r.seq),
      )
    : new Map<number, TranslationRow[]>();
  const localized = localizedFields(c);
  for (const item of rows) {
    const data = JSON.parse(item.data) as Record<string, unknown>;
    out.push({ item, data, slug: item.slug, locale: primary, updatedAt: item.updated_at });
    for (const t of translations.get(item.seq) ?? []) {
      const locale = locales.byId.get(t.locale);
      if (!locale) continue;
      const own = JSON.parse(t.data) as Record<string, unknown>;
      const mixed = { ...data };
      for (const f of localized) mixed[f.key] = own[f.key];
      out.push({ item, data: mixed, slug: t.slug, locale: locale.code, updatedAt: t.updated_at });
    }
  }
  return out;
}

function csvRows(
  sql: SqlStorage,
  c: Collection,
  locales: SiteLocaleSet,
  title: Field | null,
  columns: { field: Field }[],
  items: readonly ItemRow[],
): string[][] {
  const rows = localeRows(sql, c, locales, items);
  const data = rows.map((r) => r.data);
  // References are written as slugs and media as URLs: look up this page's ids at once.
  const refIds = new Set<string>();
  const mediaIds = new Set<string>();
  for (const d of data)
    for (const { field } of columns) {
      const v = d[field.key];
      if (field.type === "reference" && typeof v === "string") refIds.add(v);
      if (field.type === "references" && Array.isArray(v)) for (const id of v) if (typeof id === "string") refIds.add(id);
      if ((field.type === "image" || field.type === "video") && typeof v === "string") mediaIds.add(v);
      if (field.type === "gallery" && Array.isArray(v)) for (const id of v) if (typeof id === "string") mediaIds.add(id);
    }
  const slugs = new Map(rowsByIds(sql, [...refIds]).map((r) => [r.id, r.slug]));
  const media = readMedia(sql, mediaIds);
  return rows.map(({ item: r, data: d, slug, locale, updatedAt }) => {
    const cells = [
      title ? text(d[title.key]) : "",
      slug,
      c.id,
      locale,
      r.id,
      "false",
      r.status === "draft" ? "true" : "false",
      r.created_at,
      updatedAt,
      r.published_at ?? "",
      ...columns.map(({ field }) => cell(field, d[field.key], slugs, media)),
    ];
    return cells.map(escapeFormula);
  });
}

function cell(field: Field, v: unknown, slugs: ReadonlyMap<string, string>, media: ReadonlyMap<string, { url: string }>): string {
  if (v === undefined || v === null) return "";
  switch (field.type) {
    case "reference":
      return typeof v === "string" ? (slugs.get(v) ?? "") : "";
    case "references":
      return Array.isArray(v)
        ? v
            .map((id) => slugs.get(String(id)))
            .filter((s) => s !== undefined)
            .join("; ")
        : "";
    case "image":
    case "video":
      if (typeof v === "string") return media.get(v)?.url ?? "";
      return typeof v === "object" && typeof (v as { url?: unknown }).url === "string" ? (v as { url: string }).url : "";
    case "gallery":
      return Array.isArray(v)
        ? v
            .map((id) => media.get(String(id))?.url)
            .filter((u) => u !== undefined)
            .join(GALLERY_SEPARATOR)
        : "";
    case "boolean":
      return v === true ? "true" : "false";
    default:
      return text(v);
  }
}

const text = (v: unknown): string =>
  typeof v === "string" ? v : v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
