import type { Collection } from "../storage/rows";
import type { PublicItem } from "../../../src/contract/responses";
import type { ItemData } from "./item-data";
import { readMedia, toMediaRef } from "./media";
import { readImageResizingHosts } from "../storage/site-row";
import { dataOfCollection, dataOfSeq, publishedRowsByIds, type PublicRow } from "../storage/items-table";
import { hasMediaFields, isMediaField } from "./media-fields";

export type { PublicRow } from "../storage/items-table";

/**
 * An item's public `data` as JSON, kept in `items.public_data` whenever the item
 * is written: the collection's fields in order, media expanded to MediaRefs,
 * references still as stored ids (they are resolved when read, because the
 * target can be unpublished without this item changing). A read then assembles
 * this text instead of decoding and re-encoding the stored data.
 */
export function publicDataJson(sql: SqlStorage, collection: Collection, data: ItemData, dataJson?: string): string {
  if (dataJson !== undefined && isPublicAsStored(collection, data)) return dataJson;
  const mediaIds: string[] = [];
  for (const f of collection.fields) {
    const v = data[f.key];
    if ((f.type === "image" || f.type === "video") && typeof v === "string") mediaIds.push(v);
    if (f.type === "gallery" && Array.isArray(v)) for (const id of v) if (typeof id === "string") mediaIds.push(id);
  }
  const media = mediaIds.length ? readMedia(sql, mediaIds) : null;
  const hosts = media ? readImageResizingHosts(sql) : new Set<string>();
  const out: Record<string, unknown> = {};
  for (const f of collection.fields) {
    const v = data[f.key];
    if (v === undefined) continue;
    if (f.type === "image" || f.type === "video") {
      const m = typeof v === "string" ? media?.get(v) : undefined;
      out[f.key] = m ? toMediaRef(m, hosts) : null;
    } else if (f.type === "gallery") {
      // An entry whose media is gone is left out: a gallery never shows a hole.
      const ids = Array.isArray(v) ? v.filter((id): id is string => typeof id === "string") : [];
      out[f.key] = ids.flatMap((id) => {
        const m = media?.get(id);
        return m ? [toMediaRef(m, hosts)] : [];
      });
    } else out[f.key] = v;
  }
  return JSON.stringify(out);
}

/**
 * Whether an item's public data is its stored data as it is: no media field (image, video, gallery) to expand, and the
 * data's keys exactly the fields it has values for, in the fields' order (the order the public
 * object is built in). Then `JSON.stringify(data)` is the public JSON, byte for byte.
 */
function isPublicAsStored(collection: Collection, data: ItemData): boolean {
  const keys = Object.keys(data);
  let i = 0;
  for (const f of collection.fields) {
    if (data[f.key] === undefined) continue;
    if (isMediaField(f) || keys[i] !== f.key) return false;
    i++;
  }
  return i === keys.length;
}

/**
 * Stores an item's public JSON; called in the same transaction as every write of its data.
 * `dataJson`: `JSON.stringify(data)`, when the caller made it for the row (`items.data`): most
 * items' public JSON is that same text (isPublicAsStored), and it is then kept as '' ("the row's
 * data", PUBLIC_DATA_COLUMN) instead of a second copy. A save of such an item writes nothing here
 * once the marker is in place: the upsert changes a row only when its value differs.
 */
export function keepPublicData(sql: SqlStorage, collection: Collection, seq: number, data: ItemData, dataJson?: string): void {
  const json = publicDataJson(sql, collection, data, dataJson);
  sql.exec(
    `INSERT INTO item_public (seq, public_json) VALUES (?1, ?2)
       ON CONFLICT (seq) DO UPDATE SET public_json = excluded.public_json WHERE public_json IS NOT excluded.public_json`,
    seq,
    json === dataJson ? AS_STORED : json,
  );
}

/** The kept public JSON of an item whose public data is its stored data (never JSON itself). */
const AS_STORED = "";

/**
 * The row's public data as JSON: as stored, or computed from its data for a row that has none yet
 * or whose kept copy a rebuild has not reached (`staleAfter`, reads/public-rebuild.ts: the image
 * resizing hosts changed, and items with media after that `seq` still hold the old srcset).
 */
