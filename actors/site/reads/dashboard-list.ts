import { ApiError } from "../../../src/contract/errors";
import type { Collection } from "../storage/rows";
import { valueExpr } from "../storage/field-sql";
import { bothStatusesPage, countInCollection, countInStatus, countWhere, dashboardListSql, rowsPage } from "../storage/items-table";
import { type ItemRow } from "../storage/rows";
import { DASHBOARD_SEARCH_MAX } from "../../../src/contract/limits";
import { foldForSearch } from "../content/search-text";
import { filterClauses } from "./list-query";
import { searchMatch, type SearchMatch } from "../storage/search-index";

const COLUMNS: Record<string, string> = { updatedAt: "updated_at", createdAt: "created_at", publishedAt: "published_at", slug: "slug" };

export interface DashboardListQuery {
  page: number;
  limit: number;
  status: "draft" | "published" | null;
  /** `key` or `-key`: a system date, `slug`, or one of the collection's indexed fields. */
  sort: string | null;
  /** Substring of the slug or of any field value (ASCII case folded), drafts included. */
  search: string | null;
  /**
   * `all` (the default): `search` also matches every value as stored, which reads every item of
   * the collection. `indexed`: only the slug and the indexed text fields, folded, through the
   * substring index: what the dashboard's items table asks for, at any size.
   */
  searchIn: "all" | "indexed";
  /** The request's parameters: its `filter[...]` ones filter as in the content API, over indexed fields. */
  params: URLSearchParams;
  /** A secondary locale's id: only the items not translated into it (`missing=fr`). */
  missing?: number | null;
}

/** The dashboard's items table: every status, newest first unless sorted, optionally searched. */
export function listDashboardItems(
  sql: SqlStorage,
  collection: Collection,
  all: readonly Collection[],
  q: DashboardListQuery,
  match: (folded: string) => SearchMatch | null = (folded) => searchMatch(sql, folded, "text and slug"),
): { rows: ItemRow[]; total: number } {
  // Numbered placeholders first; the plain `?` of the clauses below number on after them.
  const filters = filterClauses(q.params, collection, all);
  // Not translated into a locale yet: a filter like the others, probed by the translation's key.
  if (q.missing != null)
    filters.where.push(`NOT EXISTS (SELECT 1 FROM item_locales WHERE seq = items.seq AND locale = ${Math.trunc(q.missing)})`);
  if (q.sort === null && q.search === null && filters.where.length === 0) {
    const args = q.status ? [collection.id, q.status] : [collection.id];
    const plain = dashboardListSql(q.status);
    const total = q.status ? countInStatus(sql, collection.id, q.status) : countInCollection(sql, collection.id);
    return { rows: sql.exec<ItemRow>(plain.page, ...args, q.limit, (q.page - 1) * q.limit).toArray(), total };
  }
  if (q.sort !== null && q.search === null && filters.where.length === 0 && q.status === null) {
    // Every status, sorted: each status's page prefix read through its (collection, status, key) index, then merged.
    const { key, dir } = sortKey(collection, q.sort);
    return {
      rows: bothStatusesPage(sql, collection.id, key, dir, q.limit, (q.page - 1) * q.limit),
      total: countInCollection(sql, collection.id),
    };
  }
  const where = [...filters.where, "collection_id = ?"];
  const args: (string | number)[] = [...filters.args, collection.id];
  if (q.status) {
    where.push("status = ?");
    args.push(q.status);
  }
  if (q.search !== null && q.searchIn === "indexed") {
    const folded = foldForSearch(q.search);
    const m = match(folded);
    if (m === null) {
      where.push("(instr(slug, ?) > 0 OR instr(search_text, ?) > 0)");
      args.push(folded, folded);
    } else {
      // The index's hits are exactly the items holding the term; a few drive the read (see list-query.ts).
      if (m.narrow) for (let i = filters.where.length; i < where.length; i++) where[i] = `+${where[i]}`;
      where.push(`${m.narrow ? "" : "+"}seq IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?)`);
      args.push(m.query);
    }
  } else if (q.search !== null) {
    const needle = q.search.toLowerCase();
    // Any value as stored (SQLite's lower() folds ASCII only), and the indexed text fields without
    // their accents too, as the content API's search matches them ("cafe" finds "Café").
    where.push("(instr(slug, ?) > 0 OR instr(lower(data), ?) > 0 OR instr(search_text, ?) > 0)");
    args.push(needle, needle, foldForSearch(q.search));
  }
  const order = orderBy(collection, q.sort);
  const w = where.join(" AND ");
  // Only the collection and its status: the kept counts answer.
  const plainWhere = filters.where.length === 0 && q.search === null;
  const total = !plainWhere
    ? countWhere(sql, w, args)
    : q.status
      ? countInStatus(sql, collection.id, q.status)
      : countInCollection(sql, collection.id);
  const rows = rowsPage(sql, w, order, args, q.limit, (q.page - 1) * q.limit);
  return { rows, total };
}

function orderBy(collection: Collection, sort: string | null): string {
  if (sort === null) return "seq DESC";
  const { key, dir } = sortKey(collection, sort);
  return `${key} ${dir}, seq ${dir}`;
}

/** The SQL of a `sort` value's key and its direction. */
function sortKey(collection: Collection, sort: string): { key: string; dir: "ASC" | "DESC" } {
  const desc = sort.startsWith("-");
  const key = desc ? sort.slice(1) : sort;
  const dir = desc ? "DESC" : "ASC";
  const column = COLUMNS[key];
  if (column) return { key: column, dir };
  const field = collection.fields.find((f) => f.key === key && f.indexed);
  if (!field) {
    const allowed = [...Object.keys(COLUMNS), ...collection.fields.filter((f) => f.indexed).map((f) => f.key)];
    throw new ApiError("bad_request", `Cannot sort by "${key.slice(0, 64)}": sort by one of ${allowed.join(", ")}.`, {
      parameter: "sort",
      allowed,
    });
  }
  return { key: valueExpr(field), dir };
}

export function dashboardListQuery(url: URL, page: number, limit: number): DashboardListQuery {
  const status = url.searchParams.get("status");
  if (status !== null && status !== "draft" && status !== "published") {
    throw new ApiError("bad_request", `status must be draft or published, got "${status.slice(0, 32)}".`, { parameter: "status" });
  }
  const search = url.searchParams.get("search")?.trim() || null;
  if (search !== null && search.length > DASHBOARD_SEARCH_MAX) {
    throw new ApiError("bad_request", `search is at most ${DASHBOARD_SEARCH_MAX} characters.`, { parameter: "search" });
  }
  const searchIn = url.searchParams.get("searchIn") ?? "all";
  if (searchIn !== "all" && searchIn !== "indexed") {
    throw new ApiError("bad_request", `searchIn must be all or indexed, got "${searchIn.slice(0, 32)}".`, { parameter: "searchIn" });
  }
  return { page, limit, status, sort: url.searchParams.get("sort") || null, search, searchIn, params: url.searchParams };
}
