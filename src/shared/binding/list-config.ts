/**
 * A list widget's attributes as a content API query, so `data-oc-limit`,
 * `data-oc-sort` and `data-oc-filter-<key>` mean exactly what `limit`, `sort`
 * and `filter[key]` mean to the API (and are validated by the same code).
 */
import { ATTR } from "./rules";

export interface ListConfig {
  collection: string;
  /** Query string parameters for the content API, in a stable order. */
  params: [string, string][];
}

/** `names` are the widget's attribute names; `get` returns decoded values. */
export function readListConfig(names: Iterable<string>, get: (name: string) => string | null): ListConfig | null {
  const collection = get(ATTR.list)?.trim();
  if (!collection) return null;
  const params: [string, string][] = [];
  const limit = get(ATTR.limit);
  if (limit !== null) params.push(["limit", limit]);
  const sort = get(ATTR.sort);
  if (sort !== null) params.push(["sort", sort]);
  const filters: [string, string][] = [];
  for (const name of names) {
    if (!name.startsWith(ATTR.filterPrefix)) continue;
    // data-oc-filter-price-gte="10" → filter[price][gte]=10; a bare key is equality.
    const rest = name.slice(ATTR.filterPrefix.length);
    const op = /-(eq|ne|gt|gte|lt|lte|contains|in)$/.exec(rest);
    const key = op ? rest.slice(0, -op[0].length) : rest;
    filters.push([op ? `filter[${key}][${op[1]}]` : `filter[${key}]`, get(name) ?? ""]);
  }
  filters.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { collection, params: [...params, ...filters] };
}

/** The query string for page `page` of a list. */
export function listQuery(config: ListConfig, page = 1): string {
  const parts = config.params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (page > 1) parts.push(`page=${page}`);
  return parts.join("&");
}
