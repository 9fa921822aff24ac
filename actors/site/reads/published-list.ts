import type { SiteContext } from "../context";
import { type ListQuery, type LocaleScope, buildListQuery } from "./list-query";
import { localizedFields, localizeItems, readLocale } from "./localized";
import { countInLocale, seqByLocaleSlug } from "../storage/locales-table";
import { searchMatch } from "../storage/search-index";
import { hasReferences, type PublicRow, presentItems, publicDataJson, publicItemsJson } from "../content/public-items";
import type { PublicItem } from "../../../src/contract/responses";
import { findPending } from "../storage/pending-table";
import { countInStatus, findItem, findPublishedBySlug, publishedBySeqs, publishedPage } from "../storage/items-table";
import type { Collection } from "../storage/rows";

export interface PublishedPage<T = PublicItem> {
  query: ListQuery;
  items: T[];
  total: number;
}

/** A list query as the object reads it: its count, and its order when memoised (`SiteContext.orderOf`). */
interface Listed {
  query: ListQuery;
  total: number;
  order: readonly number[] | null;
  offset: number;
}

function listed(s: SiteContext, c: Collection, params: URLSearchParams, scope: LocaleScope | null = null): Listed {
  const query = buildListQuery(params, c, s.collections(), (folded) => searchMatch(s.sql, folded), scope);
  // The whole published collection: its count is kept (item_counts), not counted.
  const total =
    query.onlyInLocale !== null
      ? countInLocale(s.sql, c.id, query.onlyInLocale, "published")
      : query.filtered
        ? s.countOf(query.where, query.args)
        : countInStatus(s.sql, c.id, "published");
  // Every page of one order shares it: a slice of the memoised order, not an OFFSET scan per page.
  const order = s.orderOf(query.where, query.args, query.wholeOrderBy, total);
  return { query, total, order, offset: (query.page - 1) * query.limit };
}

function rowsOf(s: SiteContext, { query, order, offset }: Listed): PublicRow[] {
  return order
    ? publishedBySeqs(s.sql, order.slice(offset, offset + query.limit))
    : publishedPage(s.sql, query.where, query.orderBy, query.args, query.limit, offset);
}

function pageRows(s: SiteContext, c: Collection, params: URLSearchParams): PublishedPage<PublicRow> {
  const l = listed(s, c, params);
  return { query: l.query, items: rowsOf(s, l), total: l.total };
}

function itemRow(s: SiteContext, c: Collection, slug: string): PublicRow | undefined {
  return findPublishedBySlug(s.sql, c.id, slug);
}

/** One page of published items, read as the content API reads it (the renderer uses the same path). */
export function readPublishedPage(s: SiteContext, c: Collection, params: URLSearchParams): PublishedPage {
  if (params.has("locale")) {
    // In a locale: the content API's answers, as objects (a rendered page in a locale reads these).
    const json = publishedPageJson(s, c, params);
    return { ...json, items: json.items.map((text) => JSON.parse(text) as PublicItem) };
  }
  const page = pageRows(s, c, params);
  return { ...page, items: presentItems(s.sql, page.items, s.collections(), s.publicStaleAfter()) };
}

/**
 * The same page for the content API: each item as JSON text, assembled from its stored public JSON.
 * A page of a memoised order takes the text of the items built before from the object's memo
 * (reads/item-json-memo.ts) and reads the rows of the others only.
 */
export function publishedPageJson(s: SiteContext, c: Collection, params: URLSearchParams): PublishedPage<string> {
  const read = readLocale(s.locales(), params);
  if (read) {
    // In a locale: the items translated into it (every item for the primary, and in a collection
    // with nothing to translate), each answer localized.
    const l = listed(s, c, params, localizedFields(c).length ? read.scope : null);
    const rows = rowsOf(s, l);
    const texts = publicItemsJson(s.sql, rows, s.collections(), s.publicStaleAfter());
    return { query: l.query, total: l.total, items: localizeItems(s.sql, s.locales(), c, rows, texts, read) };
  }
  const l = listed(s, c, params);
  const { query, total, order, offset } = l;
  const staleAfter = s.publicStaleAfter();
  if (!order || staleAfter !== null || hasReferences(c)) {
    return { query, total, items: publicItemsJson(s.sql, rowsOf(s, l), s.collections(), staleAfter) };
  }
  const seqs = order.slice(offset, offset + query.limit);
  const memo = s.itemJson();
  const items = seqs.map((seq) => memo.get(seq));
  const missing = seqs.filter((_, i) => items[i] === undefined);
  if (missing.length) {
    const rows = publishedBySeqs(s.sql, missing);
    const texts = publicItemsJson(s.sql, rows, s.collections(), null);
    const bySeq = new Map<number, string>();
    rows.forEach((row, i) => {
      const text = texts[i] as string;
      bySeq.set(row.seq, text);
      memo.set(row.seq, row.id, text);
    });
    seqs.forEach((seq, i) => (items[i] ??= bySeq.get(seq)));
  }
  // A seq of the order with no row (not possible while the order is current) is left out, as the rows' read would.
  return { query, items: items.filter((t): t is string => t !== undefined), total };
}

export function readPublishedItem(s: SiteContext, c: Collection, slug: string, params?: URLSearchParams): PublicItem | null {
  if (params?.has("locale")) {
    const text = publishedItemJson(s, c, slug, params);
    return text === null ? null : (JSON.parse(text) as PublicItem);
  }
  const row = itemRow(s, c, slug);
  return row ? (presentItems(s.sql, [row], s.collections(), s.publicStaleAfter())[0] ?? null) : null;
}

export function publishedItemJson(s: SiteContext, c: Collection, slug: string, params?: URLSearchParams): string | null {
  const read = params ? readLocale(s.locales(), params) : null;
  const row = read && !read.locale.primary && localizedFields(c).length ? translatedRow(s, c, read.locale.id, slug) : itemRow(s, c, slug);
  if (!row) return null;
  const text = publicItemsJson(s.sql, [row], s.collections(), s.publicStaleAfter())[0];
  if (text === undefined) return null;
  return read ? (localizeItems(s.sql, s.locales(), c, [row], [text], read)[0] ?? null) : text;
}

/** The published item whose slug in the locale `locale` is `slug`. */
function translatedRow(s: SiteContext, c: Collection, locale: number, slug: string): PublicRow | undefined {
  const seq = seqByLocaleSlug(s.sql, c.id, locale, slug);
  return seq === null ? undefined : publishedBySeqs(s.sql, [seq]).find((r) => r.status === "published");
}

/** An item of the connected collection in any status, shaped as the content API would publish it. */
export function readItemForPreview(s: SiteContext, collectionId: string, id: string): PublicItem | null {
  const row = findItem(s.sql, collectionId, id);
  if (!row) return null;
  // A published item's pending changes are what the preview shows (and nothing public does).
  const pending = findPending(s.sql, row.seq);
  const c = s.collections().find((x) => x.id === collectionId);
  const shown: PublicRow =
    pending && c
      ? {
          ...row,
          slug: pending.slug,
          data: pending.data,
          updated_at: pending.updated_at,
          public_data: publicDataJson(s.sql, c, JSON.parse(pending.data) as Record<string, unknown>),
        }
      : row;
  return presentItems(s.sql, [shown], s.collections(), s.publicStaleAfter())[0] ?? null;
}