function publicDataOf(sql: SqlStorage, c: Collection, row: PublicRow, staleAfter: number | null): string {
  if (row.public_data && (staleAfter === null || row.seq <= staleAfter || !hasMediaFields(c))) return row.public_data;
  const data = row.data ?? dataOfSeq(sql, row.seq);
  return publicDataJson(sql, c, JSON.parse(data) as ItemData);
}

/**
 * Recomputes the public JSON of the items of `collection`: all of them after a schema change,
 * or (`onlyMissing`) those without one: items written before it was kept, or whose data was
 * rewritten in place by the start-up clean-ups. Returns how many it wrote.
 */
export function refreshPublicData(sql: SqlStorage, collection: Collection, onlyMissing: boolean): number {
  const rows = dataOfCollection(sql, collection.id, onlyMissing);
  for (const r of rows) keepPublicData(sql, collection, r.seq, JSON.parse(r.data) as ItemData);
  return rows.length;
}

/** Whether items of `c` show other items (their answers then depend on those items too). */
export const hasReferences = (c: Collection) => c.fields.some((f) => f.type === "reference" || f.type === "references");

/**
 * Published rows as the content API's items, as JSON text each. An item of a collection
 * without reference fields is its stored public data in an envelope, with no decoding at
 * all; one with references has them resolved (`presentItems`).
 */
export function publicItemsJson(
  sql: SqlStorage,
  rows: readonly PublicRow[],
  collections: readonly Collection[],
  staleAfter: number | null,
): string[] {
  const byId = new Map(collections.map((c) => [c.id, c]));
  const refCollections = new Set(collections.filter(hasReferences).map((c) => c.id));
  const withRefs = rows.filter((r) => refCollections.has(r.collection_id));
  const resolved = withRefs.length ? presentItems(sql, withRefs, collections, staleAfter) : [];
  const resolvedById = new Map(resolved.map((item) => [item.id, item]));
  return rows.map((row) => {
    const item = resolvedById.get(row.id);
    if (item) return JSON.stringify(item);
    const c = byId.get(row.collection_id) as Collection;
    const data = publicDataOf(sql, c, row, staleAfter);
    // The same keys, in the same order, as JSON.stringify of a PublicItem.
    return `{"id":${JSON.stringify(row.id)},"slug":${JSON.stringify(row.slug)},"collection":${JSON.stringify(c.slug)},"publishedAt":${JSON.stringify(row.published_at)},"updatedAt":${JSON.stringify(row.updated_at)},"data":${data}}`;
  });
}

/**
 * Presents published rows as objects (pages, feeds, search). Media come expanded in
 * each row's public data; references for the whole set are read in one batched query,
 * never one per item.
 */
export function presentItems(
  sql: SqlStorage,
  rows: readonly PublicRow[],
  collections: readonly Collection[],
  staleAfter: number | null,
): PublicItem[] {
  const byId = new Map(collections.map((c) => [c.id, c]));
  const shallow = (row: PublicRow): PublicItem => {
    const c = byId.get(row.collection_id) as Collection;
    const data = JSON.parse(publicDataOf(sql, c, row, staleAfter)) as Record<string, unknown>;
    return { id: row.id, slug: row.slug, collection: c.slug, publishedAt: row.published_at as string, updatedAt: row.updated_at, data };
  };
  const items = rows.map(shallow);

  const refIds = new Set<string>();
  rows.forEach((row, i) => {
    for (const f of byId.get(row.collection_id)?.fields ?? []) {
      const v = items[i]!.data[f.key];
      if (f.type === "reference" && typeof v === "string") refIds.add(v);
      if (f.type === "references" && Array.isArray(v)) for (const id of v) refIds.add(id as string);
    }
  });
  if (!refIds.size) return items;
  const refs = new Map([...readPublishedByIds(sql, refIds).values()].map((r) => [r.id, shallow(r)]));
  rows.forEach((row, i) => {
    const data = items[i]!.data;
    for (const f of byId.get(row.collection_id)?.fields ?? []) {
      const v = data[f.key];
      if (f.type === "reference") {
        if (v !== undefined) data[f.key] = refs.get(v as string) ?? null;
      } else if (f.type === "references" && Array.isArray(v)) {
        data[f.key] = v.map((id) => refs.get(id as string)).filter((x) => x !== undefined);
      }
    }
  });
  return items;
}

function readPublishedByIds(sql: SqlStorage, ids: Set<string>): Map<string, PublicRow> {
  const rows = publishedRowsByIds(sql, ids);
  return new Map(rows.map((r) => [r.id, r]));
}
