/**
 * Restore (a version becomes the item's current values, as a new revision) and undo delete (an
 * item in the trash comes back with its id, status and publish date). Both write through the
 * items repository, so each leaves its own revision; neither edits or deletes an old one.
 */
import { ApiError, clip } from "../../../src/contract/errors";
import { TRASH_DAYS } from "../../../src/contract/history-limits";
import type { Collection, ItemRow } from "../storage/rows";
import type { ItemData } from "../content/item-data";
import { lookupsFor } from "../content/items";
import { searchTextOf } from "../content/search-text";
import { keepPublicData } from "../content/public-items";
import { insertItem, rowsByIds, setItemAuthor, takenSlugs, updateItemContent } from "../storage/items-table";
import { type Change, latestRevision, type RevisionRow } from "../storage/revisions-table";
import { type Dropped, lenientData } from "./lenient-data";
import { checkPendingSlug } from "./pending";
import { dropPending, savePending } from "../storage/pending-table";

const slugTaken = (c: Collection, slug: string): ApiError =>
  new ApiError("conflict", `Slug "${slug}" is now used by another item in collection "${c.slug}"; change that item's slug first.`, {
    slug,
  });

/** Whether two items' values are the same, whatever order their keys were written in. */
const sameValues = (a: ItemData, b: ItemData): boolean => {
  const keys = Object.keys(a).sort();
  return keys.length === Object.keys(b).length && keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
};

/**
 * Makes revision `rev` the item's current version: a draft's values, or a published item's
 * pending changes. Its status does not change: publishing stays a separate step.
 */
export function restoreRevision(
  storage: DurableObjectStorage,
  all: readonly Collection[],
  c: Collection,
  row: ItemRow,
  rev: RevisionRow,
  change: Change,
): { row: ItemRow; dropped: Dropped[] } {
  const sql = storage.sql;
  const { data, dropped } = lenientData(c.fields, JSON.parse(rev.data) as ItemData, JSON.parse(row.data) as ItemData, lookupsFor(sql, all));
  if (row.status === "published") {
    const restore = { ...change, kind: "restore" as const, note: `from version ${rev.number}` };
    // The live version itself: nothing is pending any more (pending changes identical to the live
    // version would say "unpublished changes" about nothing). Recorded only if some were dropped.
    if (rev.slug === row.slug && sameValues(data, JSON.parse(row.data) as ItemData)) {
      storage.transactionSync(() => dropPending(sql, row, restore));
      return { row, dropped };
    }
    // A published item keeps its public version: the restored one becomes its pending changes.
    checkPendingSlug(sql, c, row, rev.slug);
    storage.transactionSync(() =>
      savePending(sql, row, rev.slug, JSON.stringify(data), searchTextOf(c.fields, data), new Date().toISOString(), restore),
    );
    return { row, dropped };
  }
  if (rev.slug !== row.slug && takenSlugs(sql, c.id, [rev.slug]).length) throw slugTaken(c, rev.slug);
  const restored = storage.transactionSync(() => {
    keepPublicData(sql, c, row.seq, data);
    return updateItemContent(sql, row.seq, rev.slug, JSON.stringify(data), searchTextOf(c.fields, data), new Date().toISOString(), {
      ...change,
      kind: "restore",
      note: `from version ${rev.number}`,
    }).row;
  });
  return { row: restored, dropped };
}

/** The delete revision of an item in the trash (deleted, not restored, within TRASH_DAYS), or a 404. */
export function trashed(sql: SqlStorage, itemId: string, now = Date.now()): RevisionRow {
  const rev = latestRevision(sql, itemId);
  const gone = rev?.kind === "delete" && rev.at >= now - TRASH_DAYS * 86_400_000;
  if (!rev || !gone || rowsByIds(sql, [itemId]).length) {
    throw new ApiError("not_found", `No deleted item "${clip(itemId)}" in the trash (items stay there ${TRASH_DAYS} days).`);
  }
  return rev;
}

/** Brings a deleted item back as it was when deleted: same id, slug, status, creation and publish dates and author. */
export function undeleteItem(
  storage: DurableObjectStorage,
  all: readonly Collection[],
  rev: RevisionRow,
  change: Change,
): { row: ItemRow; collection: Collection; dropped: Dropped[] } {
  const sql = storage.sql;
  const c = all.find((x) => x.id === rev.collection_id);
  if (!c) throw new ApiError("conflict", "The item's collection was deleted; create it again first.", { collection: null });
  const { data, dropped } = lenientData(c.fields, JSON.parse(rev.data) as ItemData, null, lookupsFor(sql, all));
  if (takenSlugs(sql, c.id, [rev.slug]).length) throw slugTaken(c, rev.slug);
  const now = new Date().toISOString();
  const row = storage.transactionSync(() => {
    const inserted = insertItem(
      sql,
      {
        id: rev.item_id,
        collectionId: c.id,
        slug: rev.slug,
        status: rev.status,
        data: JSON.stringify(data),
        searchText: searchTextOf(c.fields, data),
        publishedAt: rev.published_at,
        now,
        createdBy: rev.created_by,
        // Its place in "newest first" is where it was (a revision written before migration 23 has none: now).
        ...(rev.created_at ? { createdAt: rev.created_at } : {}),
      },
      { ...change, kind: "undelete", note: `deleted ${new Date(rev.at).toISOString()}` },
    );
    keepPublicData(sql, c, inserted.seq, data);
    return setItemAuthor(sql, inserted.seq, change.actor.id, false);
  });
  return { row, collection: c, dropped };
}
