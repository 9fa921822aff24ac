/**
 * Which column goes where. Proposed from the header: a column whose name matches a field's key
 * or name (case, spaces and punctuation ignored) fills that field; Webflow's system columns (Name,
 * Slug, Draft, Archived, Published On; Collection ID, Created On, Updated On are ignored) get their
 * meaning; any other column is ignored unless the person picks a field or "new field" for it. On a
 * site with secondary locales, Locale ID says each row's locale (its values matched to the site's
 * locales, the first one the file holds as the primary) and Item ID ties an item's rows; elsewhere both are
 * ignored. A confirmed mapping is checked here before the dry run starts.
 */
import { ApiError, clip } from "../../../src/contract/errors";
import { type ColumnMapping, COLUMN_USES } from "../../../src/contract/imports";
import { fieldSchema, type Field } from "../../../src/contract/fields";
import { titleFieldOf } from "../../../src/contract/item-title";
import type { Collection } from "../storage/rows";
import { findLocale, type SiteLocaleSet } from "../storage/locale-set";

/** A name compared without case, spaces or punctuation ("Featured?" and "featured" are one name). */
export const normalName = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

const SYSTEM: Record<string, { use: ColumnMapping["use"]; note: string }> = {
  slug: { use: "slug", note: "The item's slug: an item with this slug is updated, otherwise one is created." },
  draft: { use: "draft", note: "true: imported as a draft." },
  archived: { use: "archived", note: "true: the row is skipped (Webflow's archived items)." },
  publishedon: { use: "publishedOn", note: "When the item was published; empty: imported as a draft." },
  collectionid: { use: "ignore", note: "Webflow's collection id: not needed here." },
  localeid: { use: "ignore", note: "Webflow's locale id: not needed here." },
  itemid: { use: "ignore", note: "Webflow's item id: items are matched by slug." },
  locale: { use: "ignore", note: "This site has one locale: every row is in it." },
  createdon: { use: "ignore", note: "Set by this service when the item is created." },
  updatedon: { use: "ignore", note: "Set by this service when the item is saved." },
};

/** The proposed use of Locale ID and Item ID on a site with secondary locales. */
const LOCALE_COLUMN = { use: "locale", note: "Each row's locale: a row in a secondary locale is its item's translation." } as const;
const LOCALIZED: Record<string, { use: ColumnMapping["use"]; note: string }> = {
  localeid: LOCALE_COLUMN,
  locale: LOCALE_COLUMN,
  itemid: { use: "itemId", note: "Rows with the same Item ID are one item in several locales." },
};

/**
 * Which of the site's locales each value of a locale column is: a value that names one is it;
 * the others (Webflow's ids), in the order the file first holds them, take the primary (an item's
 * row in the primary comes first in Webflow's export and in ours), then the secondaries in the
 * site's order, as far as they go; a value left over is "" (its rows fail the dry run until one is chosen).
 */
export function proposeLocales(values: readonly string[], locales: SiteLocaleSet): Record<string, string> {
  const out: Record<string, string> = {};
  const taken = new Set<string>();
  for (const v of values) {
    const l = v.trim() === "" ? undefined : findLocale(locales, v);
    if (l) {
      out[v] = l.code;
      taken.add(l.code);
    }
  }
  const free = locales.all.map((l) => l.code).filter((code) => !taken.has(code));
  for (const v of values) if (v.trim() !== "" && out[v] === undefined) out[v] = free.shift() ?? "";
  return out;
}

/**
 * The proposed mapping of `header` into `c`. `valuesOf(i)` lists column i's values in the order
 * the file first holds them (read only for a locale column).
 */
export function proposeMapping(
  header: readonly string[],
  c: Collection,
  locales: SiteLocaleSet,
  valuesOf: (index: number) => string[],
): ColumnMapping[] {
  const multilingual = locales.all.length > 1;
  const title = titleFieldOf(c.fields);
  const taken = new Set<string>();
  const byName = (name: string): Field | undefined =>
    c.fields.find((f) => !taken.has(f.key) && (normalName(f.key) === name || (f.name !== undefined && normalName(f.name) === name)));
  return header.map((column, index) => {
    const n = normalName(column);
    const field = byName(n);
    if (field) {
      taken.add(field.key);
      return { column, use: "field", field: field.key };
    }
    const localized = multilingual ? LOCALIZED[n] : undefined;
    if (localized?.use === "locale") return { column, ...localized, locales: proposeLocales(valuesOf(index), locales) };
    if (localized) return { column, ...localized };
    const system = SYSTEM[n];
    if (system) return { column, use: system.use, note: system.note };
    if (n === "name" && title && !taken.has(title.key)) {
      taken.add(title.key);
      return { column, use: "field", field: title.key, note: `Webflow's Name column fills the title field "${title.key}".` };
    }
    return { column, use: "ignore", note: "No field has this name: ignored unless you pick a field or create one." };
  });
}

