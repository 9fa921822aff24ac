import type { Collection } from "../storage/rows";
import type { PublicItem } from "../../../src/contract/responses";
import type { ItemData } from "./item-data";
import type { Field } from "../../../src/contract/fields";
import { readMedia, toMediaRef } from "./media";
import { readImageResizingHosts } from "../storage/site-row";
import { dataOfCollection, dataOfSeq, publishedRowsByIds, type PublicRow } from "../storage/items-table";
import { hasMediaFields, isMediaField } from "./media-fields";

export type { PublicRow } from "../storage/items-table";

/**
 * An item's public `data` as JSON: the collection's fields in order, media expanded to MediaRefs,
 * references still as stored ids (they are resolved when read, because the target can be
 * unpublished without this item changing). `dataJson`: the data as its row stores it, returned
 * as it is when it is already the public JSON (isPublicAsStored).
 */
export function publicDataJson(sql: SqlStorage, collection: Collection, data: ItemData, dataJson?: string): string {
  if (dataJson !== undefined && isPublicAsStored(collection, data)) return dataJson;
  return JSON.stringify(publicValues(sql, collection, data, collection.fields));
}

/** The public values of `fields` (of `collection`) that `data` holds, in their order. */
function publicValues(sql: SqlStorage, collection: Collection, data: ItemData, fields: readonly Field[]): Record<string, unknown> {
  const mediaIds: string[] = [];
  for (const f of fields) {
    const v = data[f.key];
    if ((f.type === "image" || f.type === "video") && typeof v === "string") mediaIds.push(v);
    if (f.type === "gallery" && Array.isArray(v)) for (const id of v) if (typeof id === "string") mediaIds.push(id);
  }
  const media = mediaIds.length ? readMedia(sql, mediaIds) : null;
  const hosts = media ? readImageResizingHosts(sql) : new Set<string>();
  const out: Record<string, unknown> = {};
  for (const f of fields) {
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
  return out;
}

/** Whether the data's keys are exactly the fields it has values for, in the fields' order (the order the public object is built in). */
function inFieldOrder(collection: Collection, data: ItemData): boolean {
  const keys = Object.keys(data);
  let i = 0;
  for (const f of collection.fields) {
    if (data[f.key] === undefined) continue;
    if (keys[i] !== f.key) return false;
    i++;
  }
  return i === keys.length;
}

/**
 * Whether an item's public data is its stored data as it is: no media field (image, video,
 * gallery) to expand, and the data in field order. Then `JSON.stringify(data)` is the public
 * JSON, byte for byte.
 */
function isPublicAsStored(collection: Collection, data: ItemData): boolean {
  return inFieldOrder(collection, data) && !collection.fields.some((f) => isMediaField(f) && data[f.key] !== undefined);
}

/** The kept public JSON of an item whose public data is its stored data, alone or with its media laid over (never JSON itself). */
const AS_STORED = "";

/**
 * How an item's public JSON is kept (table `item_public`, read by PUBLIC_DATA_COLUMN), so that its
 * values are stored once, in `items.data`, whenever they can be:
 * - no media: '' ("the row's data");
 * - media, all of it found: '' and `media`, the MediaRefs that SQLite's `json_patch` lays over
 *   the row's data when read (each replaces the stored id in place; MediaRefs hold no null, which
 *   a merge patch would read as "remove");
 * - otherwise (data out of field order, an image whose media is gone): the public JSON itself.
 */
function keptForm(sql: SqlStorage, collection: Collection, data: ItemData): { json: string; media: string | null } {
  if (!inFieldOrder(collection, data)) return { json: JSON.stringify(publicValues(sql, collection, data, collection.fields)), media: null };
  const mediaFields = collection.fields.filter((f) => isMediaField(f) && data[f.key] !== undefined);
  if (mediaFields.length === 0) return { json: AS_STORED, media: null };
  const media = publicValues(sql, collection, data, mediaFields);
  if (Object.values(media).some((v) => v === null))
    return { json: JSON.stringify(publicValues(sql, collection, data, collection.fields)), media: null };
  return { json: AS_STORED, media: JSON.stringify(media) };
}

/**
 * Stores an item's public JSON; called in the same transaction as every write of its data, with
 * `data` as `items.data` holds it once that transaction commits. A save that changes nothing
 * public writes nothing here: the upsert changes a row only when its value differs.
 */
export function keepPublicData(sql: SqlStorage, collection: Collection, seq: number, data: ItemData): void {
  const { json, media } = keptForm(sql, collection, data);
  sql.exec(
    `INSERT INTO item_public (seq, public_json, media) VALUES (?1, ?2, ?3)
       ON CONFLICT (seq) DO UPDATE SET public_json = excluded.public_json, media = excluded.media
       WHERE public_json IS NOT excluded.public_json OR media IS NOT excluded.media`,
    seq,
    json,
    media,
  );
}

/** Whether any item's public JSON is kept as a copy of its own (PublicRebuild.rewriteFullCopiesOnce). */
export const hasFullPublicCopies = (sql: SqlStorage): boolean =>
  sql.exec("SELECT 1 FROM item_public WHERE public_json <> '' LIMIT 1").toArray().length > 0;

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
