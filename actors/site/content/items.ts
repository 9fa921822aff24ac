import type { z } from "zod";
import { ApiError, clip } from "../../../src/contract/errors";
import { newItemId } from "../../../src/ids";
import type { Collection } from "../storage/rows";
import { itemInputSchema, itemPatchSchema } from "../../../src/contract/items";
import { type DataLookups, type ItemData, validateItemData } from "./item-data";
import { insertMedia, mediaExists, type MediaRow } from "./media";
import { keepPublicData } from "../reads/public-items";
import { selectIn } from "../storage/sql-in";
import { searchTextOf } from "./search-text";
import { type ItemRow } from "../storage/rows";
import { FIELD_KEY } from "../../../src/contract/fields";

/** The dashboard's view of an item: stored values (media and reference ids), drafts included. */
export interface DashboardItem {
  id: string;
  slug: string;
  collection: string;
  status: "draft" | "published";
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  data: ItemData;
}

export function toDashboardItem(row: ItemRow, collection: Collection): DashboardItem {
  return {
    id: row.id,
    slug: row.slug,
    collection: collection.slug,
    status: row.status,
    publishedAt: row.published_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    data: JSON.parse(row.data) as ItemData,
  };
}

export function lookupsFor(sql: SqlStorage, collections: readonly Collection[]): DataLookups {
  return {
    mediaExists: (id) => mediaExists(sql, id),
    resolveReference: (slug, ref) => {
      const target = collections.find((c) => c.slug === slug);
      if (!target) return null;
      const row = sql
        .exec<{ id: string }>("SELECT id FROM items WHERE collection_id = ? AND (id = ? OR slug = ?) LIMIT 1", target.id, ref, ref)
        .toArray()[0];
      return row?.id ?? null;
    },
  };
}

export function readItem(sql: SqlStorage, collection: Collection, id: string): ItemRow {
  const row = sql.exec<ItemRow>("SELECT * FROM items WHERE collection_id = ? AND id = ?", collection.id, id).toArray()[0];
  if (!row) throw new ApiError("not_found", `No item "${clip(id)}" in collection "${collection.slug}".`);
  return row;
}

interface PreparedItem {
  id: string;
  slug: string;
  data: ItemData;
  media: MediaRow[];
  publish: boolean;
}

