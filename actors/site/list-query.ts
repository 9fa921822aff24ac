import { ApiError } from "../../src/http/errors";
import { FILTER_OPS, type FilterParam, parseFilterParam, parseLimit, parsePage, parseSort } from "../../src/shared/list-params";
import { suggest } from "../../src/shared/suggest";
import type { Collection } from "./collections";
import { type Field, fieldExpr, SEARCHABLE_TYPES, SYSTEM_SORT_KEYS } from "./fields";
import { parseBooleanParam, parseNumberParam, normalizeDate } from "./values";

export interface ListQuery {
  page: number;
  limit: number;
  /** SQL after `WHERE`, with `?` placeholders. */
  where: string;
  args: (string | number)[];
  orderBy: string;
  /** True when the query uses Pro features (filter or search). */
  advanced: boolean;
}

const MAX_SEARCH = 200;
const MAX_IN_VALUES = 50;

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

export function buildListQuery(params: URLSearchParams, collection: Collection, all: readonly Collection[]): ListQuery {
  const allowed = [...SYSTEM_SORT_KEYS, ...collection.fields.filter((f) => f.indexed).map((f) => f.key)];
  const target = (param: string, written: string): Target => {
    const key = caseFold(written, allowed);
    if ((SYSTEM_SORT_KEYS as readonly string[]).includes(key)) {
      const sys = SYSTEM_COLUMNS[key as SystemKey];
      return { sql: sys.column, type: sys.type };
    }
    const field = collection.fields.find((f) => f.key === key);
    if (!field || !field.indexed) {
      const reason = field ? `"${key}" is not an indexed field` : `"${key}" is not a field of "${collection.slug}"`;
      const closest = suggest(key, allowed);
      throw new ApiError("bad_request", `Cannot use ${param}: ${reason}.${closest ? ` Did you mean "${closest}"?` : ""}`, {
        parameter: param,
        field: key,
        allowed,
        suggestion: closest,
      });
    }
    return { sql: fieldExpr(key), type: field.type, field };
  };

  const where = ["collection_id = ?", "status = 'published'"];
  const args: (string | number)[] = [collection.id];
  let advanced = false;

  for (const [name, value] of params) {
    const f = parseFilterParam(name, value);
    if (f === null) continue;
    if (f === "malformed") {
      throw new ApiError("bad_request", `Malformed filter parameter "${name}"; use filter[key]=value or filter[key][op]=value.`, {
        parameter: name,
        ops: FILTER_OPS,
      });
    }
    advanced = true;
    const t = target(f.param, f.key);
    const clause = filterClause(f, t, collection, all);
    where.push(clause.sql);
    args.push(...clause.args);
  }

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
    where.push("instr(search_text, ?) > 0");
    args.push(search.toLowerCase());
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
    args,
    orderBy: order.join(", "),
    advanced,
  };
}

function filterClause(
  f: FilterParam,
  t: Target,
  collection: Collection,
  all: readonly Collection[],
): { sql: string; args: (string | number)[] } {
  const bad = (message: string): ApiError =>
    new ApiError("bad_request", `Cannot use ${f.param}: ${message}.`, { parameter: f.param, field: f.key, op: f.op });
  if (!(FILTER_OPS as readonly string[]).includes(f.op)) {
    const closest = suggest(f.op, FILTER_OPS);
    throw new ApiError("bad_request", `Unknown filter operator "${f.op}" in ${f.param}.${closest ? ` Did you mean "${closest}"?` : ""}`, {
      parameter: f.param,
      op: f.op,
      allowed: FILTER_OPS,
      suggestion: closest,
    });
  }
  const opsFor: Record<string, readonly string[]> = {
    boolean: ["eq", "ne", "in"],
    reference: ["eq", "ne", "in"],
    text: FILTER_OPS,
    link: FILTER_OPS,
    number: ["eq", "ne", "gt", "gte", "lt", "lte", "in"],
    date: ["eq", "ne", "gt", "gte", "lt", "lte", "in"],
  };
  const ops = opsFor[t.type] ?? [];
  if (!ops.includes(f.op)) throw bad(`operator "${f.op}" does not apply to a ${t.type} field (use ${ops.join(", ")})`);

  const convert = (raw: string): string | number => {
    switch (t.type) {
      case "number": {
        const n = parseNumberParam(raw);
        if (n === null) throw bad(`"${raw}" is not a number`);
        return n;
      }
      case "boolean": {
        const b = parseBooleanParam(raw);
        if (b === null) throw bad(`"${raw}" is not true or false`);
        return b ? 1 : 0;
      }
      case "date": {
        const d = normalizeDate(raw);
        if (d === null) throw bad(`"${raw}" is not an ISO 8601 date`);
        return d;
      }
      default:
        return raw;
    }
  };

  if (t.type === "reference") {
    // A reference filter takes the target item's id or slug.
    const target = all.find((c) => c.slug === t.field?.collection) ?? collection;
    const refSql = "(SELECT r.id FROM items r WHERE r.collection_id = ? AND (r.id = ? OR r.slug = ?))";
    if (f.op === "in") {
      const values = splitIn(f.value, bad);
      return {
        sql: `${t.sql} IN (SELECT r.id FROM items r WHERE r.collection_id = ? AND (r.id IN (${values.map(() => "?").join(",")}) OR r.slug IN (${values.map(() => "?").join(",")})))`,
        args: [target.id, ...values, ...values],
      };
    }
    const sql = f.op === "eq" ? `${t.sql} IN ${refSql}` : `(${t.sql} IS NULL OR ${t.sql} NOT IN ${refSql})`;
    return { sql, args: [target.id, f.value, f.value] };
  }

  switch (f.op) {
    case "eq":
      return { sql: `${t.sql} = ?`, args: [convert(f.value)] };
    case "ne":
      return { sql: `(${t.sql} IS NULL OR ${t.sql} != ?)`, args: [convert(f.value)] };
    case "gt":
      return { sql: `${t.sql} > ?`, args: [convert(f.value)] };
    case "gte":
      return { sql: `${t.sql} >= ?`, args: [convert(f.value)] };
    case "lt":
      return { sql: `${t.sql} < ?`, args: [convert(f.value)] };
    case "lte":
      return { sql: `${t.sql} <= ?`, args: [convert(f.value)] };
    case "contains":
      // SQLite's lower() folds ASCII only; `search` is the Unicode-folding matcher.
      return { sql: `instr(lower(${t.sql}), lower(?)) > 0`, args: [f.value] };
    default: {
      const values = splitIn(f.value, bad).map(convert);
      return { sql: `${t.sql} IN (${values.map(() => "?").join(",")})`, args: values };
    }
  }
}

function splitIn(raw: string, bad: (m: string) => ApiError): string[] {
  const values = raw
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  if (values.length === 0) throw bad("give at least one comma-separated value");
  if (values.length > MAX_IN_VALUES) throw bad(`give at most ${MAX_IN_VALUES} values`);
  return values;
}
