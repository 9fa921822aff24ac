/**
 * Pending changes of a published item: saved beside the live version, published
 * explicitly (or by the schedule), discarded without a trace on the public side. The
 * documented PATCH stays what it was: an edit of a published item is live at once.
 */
import type { z } from "zod";
import { ApiError } from "../../../src/contract/errors";
import type { itemPatchSchema } from "../../../src/contract/items";
import type { Collection, ItemRow } from "../storage/rows";
import { type ItemData, validateItemData } from "../content/item-data";
import { lookupsFor, sameContent } from "../content/items";
import { insertMedia } from "../content/media";
import { searchTextOf } from "../content/search-text";
import { keepPublicData } from "../content/public-items";
import { takenSlugs, updateItemContent } from "../storage/items-table";
import type { Change } from "../storage/revisions-table";
import { dropPending, findPending, pendingSlugTaken, type PendingRow, savePending } from "../storage/pending-table";

/** A slug `item` may take: free among the collection's items and other items' pending changes. */
export function checkPendingSlug(sql: SqlStorage, c: Collection, item: ItemRow, slug: string): void {
  if ((slug !== item.slug && takenSlugs(sql, c.id, [slug]).length) || pendingSlugTaken(sql, c.id, slug, item.seq)) {
    throw new ApiError("conflict", `Slug "${slug}" is already used in collection "${c.slug}".`, { slugs: [slug] });
  }
}

/**
 * Saves a PATCH-shaped change of a published item as its pending version (merged into the pending
 * one). Null when it would change nothing: the same as the pending version, or (with none) as the
 * live one, which then stays without pending changes.
 */
export function savePendingChanges(
  storage: DurableObjectStorage,
  all: readonly Collection[],
  c: Collection,
  row: ItemRow,
  patch: z.infer<typeof itemPatchSchema>,
  change: Change,
): PendingRow | null {
  if (row.status !== "published") {
    throw new ApiError("conflict", "A draft has no public version to keep: save it directly (PATCH).", { status: row.status });
  }
  const sql = storage.sql;
  const pending = findPending(sql, row.seq);
  const base = JSON.parse(pending?.data ?? row.data) as ItemData;
  const { data, newMedia } =
    patch.data === undefined ? { data: base, newMedia: [] } : validateItemData(c.fields, patch.data, base, lookupsFor(sql, all));
  const slug = patch.slug ?? pending?.slug ?? row.slug;
  checkPendingSlug(sql, c, row, slug);
  const json = JSON.stringify(data);
  if (newMedia.length === 0 && sameContent(slug, json, data, pending ?? row)) return null;
  return storage.transactionSync(() => {
    for (const m of newMedia) insertMedia(sql, m);
    return savePending(sql, row, slug, json, searchTextOf(c.fields, data), new Date().toISOString(), change);
  });
}

/** Discards the item's pending version; 404 when it has none. Call inside the change's transaction. */
export function discardPendingChanges(sql: SqlStorage, row: ItemRow, change: Change): void {
  if (!dropPending(sql, row, change)) throw new ApiError("not_found", "This item has no pending changes.");
}

/**
 * Makes the item's pending version live (its revision says so), before a publish. Call inside
 * the publish's transaction; returns the row as it is after.
 */
export function applyPending(sql: SqlStorage, c: Collection, row: ItemRow, change: Change): ItemRow {
  const p = findPending(sql, row.seq);
  if (!p) return row;
  checkPendingSlug(sql, c, row, p.slug);
  const data = JSON.parse(p.data) as ItemData;
  dropPending(sql, row, null);
  keepPublicData(sql, c, row.seq, data);
  return updateItemContent(sql, row.seq, p.slug, p.data, searchTextOf(c.fields, data), new Date().toISOString(), {
    ...change,
    kind: "publish",
    note: "pending changes published",
  }).row;
}
