import type { Collection } from "./collections";
import type { SiteContext } from "./context";
import type { ItemRow } from "./items";
import { type ListQuery, buildListQuery } from "./list-query";
import { type PublicItem, presentItems } from "./public-items";

export interface PublishedPage {
  query: ListQuery;
  items: PublicItem[];
  total: number;
}

/** One page of published items, read as the content API reads it (the renderer uses the same path). */
export function readPublishedPage(s: SiteContext, c: Collection, params: URLSearchParams): PublishedPage {
  const query = buildListQuery(params, c, s.collections());
  const total = s.countOf(query.where, query.args);
  const rows = s.sql
    .exec<ItemRow>(
      `SELECT * FROM items WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT ? OFFSET ?`,
      ...query.args,
      query.limit,
      (query.page - 1) * query.limit,
    )
    .toArray();
  return { query, items: presentItems(s.sql, rows, s.collections()), total };
}

export function readPublishedItem(s: SiteContext, c: Collection, slug: string): PublicItem | null {
  const row = s.sql
    .exec<ItemRow>("SELECT * FROM items WHERE collection_id = ? AND slug = ? AND status = 'published'", c.id, slug)
    .toArray()[0];
  return row ? (presentItems(s.sql, [row], s.collections())[0] ?? null) : null;
}
