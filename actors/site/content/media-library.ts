import { ApiError } from "../../../src/contract/errors";
import type { Collection } from "../storage/rows";
import { fieldExpr } from "../storage/field-sql";
import { type MediaRef, type MediaRow, toMediaRef } from "./media";
import { ENTRY_COLUMNS, type EntryFacts, type EntryRow, toEntry } from "./media-entry";
import type { ItemData } from "./item-data";
import { keepPublicData } from "./public-items";
import { readImageResizingHosts } from "../storage/site-row";
import { dataByIds, itemsHoldingMedia, itemsHoldingMediaInList } from "../storage/items-table";

export interface MediaUse {
  collection: string;
  itemId: string;
  slug: string;
  field: string;
}

export interface MediaEntry extends Omit<MediaRef, "focal">, EntryFacts {
  usedBy: MediaUse[];
}

const MAX_USES_SHOWN = 20;

/** The media library page: newest first, each entry with the items that show it. */
export function listMedia(
  sql: SqlStorage,
  collections: readonly Collection[],
  page: number,
  limit: number,
  ids: readonly string[] | null = null,
): { media: MediaEntry[]; total: number } {
  // `ids`: just these entries (a table's thumbnails), as one bound JSON array.
  const only = ids ? " WHERE id IN (SELECT value FROM json_each(?))" : "";
  const filter = ids ? [JSON.stringify(ids)] : [];
  const total = sql.exec<{ n: number }>(`SELECT count(*) AS n FROM media${only}`, ...filter).one().n;
  const rows = sql
    .exec<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM media${only} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
      ...filter,
      limit,
      (page - 1) * limit,
    )
    .toArray();
  const uses = usesOf(
    sql,
    collections,
    rows.map((r) => r.id),
  );
  const hosts = readImageResizingHosts(sql);
  return {
    media: rows.map((r) => ({ ...toEntry(r, hosts), usedBy: (uses.get(r.id) ?? []).slice(0, MAX_USES_SHOWN) })),
    total,
  };
}

/** One entry of the library, as a page of it shows it; null when there is none. */
export function mediaEntry(sql: SqlStorage, collections: readonly Collection[], id: string): MediaEntry | null {
  const row = sql.exec<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM media WHERE id = ?`, id).toArray()[0];
  if (!row) return null;
  const uses = usesOf(sql, collections, [id]);
  return { ...toEntry(row, readImageResizingHosts(sql)), usedBy: (uses.get(id) ?? []).slice(0, MAX_USES_SHOWN) };
}

/** Every item that shows `id`, for a delete's refusal and its detach. */
export function usesOfOne(sql: SqlStorage, collections: readonly Collection[], id: string): MediaUse[] {
  return usesOf(sql, collections, [id]).get(id) ?? [];
}

/** Items whose image, video or gallery fields hold one of `ids` (one query per media field of the site), by media id. */
export function usesOf(sql: SqlStorage, collections: readonly Collection[], ids: readonly string[]): Map<string, MediaUse[]> {
  const out = new Map<string, MediaUse[]>();
  if (ids.length === 0) return out;
  for (const c of collections) {
    for (const f of c.fields) {
      if (f.type !== "image" && f.type !== "video" && f.type !== "gallery") continue;
      const rows =
        f.type === "gallery" ? itemsHoldingMediaInList(sql, c.id, f.key, ids) : itemsHoldingMedia(sql, c.id, fieldExpr(f.key), ids);
      for (const r of rows) {
        const list = out.get(r.m) ?? [];
        list.push({ collection: c.slug, itemId: r.id, slug: r.slug, field: f.key });
        out.set(r.m, list);
      }
    }
  }
  return out;
}

/**
 * Changes a media entry's alt text or focal point; every item showing it shows the change (their
 * kept public JSON, which holds the expanded media, is written again). Call inside a transaction.
 */
export function updateMedia(
  sql: SqlStorage,
  collections: readonly Collection[],
  id: string,
  patch: { alt?: string; focal?: { x: number; y: number } | null },
): MediaRef {
  const row = sql
    .exec<Required<MediaRow> & Record<string, SqlStorageValue>>(
      `UPDATE media SET alt = coalesce(?, alt), focal_x = CASE WHEN ? THEN ? ELSE focal_x END, focal_y = CASE WHEN ? THEN ? ELSE focal_y END
       WHERE id = ? RETURNING id, url, alt, width, height, type, focal_x, focal_y`,
      patch.alt ?? null,
      patch.focal !== undefined ? 1 : 0,
      patch.focal?.x ?? null,
      patch.focal !== undefined ? 1 : 0,
      patch.focal?.y ?? null,
      id,
    )
    .toArray()[0];
  if (!row) throw new ApiError("not_found", "No such media entry.");
  rewritePublicUses(sql, collections, id);
  return toMediaRef(row, readImageResizingHosts(sql));
}

/** The kept public JSON of every item showing `id`, written again (its MediaRef changed). */
export function rewritePublicUses(sql: SqlStorage, collections: readonly Collection[], id: string): void {
  const byId = new Map(collections.map((c) => [c.id, c]));
  const itemIds = (usesOf(sql, collections, [id]).get(id) ?? []).map((u) => u.itemId);
  const rows = dataByIds(sql, itemIds);
  for (const r of rows) keepPublicData(sql, byId.get(r.collection_id)!, r.seq, JSON.parse(r.data) as ItemData);
}
