import { ApiError, clip } from "../../../src/contract/errors";
import { FILTER_OPS, type FilterParam, parseFilterParam, parseLimit, parsePage, parseSort } from "../../../src/shared/list-params";
import { hasReferences } from "../content/public-items";
import { suggest } from "../../../src/shared/suggest";
import type { Collection } from "../storage/rows";
import type { Field } from "../../../src/contract/fields";
import { SYSTEM_SORT_KEYS } from "../../../src/contract/field-keys";
import { LOCALIZABLE_TYPES, SEARCHABLE_TYPES } from "../../../src/contract/field-types";
import { valueExpr } from "../storage/field-sql";
import { referencedIdsSql } from "../storage/items-table";
import { parseBooleanParam, parseNumberParam, normalizeDate } from "../content/values";
import { foldForSearch } from "../content/search-text";
import type { SearchMatch } from "../storage/search-index";

export interface ListQuery {
  page: number;
  limit: number;
  /** SQL after `WHERE`, with numbered `?N` placeholders (1..args.length), so `?` appended after it numbers on. */
  where: string;
  args: (string | number)[];
  orderBy: string;
  /**
   * The same order for reading every row of a filtered or searched list at once (the order memo,
   * at most ORDER_MEMO_ROWS rows): `+` on each term keeps SQLite from walking the sort key's
   * index over the whole collection, testing each row's filter, so the filter's index drives and
   * only its rows are read and sorted. Without a filter, `orderBy` itself (the walk is the list).
   */
  wholeOrderBy: string;
  /** True when `where` holds more than the collection and the published status (a filter or search). */
  filtered: boolean;
  /** True when the query uses Pro features (filter or search). */
  advanced: boolean;
  /** In a locale, with nothing more than its membership: the total is the locale's kept count. */
  onlyInLocale: number | null;
}

const MAX_SEARCH = 200;
const MAX_IN_VALUES = 50;
/**
 * Durable Object SQLite binds at most 100 values per statement. A filter binds
 * at most two (its value, or its `in` list as one JSON array, plus a reference's
 * target collection, shared between filters), the collection and `search` one
 * each and the page two more: 40 filters fit with room to spare.
 */
export const MAX_FILTERS = 40;
/** Longer than any field key (64) or value a filter can usefully compare: refused before any work. */
const MAX_FILTER_VALUE = 2048;
const MAX_KEY = 64;

type SystemKey = (typeof SYSTEM_SORT_KEYS)[number];
const SYSTEM_COLUMNS: Record<SystemKey, { column: string; type: "date" | "text" }> = {
  publishedAt: { column: "published_at", type: "date" },
  updatedAt: { column: "updated_at", type: "date" },
  slug: { column: "slug", type: "text" },
};

interface Target {
  sql: string;
  type: Field["type"];
  field?: Field;
}

/**
 * A read in a secondary locale: only items translated into it are listed, and a localized
 * field (and the slug) is read from the translations of `chain` in order, then (with
 * `fallback`) from the item's own values. The ids are the site's, never a caller's text.
 */
export interface LocaleScope {
  chain: readonly number[];
  fallback: boolean;
}

/** `items.<expr>` read from the item's translation into `locale` (its own values, the slug or the search text). */
const fromTranslation = (column: string, locale: number): string =>
  `(SELECT ${column} FROM item_locales WHERE seq = items.seq AND locale = ${Math.trunc(locale)})`;

/** A localized field's (or the slug's) value as a reader of the scope's locale sees it. */
function localizedExpr(scope: LocaleScope, translated: string, own: string): string {
  const chain = scope.fallback ? scope.chain : scope.chain.slice(0, 1);
  const parts = chain.map((id) => fromTranslation(translated, id));
  if (scope.fallback) parts.push(own);
  return parts.length === 1 ? (parts[0] as string) : `coalesce(${parts.join(", ")})`;
}

/**
 * Turns public list parameters into SQL over indexed expressions only. Unknown
 * or non-indexed keys are a 400 that names the parameter, the allowed keys and
 * the closest one; paging never fails.
 */
/**
 * HTML lower-cases attribute names, so a widget's `data-oc-filter-publishedat` must
 * still find `publishedAt`: a key with no exact match takes the one allowed key that
 * equals it ignoring case, when there is exactly one.
 */
function caseFold(key: string, allowed: readonly string[]): string {
  if (allowed.includes(key)) return key;
  const matches = allowed.filter((k) => k.toLowerCase() === key.toLowerCase());
  return matches.length === 1 ? (matches[0] as string) : key;
}