/**
 * A mapping as the person confirmed it, checked against the header and the collection: each
 * column once, fields that exist (or new ones with valid, unused keys), at most one system use
 * each, and no field filled twice.
 */
export function checkMapping(input: unknown, header: readonly string[], c: Collection, locales: SiteLocaleSet): ColumnMapping[] {
  if (!Array.isArray(input)) throw new ApiError("bad_request", "`columns` must be an array of {column, use, field?, create?}.");
  const issues: { path: string; message: string }[] = [];
  const byColumn = new Map<string, ColumnMapping>();
  const filled = new Map<string, string>();
  const systems = new Map<string, string>();
  input.forEach((raw, i) => {
    const path = `columns.${i}`;
    if (typeof raw !== "object" || raw === null) return issues.push({ path, message: "must be an object {column, use, field?, create?}" });
    const m = raw as Record<string, unknown>;
    const column = typeof m.column === "string" ? m.column : "";
    if (!header.includes(column)) return issues.push({ path: `${path}.column`, message: `no column "${clip(column)}" in the file` });
    if (byColumn.has(column)) return issues.push({ path: `${path}.column`, message: `column "${clip(column)}" is mapped twice` });
    const use = m.use as ColumnMapping["use"];
    if (!COLUMN_USES.includes(use)) return issues.push({ path: `${path}.use`, message: `must be one of ${COLUMN_USES.join(", ")}` });
    const out: ColumnMapping = { column, use };
    if (use === "field") {
      const key = typeof m.field === "string" ? m.field : "";
      if (!c.fields.some((f) => f.key === key))
        return issues.push({ path: `${path}.field`, message: `no field "${clip(key)}" in collection "${c.slug}"` });
      out.field = key;
    } else if (use === "new") {
      const parsed = fieldSchema.safeParse(m.create);
      if (!parsed.success)
        return issues.push({
          path: `${path}.create`,
          message: parsed.error.issues.map((x) => `${x.path.join(".") || "field"} ${x.message}`).join("; "),
        });
      if (c.fields.some((f) => f.key === parsed.data.key))
        return issues.push({ path: `${path}.create.key`, message: `field "${parsed.data.key}" exists already: map the column to it` });
      out.create = { ...parsed.data, required: false };
      out.field = parsed.data.key;
    } else if (use !== "ignore") {
      if (use === "locale") {
        const map = checkLocaleMap(m.locales, locales);
        if (typeof map === "string") return issues.push({ path: `${path}.locales`, message: map });
        out.locales = map;
      }
      const prior = systems.get(use);
      if (prior !== undefined) return issues.push({ path: `${path}.use`, message: `"${use}" is already taken by column "${clip(prior)}"` });
      systems.set(use, column);
    }
    if (out.field !== undefined) {
      const prior = filled.get(out.field);
      if (prior !== undefined)
        return issues.push({ path: `${path}.field`, message: `field "${out.field}" is already filled by column "${clip(prior)}"` });
      filled.set(out.field, column);
    }
    byColumn.set(column, out);
  });
  if (issues.length) throw new ApiError("bad_request", `Invalid mapping: ${issues[0]!.path} ${issues[0]!.message}`, { issues });
  // Columns left out of the list are ignored.
  return header.map((column) => byColumn.get(column) ?? { column, use: "ignore" });
}

/** A `locale` column's values → locale codes, each a locale of the site (canonical); or why not. */
function checkLocaleMap(raw: unknown, locales: SiteLocaleSet): Record<string, string> | string {
  if (raw === undefined) return {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "must be an object {value: locale code}";
  const out: Record<string, string> = {};
  for (const [value, code] of Object.entries(raw as Record<string, unknown>)) {
    // Not chosen: the value's rows fail the dry run, saying so.
    if (code === "") continue;
    const l = typeof code === "string" ? findLocale(locales, code) : undefined;
    if (!l)
      return `"${clip(value)}" → "${clip(String(code))}" is not one of this site's locales (${locales.all.map((x) => x.code).join(", ") || "none"})`;
    out[value] = l.code;
  }
  return out;
}

/** The collection's fields with the ones the mapping creates (the dry run checks rows against these). */
export function fieldsWithNew(c: Collection, mapping: readonly ColumnMapping[]): Field[] {
  return [...c.fields, ...mapping.filter((m) => m.use === "new" && m.create).map((m) => m.create!)];
}
