/**
 * How list parameters are read, shared by the content API, the server renderer
 * and the embed script so a widget attribute means exactly what the query does.
 * Paging never fails: bad values fall back to defaults or are clamped.
 */

export const DEFAULT_LIMIT = 24;
export const MAX_LIMIT = 100;
const MAX_PAGE = 1_000_000;

export const FILTER_OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "contains", "in"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface SortKey {
  key: string;
  descending: boolean;
}

export interface FilterParam {
  /** The query parameter as written, for error messages. */
  param: string;
  key: string;
  op: string;
  value: string;
}

export function parsePage(raw: string | null | undefined): number {
  if (raw == null || !/^\s*\d+\s*$/.test(raw)) return 1;
  const n = Number(raw);
  return n >= 1 ? Math.min(n, MAX_PAGE) : 1;
}

export function parseLimit(raw: string | null | undefined, fallback = DEFAULT_LIMIT, max = MAX_LIMIT): number {
  if (raw == null || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(n)));
}

/** `-date,title` → [{date, desc}, {title, asc}]; empty parts are skipped. */
export function parseSort(raw: string | null | undefined): SortKey[] {
  if (!raw) return [];
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "" && s !== "-")
    .map((s) => (s.startsWith("-") ? { key: s.slice(1), descending: true } : { key: s, descending: false }));
}

const FILTER_PARAM = /^filter\[([^\]]*)\](?:\[([^\]]*)\])?$/;

/** Reads `filter[key]=v` and `filter[key][op]=v`. Returns null for parameters that are not filters. */
export function parseFilterParam(name: string, value: string): FilterParam | null | "malformed" {
  if (!name.startsWith("filter")) return null;
  const m = FILTER_PARAM.exec(name);
  if (!m) return "malformed";
  return { param: name, key: m[1] ?? "", op: m[2] ?? "eq", value };
}

/** Whether a list query uses Pro features (any filter or search), which starter sites may not. */
export function usesAdvancedListParams(names: Iterable<string>): boolean {
  for (const name of names) if (name === "search" || name.startsWith("filter")) return true;
  return false;
}

/** How many keys one `fields=` may name. */
export const MAX_FIELDS_PARAM = 64;

/**
 * `fields=title,slug,cover` → the field keys a read keeps in each item's `data`, sorted and once
 * each (the cache key's form), or null when the read keeps every field. Empty parts are skipped.
 */
export function parseFieldsParam(raw: string | null | undefined): string[] | null {
  if (raw == null) return null;
  const keys = [
    ...new Set(
      raw
        .split(",")
        .map((k) => k.trim())
        .filter((k) => k !== ""),
    ),
  ].sort();
  return keys.length ? keys : null;
}