/** Resolves a filter or sort key (system key or indexed field) to its SQL expression; an unknown key is a 400. */
function targetsOf(collection: Collection, locale: LocaleScope | null = null): (param: string, written: string) => Target {
  const allowed = [...SYSTEM_SORT_KEYS, ...collection.fields.filter((f) => f.indexed).map((f) => f.key)];
  return (param: string, written: string): Target => {
    if (written.length > MAX_KEY) {
      throw new ApiError("bad_request", `Cannot use ${clip(param)}: field keys are at most ${MAX_KEY} characters.`, {
        parameter: clip(param),
        allowed,
      });
    }
    const key = caseFold(written, allowed);
    if ((SYSTEM_SORT_KEYS as readonly string[]).includes(key)) {
      const sys = SYSTEM_COLUMNS[key as SystemKey];
      // Every translated item has its own slug in the locale: the slug is never a fallback's.
      if (locale && key === "slug") return { sql: fromTranslation("slug", locale.chain[0] as number), type: sys.type };
      return { sql: sys.column, type: sys.type };
    }
    const field = collection.fields.find((f) => f.key === key);
    if (!field || !field.indexed) {
      const reason = field ? `"${key}" is not an indexed field` : `"${key}" is not a field of "${collection.slug}"`;
      const closest = suggest(key, allowed);
      throw new ApiError("bad_request", `Cannot use ${clip(param)}: ${reason}.${closest ? ` Did you mean "${closest}"?` : ""}`, {
        parameter: clip(param),
        field: key,
        allowed,
        suggestion: closest,
      });
    }
    const own = valueExpr(field);
    if (locale && field.localized && LOCALIZABLE_TYPES.has(field.type))
      return { sql: localizedExpr(locale, `json_extract(data, '$.${field.key}')`, own), type: field.type, field };
    return { sql: own, type: field.type, field };
  };
}

/** The `filter[...]` parameters' clauses, pushed onto `where`; returns how many there were. */
function addFilters(
  params: URLSearchParams,
  collection: Collection,
  all: readonly Collection[],
  bind: Binder,
  where: string[],
  target: (param: string, written: string) => Target,
): number {
  let filters = 0;
  for (const [name, value] of params) {
    const f = parseFilterParam(name, value);
    if (f === null) continue;
    if (f === "malformed") {
      throw new ApiError("bad_request", `Malformed filter parameter "${clip(name)}"; use filter[key]=value or filter[key][op]=value.`, {
        parameter: clip(name),
        ops: FILTER_OPS,
      });
    }
    if (++filters > MAX_FILTERS) {
      throw new ApiError("bad_request", `At most ${MAX_FILTERS} filter parameters per request.`, { parameter: "filter", max: MAX_FILTERS });
    }
    where.push(filterClause(f, target(f.param, f.key), collection, all, bind));
  }
  return filters;
}

/**
 * The dashboard's items table filters like the content API (same keys, operators and errors),
 * over drafts too: the clauses with numbered placeholders `?1..?n` (plain `?` after them numbers on).
 */
export function filterClauses(
  params: URLSearchParams,
  collection: Collection,
  all: readonly Collection[],
): { where: string[]; args: (string | number)[] } {
  const bind = new Binder();
  const where: string[] = [];
  addFilters(params, collection, all, bind, where, targetsOf(collection));
  return { where, args: bind.args };
}

/**
 * The clauses of a search. The substring index's hits are exactly the matching items: a few of
 * them drive the read (`+` keeps SQLite from walking the collection's order index instead,
 * testing every row against them), many are looked up as the list's order is walked. Without the
 * index every item of the collection is checked with `instr`. `scope` is the collection and
 * status clauses, turned unusable as index constraints when the hits drive.
 */
function searchClauses(m: SearchMatch | null, folded: string, bind: Binder, scope: string[], locale: LocaleScope | null): string[] {
  // A translation's search text is kept folded with its values (its own, or as its readers see them).
  if (locale)
    return [
      `instr(${fromTranslation(locale.fallback ? "search_text" : "own_search_text", locale.chain[0] as number)}, ${bind.value(folded)}) > 0`,
    ];
  if (m === null) return [`instr(search_text, ${bind.value(folded)}) > 0`];
  const hits = `(SELECT rowid FROM items_fts WHERE items_fts MATCH ${bind.value(m.query)})`;
  if (!m.narrow) return [`+seq IN ${hits}`];
  scope[0] = `+${scope[0]}`;
  scope[1] = `+${scope[1]}`;
  return [`seq IN ${hits}`];
}