/** Validates every item first; only then writes them all in one transaction, so a batch is all or nothing. */
export function createItems(
  storage: DurableObjectStorage,
  collection: Collection,
  lookups: DataLookups,
  inputs: readonly unknown[],
  pathPrefix: (i: number) => string,
): ItemRow[] {
  const sql = storage.sql;
  const prepared: PreparedItem[] = [];
  const seen = new Map<string, number>();
  inputs.forEach((raw, i) => {
    const parsed = itemInputSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((x) => ({
        path: [pathPrefix(i), ...x.path.map(String)].filter(Boolean).join(".") || "(body)",
        message: x.message,
      }));
      throw new ApiError("bad_request", `Invalid item: ${issues[0]?.path} ${issues[0]?.message}`, { issues });
    }
    const input = parsed.data;
    const prior = seen.get(input.slug);
    if (prior !== undefined) {
      throw new ApiError("conflict", `Slug "${input.slug}" appears twice in the batch (items ${prior} and ${i}).`, { slug: input.slug });
    }
    seen.set(input.slug, i);
    const { data, newMedia } = validateItemData(
      collection.fields,
      input.data ?? {},
      null,
      lookups,
      [pathPrefix(i), "data"].filter(Boolean).join("."),
    );
    prepared.push({ id: newItemId(), slug: input.slug, data, media: newMedia, publish: input.publish === true });
  });
  const taken = takenSlugs(sql, collection, [...seen.keys()]);
  if (taken.length) {
    throw new ApiError("conflict", `Slug "${taken[0]}" is already used in collection "${collection.slug}".`, { slugs: taken });
  }
  const now = new Date().toISOString();
  return storage.transactionSync(() =>
    prepared.map((p) => {
      for (const m of p.media) insertMedia(sql, m);
      const row = sql
        .exec<ItemRow>(
          `INSERT INTO items (id, collection_id, slug, status, data, search_text, published_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          p.id,
          collection.id,
          p.slug,
          p.publish ? "published" : "draft",
          JSON.stringify(p.data),
          searchTextOf(collection.fields, p.data),
          p.publish ? now : null,
          now,
          now,
        )
        .one();
      keepPublicData(sql, collection, row.seq, p.data);
      return row;
    }),
  );
}

export function patchItem(
  storage: DurableObjectStorage,
  collection: Collection,
  lookups: DataLookups,
  row: ItemRow,
  patch: z.infer<typeof itemPatchSchema>,
): ItemRow {
  const sql = storage.sql;
  let data = JSON.parse(row.data) as ItemData;
  let media: MediaRow[] = [];
  if (patch.data !== undefined) ({ data, newMedia: media } = validateItemData(collection.fields, patch.data, data, lookups));
  const slug = patch.slug ?? row.slug;
  if (slug !== row.slug && takenSlugs(sql, collection, [slug]).length) {
    throw new ApiError("conflict", `Slug "${slug}" is already used in collection "${collection.slug}".`, { slugs: [slug] });
  }
  return storage.transactionSync(() => {
    for (const m of media) insertMedia(sql, m);
    keepPublicData(sql, collection, row.seq, data);
    return sql
      .exec<ItemRow>(
        "UPDATE items SET slug = ?, data = ?, search_text = ?, updated_at = ? WHERE seq = ? RETURNING *",
        slug,
        JSON.stringify(data),
        searchTextOf(collection.fields, data),
        new Date().toISOString(),
        row.seq,
      )
      .one();
  });
}

/** Publishing keeps the first publish time, so unpublish and publish again does not move an item in date order. */
export function setStatus(sql: SqlStorage, row: ItemRow, status: "draft" | "published"): ItemRow {
  const now = new Date().toISOString();
  return sql
    .exec<ItemRow>(
      "UPDATE items SET status = ?, published_at = COALESCE(published_at, ?), updated_at = ? WHERE seq = ? RETURNING *",
      status,
      status === "published" ? now : null,
      now,
      row.seq,
    )
    .one();
}

export function deleteItem(sql: SqlStorage, row: ItemRow): void {
  sql.exec("DELETE FROM items WHERE seq = ?", row.seq);
}

/** The dashboard list's statements, newest first; migration 7 indexes exactly this order. */
export function dashboardListSql(status: "draft" | "published" | null): { count: string; page: string } {
  const where = status ? "collection_id = ? AND status = ?" : "collection_id = ?";
  return {
    count: `SELECT count(*) AS n FROM items WHERE ${where}`,
    page: `SELECT * FROM items WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`,
  };
}

function takenSlugs(sql: SqlStorage, collection: Collection, slugs: readonly string[]): string[] {
  return selectIn<{ slug: string }>(sql, slugs, (list) => `SELECT slug FROM items WHERE collection_id = ? AND slug IN (${list})`, [
    collection.id,
  ]).map((r) => r.slug);
}

// Writes that follow a collection's change rather than an item's. They live here so that every
// write to the items table is in this file.

/** Drops a removed field's value from every item of the collection. */
export function removeFieldValues(sql: SqlStorage, collectionId: string, key: string): void {
  if (!FIELD_KEY.test(key)) throw new Error(`unsafe field key ${key}`);
  sql.exec(`UPDATE items SET data = json_remove(data, '$.${key}') WHERE collection_id = ?`, collectionId);
}

/** Every item of a collection that is being deleted. */
export function deleteCollectionItems(sql: SqlStorage, collectionId: string): void {
  sql.exec("DELETE FROM items WHERE collection_id = ?", collectionId);
}

/** An item's search text after the collection's searchable fields changed. */
export function setSearchText(sql: SqlStorage, seq: number, text: string): void {
  sql.exec("UPDATE items SET search_text = ? WHERE seq = ?", text, seq);
}

/** One field's value of one item, rewritten in place (stored rich text cleaned once). */
export function setFieldValue(sql: SqlStorage, id: string, key: string, value: string): void {
  if (!FIELD_KEY.test(key)) throw new Error(`unsafe field key ${key}`);
  sql.exec(`UPDATE items SET data = json_set(data, '$.${key}', ?) WHERE id = ?`, value, id);
}

/**
 * Who created (`created`) or last changed the rows: the account or key id of the caller, null for
 * the operator and admin keys. Called in the transaction of the change; returns the rows as stored.
 */
export function stampAuthor(sql: SqlStorage, rows: readonly ItemRow[], actorId: string | null, created: boolean): ItemRow[] {
  return rows.map((r) =>
    sql
      .exec<ItemRow>(
        created
          ? "UPDATE items SET created_by = ?1, updated_by = ?1 WHERE seq = ?2 RETURNING *"
          : "UPDATE items SET updated_by = ?1 WHERE seq = ?2 RETURNING *",
        actorId,
        r.seq,
      )
      .one(),
  );
}
