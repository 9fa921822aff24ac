import type { Collection } from "./collections";
import type { ItemData } from "./item-data";
import type { ItemRow } from "./items";
import { type MediaRef, readMedia, toMediaRef } from "./media";
import { selectIn } from "./sql-in";

/** The content API's item: published items only, media expanded, references resolved one level. */
export interface PublicItem {
  id: string;
  slug: string;
  collection: string;
  publishedAt: string;
  updatedAt: string;
  data: Record<string, unknown>;
}

/**
 * Presents a page of published rows. Media and references for the whole page
 * are read in two batched queries, never one per item.
 */
export function presentItems(sql: SqlStorage, rows: readonly ItemRow[], collections: readonly Collection[]): PublicItem[] {
  const byId = new Map(collections.map((c) => [c.id, c]));
  const parsed = rows.map((r) => ({ row: r, data: JSON.parse(r.data) as ItemData }));

  const refIds = new Set<string>();
  for (const { row, data } of parsed) {
    for (const f of byId.get(row.collection_id)?.fields ?? []) {
      const v = data[f.key];
      if (f.type === "reference" && typeof v === "string") refIds.add(v);
      if (f.type === "references" && Array.isArray(v)) for (const id of v) refIds.add(id as string);
    }
  }
  const refRows = readPublishedByIds(sql, refIds);
  const refParsed = [...refRows.values()].map((r) => ({ row: r, data: JSON.parse(r.data) as ItemData }));

  const mediaIds = new Set<string>();
  for (const { row, data } of [...parsed, ...refParsed]) {
    for (const f of byId.get(row.collection_id)?.fields ?? []) {
      const v = data[f.key];
      if ((f.type === "image" || f.type === "video") && typeof v === "string") mediaIds.add(v);
    }
  }
  const media = readMedia(sql, mediaIds);
  const mediaRef = (id: unknown): MediaRef | null => {
    const m = typeof id === "string" ? media.get(id) : undefined;
    return m ? toMediaRef(m) : null;
  };

  const shallow = (row: ItemRow, data: ItemData): PublicItem => {
    const collection = byId.get(row.collection_id) as Collection;
    const out: Record<string, unknown> = {};
    for (const f of collection.fields) {
      const v = data[f.key];
      if (v === undefined) continue;
      out[f.key] = f.type === "image" || f.type === "video" ? mediaRef(v) : v;
    }
    return {
      id: row.id,
      slug: row.slug,
      collection: collection.slug,
      publishedAt: row.published_at as string,
      updatedAt: row.updated_at,
      data: out,
    };
  };

  const resolvedRefs = new Map(refParsed.map(({ row, data }) => [row.id, shallow(row, data)]));
  return parsed.map(({ row, data }) => {
    const item = shallow(row, data);
    const collection = byId.get(row.collection_id) as Collection;
    for (const f of collection.fields) {
      const v = data[f.key];
      if (f.type === "reference") {
        if (v !== undefined) item.data[f.key] = resolvedRefs.get(v as string) ?? null;
      } else if (f.type === "references" && Array.isArray(v)) {
        item.data[f.key] = v.map((id) => resolvedRefs.get(id as string)).filter((x) => x !== undefined);
      }
    }
    return item;
  });
}

function readPublishedByIds(sql: SqlStorage, ids: Set<string>): Map<string, ItemRow> {
  const rows = selectIn<ItemRow>(sql, ids, (list) => `SELECT * FROM items WHERE status = 'published' AND id IN (${list})`);
  return new Map(rows.map((r) => [r.id, r]));
}