/**
 * `match`: the substring index's query for a folded search term (storage/search-index.ts), or null
 * when the index cannot answer it; then every item of the collection is checked.
 */
export function buildListQuery(
  params: URLSearchParams,
  collection: Collection,
  all: readonly Collection[],
  match: (folded: string) => SearchMatch | null = () => null,
  locale: LocaleScope | null = null,
): ListQuery {
  const target = targetsOf(collection, locale);
  const bind = new Binder();
  const where = [`collection_id = ${bind.once(collection.id)}`, "status = 'published'"];
  // A primary-key probe per row the order walks: a page of the newest reads a page of rows.
  if (locale) where.push(`EXISTS (SELECT 1 FROM item_locales WHERE seq = items.seq AND locale = ${Math.trunc(locale.chain[0] as number)})`);
  const scope = where.length;
  let advanced = addFilters(params, collection, all, bind, where, target) > 0;

  const search = params.get("search")?.trim() ?? "";
  if (params.has("search")) advanced = true;
  if (search !== "") {
    if (search.length > MAX_SEARCH) {
      throw new ApiError("bad_request", `search is longer than ${MAX_SEARCH} characters.`, { parameter: "search", max: MAX_SEARCH });
    }
    if (!collection.fields.some((f) => f.indexed && SEARCHABLE_TYPES.has(f.type))) {
      throw new ApiError(
        "bad_request",
        `Collection "${collection.slug}" has no indexed text fields to search; mark a text field as indexed.`,
        {
          parameter: "search",
        },
      );
    }
    const folded = foldForSearch(search);
    where.push(...searchClauses(match(folded), folded, bind, where, locale));
  }

  const sort = parseSort(params.get("sort"));
  const order: string[] = [];
  const used = new Set<string>();
  for (const s of sort) {
    if (used.has(s.key)) continue;
    used.add(s.key);
    order.push(`${target("sort", s.key).sql} ${s.descending ? "DESC" : "ASC"}`);
  }
  if (order.length === 0) order.push("published_at DESC");
  // The last sort direction decides the tie-break direction, so SQLite can walk one index end to end.
  const lastDesc = sort.length === 0 || (sort[sort.length - 1] as { descending: boolean }).descending;
  order.push(`seq ${lastDesc ? "DESC" : "ASC"}`);

  return {
    page: parsePage(params.get("page")),
    limit: parseLimit(params.get("limit")),
    where: where.join(" AND "),
    args: bind.args,
    orderBy: order.join(", "),
    wholeOrderBy: where.length > 2 ? order.map((term) => `+${term}`).join(", ") : order.join(", "),
    filtered: where.length > 2,
    advanced,
    onlyInLocale: locale && where.length === scope ? (locale.chain[0] as number) : null,
  };
}

/**
 * Numbered placeholders (`?N`): a value bound once can be named in several
 * places, and a reference filter's target collection is bound once for all.
 */
class Binder {
  readonly args: (string | number)[] = [];
  readonly #named = new Map<string, string>();

  value(v: string | number): string {
    return `?${this.args.push(v)}`;
  }

  /** One placeholder per distinct string, shared by every clause that names it. */
  once(v: string): string {
    let p = this.#named.get(v);
    if (p === undefined) this.#named.set(v, (p = this.value(v)));
    return p;
  }
}

function filterClause(f: FilterParam, t: Target, collection: Collection, all: readonly Collection[], bind: Binder): string {
  const bad = (message: string): ApiError =>
    new ApiError("bad_request", `Cannot use ${clip(f.param)}: ${message}.`, { parameter: clip(f.param), field: f.key, op: clip(f.op) });
  if (!(FILTER_OPS as readonly string[]).includes(f.op)) {
    const closest = suggest(f.op, FILTER_OPS);
    throw new ApiError(
      "bad_request",
      `Unknown filter operator "${clip(f.op)}" in ${clip(f.param)}.${closest ? ` Did you mean "${closest}"?` : ""}`,
      {
        parameter: clip(f.param),
        op: clip(f.op),
        allowed: FILTER_OPS,
        suggestion: closest,
      },
    );
  }
  const opsFor: Record<string, readonly string[]> = {
    boolean: ["eq", "ne", "in"],
    reference: ["eq", "ne", "in"],
    option: ["eq", "ne", "in"],
    text: FILTER_OPS,
    link: FILTER_OPS,
    number: ["eq", "ne", "gt", "gte", "lt", "lte", "in"],
    decimal: ["eq", "ne", "gt", "gte", "lt", "lte", "in"],
    date: ["eq", "ne", "gt", "gte", "lt", "lte", "in"],
  };
  const ops = opsFor[t.type] ?? [];
  if (!ops.includes(f.op)) throw bad(`operator "${f.op}" does not apply to a ${t.type} field (use ${ops.join(", ")})`);
  if (f.op !== "in" && f.value.length > MAX_FILTER_VALUE) throw bad(`a filter value is at most ${MAX_FILTER_VALUE} characters`);

  const convert = (raw: string): string | number => {
    switch (t.type) {
      case "number":
      case "decimal": {
        const n = parseNumberParam(raw);
        if (n === null) throw bad(`"${clip(raw)}" is not a number`);
        return n;
      }
      case "boolean": {
        const b = parseBooleanParam(raw);
        if (b === null) throw bad(`"${clip(raw)}" is not true or false`);
        return b ? 1 : 0;
      }
      case "date": {
        const d = normalizeDate(raw);
        if (d === null) throw bad(`"${clip(raw)}" is not an ISO 8601 date`);
        return d;
      }
      default:
        return raw;
    }
  };
  // An `in` list is one bound value, a JSON array read back with json_each, however many values it holds.
  const list = (values: readonly (string | number)[]): string => `(SELECT value FROM json_each(${bind.value(JSON.stringify(values))}))`;

  if (t.type === "reference") {
    // A reference filter takes the target item's id or slug.
    const target = bind.once((all.find((c) => c.slug === t.field?.collection) ?? collection).id);
    if (f.op === "in") {
      const values = list(splitIn(f.value, bad));
      return `${t.sql} IN ${referencedIdsSql(target, `(r.id IN ${values} OR r.slug IN ${values})`)}`;
    }
    const v = bind.value(f.value);
    const refSql = referencedIdsSql(target, `(r.id = ${v} OR r.slug = ${v})`);
    return f.op === "eq" ? `${t.sql} IN ${refSql}` : `(${t.sql} IS NULL OR ${t.sql} NOT IN ${refSql})`;
  }

  switch (f.op) {
    case "eq":
      return `${t.sql} = ${bind.value(convert(f.value))}`;
    case "ne":
      return `(${t.sql} IS NULL OR ${t.sql} != ${bind.value(convert(f.value))})`;
    case "gt":
      return `${t.sql} > ${bind.value(convert(f.value))}`;
    case "gte":
      return `${t.sql} >= ${bind.value(convert(f.value))}`;
    case "lt":
      return `${t.sql} < ${bind.value(convert(f.value))}`;
    case "lte":
      return `${t.sql} <= ${bind.value(convert(f.value))}`;
    case "contains":
      // SQLite's lower() folds ASCII only; `search` is the Unicode-folding matcher.
      return `instr(lower(${t.sql}), lower(${bind.value(f.value)})) > 0`;
    default:
      return `${t.sql} IN ${list(splitIn(f.value, bad).map(convert))}`;
  }
}

function splitIn(raw: string, bad: (m: string) => ApiError): string[] {
  const values = raw
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  if (values.length === 0) throw bad("give at least one comma-separated value");
  if (values.length > MAX_IN_VALUES) throw bad(`give at most ${MAX_IN_VALUES} values`);
  if (values.some((v) => v.length > MAX_FILTER_VALUE)) throw bad(`a filter value is at most ${MAX_FILTER_VALUE} characters`);
  return values;
}

/**
 * The keys a list's order and membership depend on, as its query names them: its sort keys (or
 * `publishedAt`, the default order) and its filter keys. Null when more than keys decide: a
 * `search` (the indexed text of every searchable field) or a collection with references (a list
 * shows the items it references, and a reference filter reads them).
 */
export function listDependsOn(collection: Collection, params: URLSearchParams): string[] | null {
  // A list in a locale also depends on translations, which are not keys of the item.
  if (hasReferences(collection) || params.has("search") || params.has("locale")) return null;
  const keys = parseSort(params.get("sort")).map((s) => s.key);
  if (keys.length === 0) keys.push("publishedAt");
  for (const [name, value] of params) {
    const f = parseFilterParam(name, value);
    if (f === "malformed") return null;
    if (f) keys.push(f.key);
  }
  return keys;
}
