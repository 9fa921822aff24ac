import type { z } from "zod";
import { ApiError, clip } from "../../../src/contract/errors";
import { newItemId } from "../../../src/ids";
import type { Collection } from "../storage/rows";
import type { itemPatchSchema } from "../../../src/contract/items";
import type { DashboardItem as DashboardItemView } from "../../../src/contract/responses";
import { type DataLookups, type Issue, type ItemData, validateItemData } from "./item-data";
import { insertMedia, mediaExists, mediaType, type MediaRow } from "./media";
import { keepPublicData } from "./public-items";
import { searchTextOf } from "./search-text";
import { type ItemRow } from "../storage/rows";
import { type Change, currentRevision } from "../storage/revisions-table";
import type { PendingRow } from "../storage/pending-table";
import {
  deleteItemRow,
  findItem,
  findItemIdByRef,
  insertItem,
  setItemAuthor,
  takenSlugs,
  updateItemContent,
  updateItemStatus,
} from "../storage/items-table";

/**
 * The dashboard's view of an item (the contract's DashboardItem: stored values, drafts
 * included) as the content room builds it; the route that answers adds `searchIndex`.
 */
export type DashboardItem = Omit<DashboardItemView, "searchIndex">;

const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/**
 * `revision`: its newest revision's number (latestRevisions), its version for `If-Match`.
 * `pending`: the item's pending changes (a published item's next version), if any. `data`: the
 * row's values as an object, when the caller holds them (a save): `row.data` is not parsed again.
 */
export function toDashboardItem(
  row: ItemRow,
  collection: Collection,
  revision: number,
  pending?: PendingRow,
  data?: ItemData,
): DashboardItem {
  return {
    id: row.id,
    revision,
    slug: row.slug,
    collection: collection.slug,
    status: row.status,
    publishedAt: row.published_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by ?? null,
    data: data ?? (JSON.parse(row.data) as ItemData),
    schedule:
      row.publish_at == null && row.unpublish_at == null
        ? null
        : { publishAt: iso(row.publish_at), unpublishAt: iso(row.unpublish_at), timeZone: row.schedule_tz ?? null },
    pendingChanges: pending
      ? { slug: pending.slug, data: JSON.parse(pending.data) as ItemData, updatedAt: pending.updated_at, updatedBy: pending.updated_by }
      : null,
  };
}

export function lookupsFor(sql: SqlStorage, collections: readonly Collection[]): DataLookups {
  return {
    mediaExists: (id) => mediaExists(sql, id),
    mediaType: (id) => mediaType(sql, id),
    resolveReference: (slug, ref) => {
      const target = collections.find((c) => c.slug === slug);
      if (!target) return null;
      return findItemIdByRef(sql, target.id, ref);
    },
  };
}

export function readItem(sql: SqlStorage, collection: Collection, id: string): ItemRow {
  const row = findItem(sql, collection.id, id);
  if (!row) throw new ApiError("not_found", `No item "${clip(id)}" in collection "${collection.slug}".`);
  return row;
}

/**
 * The item a request is about to change, refused with 412 when the request names the version it
 * was made against (`If-Match: "r<revision>"`: the dashboard sends the `revision` it shows) and the
 * item has moved on since: another tab, another person, or its own schedule. Without the header a
 * write goes ahead as before. Call it after the body is read, where nothing awaits before the write.
 */
export function itemToChange(sql: SqlStorage, collection: Collection, id: string, request: Request): ItemRow {
  const row = readItem(sql, collection, id);
  const expected = request.headers.get("if-match");
  if (expected === null) return row;
  const revision = currentRevision(sql, row.id);
  const tags = expected.split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (!tags.includes("*") && !tags.includes(`"r${revision}"`)) {
    throw new ApiError(
      "precondition_failed",
      `This item changed since you opened it (it is at revision ${revision} now). Reload it to see the change, then make yours again.`,
      { revision },
    );
  }
  return row;
}

/** What validateItemData finds wrong with `raw.data` (none when there is no data object to check). */
function dataIssues(collection: Collection, lookups: DataLookups, raw: unknown, path: string): Issue[] {
  const data = typeof raw === "object" && raw !== null ? (raw as { data?: unknown }).data : undefined;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return [];
  try {
    validateItemData(collection.fields, data as ItemData, null, lookups, path);
    return [];
  } catch (err) {
    const issues = err instanceof ApiError ? (err.details as { issues?: Issue[] } | undefined)?.issues : undefined;
    if (issues) return issues;
    throw err;
  }
}

interface PreparedItem {
  id: string;
  slug: string;
  data: ItemData;
  media: MediaRow[];
  publish: boolean;
}

/**
 * Validates every item first; only then writes them all in one transaction, so a batch is all or nothing.
 * The schema (zod) is loaded here, on the first write: a public read never evaluates it (docs/caching.md).
 */
export async function createItems(
  storage: DurableObjectStorage,
  collection: Collection,
  lookups: DataLookups,
  inputs: readonly unknown[],
  pathPrefix: (i: number) => string,
  // Who is creating them (each item's `create` revision names them).
  change: Change,
  // Authorship and audit rows of what was created, written in the same transaction (site-access).
  inTransaction: (rows: ItemRow[]) => ItemRow[] = (rows) => rows,
): Promise<ItemRow[]> {
  const { itemInputSchema } = await import("../../../src/contract/items");
  const sql = storage.sql;
  const prepared: PreparedItem[] = [];
  const seen = new Map<string, number>();
  inputs.forEach((raw, i) => {
    const parsed = itemInputSchema.safeParse(raw);
    if (!parsed.success) {
      const issues: Issue[] = parsed.error.issues.map((x) => ({
        path: [pathPrefix(i), ...x.path.map(String)].filter(Boolean).join(".") || "(body)",
        message: x.message,
      }));
      // The values are checked too, so one answer names every problem: a new item with neither a
      // slug nor its required title hears of both at once, not of the title on the second try.
      issues.push(...dataIssues(collection, lookups, raw, [pathPrefix(i), "data"].filter(Boolean).join(".")));
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
  const taken = takenSlugs(sql, collection.id, [...seen.keys()]);
  if (taken.length) {
    throw new ApiError("conflict", `Slug "${taken[0]}" is already used in collection "${collection.slug}".`, { slugs: taken });
  }
  const now = new Date().toISOString();
  return storage.transactionSync(() =>
    inTransaction(
      prepared.map((p) => {
        for (const m of p.media) insertMedia(sql, m);
        const row = insertItem(
          sql,
          {
            id: p.id,
            collectionId: collection.id,
            slug: p.slug,
            status: p.publish ? "published" : "draft",
            data: JSON.stringify(p.data),
            searchText: searchTextOf(collection.fields, p.data),
            publishedAt: p.publish ? now : null,
            now,
            createdBy: change.actor.id,
          },
          change,
        );
        keepPublicData(sql, collection, row.seq, p.data);
        return row;
      }),
    ),
  );
}

/** A saved item: the row as stored, and its values before and after as objects (what `before.data` and `row.data` hold). */
export interface PatchedItem {
  row: ItemRow;
  values: { before: ItemData; after: ItemData };
  /** The item's version after the change (its new revision's number). */
  revision: number;
  /** The save wrote the slug and values the item already had: nothing was written (`sameContent`). */
  unchanged?: boolean;
}

/**
 * Whether a save would write the same slug and values again. Pressing Save twice is not two
 * changes: no revision, no new version, no event. The same values with their keys in another
 * order have the same length; only then are they compared value by value.
 */
export function sameContent(slug: string, json: string, data: ItemData, row: { slug: string; data: string }): boolean {
  if (slug !== row.slug || json.length !== row.data.length) return false;
  if (json === row.data) return true;
  const stored = JSON.parse(row.data) as ItemData;
  const keys = new Set([...Object.keys(stored), ...Object.keys(data)]);
  return [...keys].every((k) => JSON.stringify(stored[k]) === JSON.stringify(data[k]));
}

/**
 * Applies a PATCH to `row`, which must have been read in the same synchronous turn (no await
 * between the read and this call): it is the revision's "before" and the values merged into, and
 * is not read again. Stamps `updated_by` with the change's actor in the same statement. Call
 * inside the transaction that also writes the change's audit row (the route's transactionSync):
 * its writes are all or nothing with it, and a savepoint of its own would be one more per save.
 */
export function patchItem(
  sql: SqlStorage,
  collection: Collection,
  lookups: DataLookups,
  row: ItemRow,
  patch: z.infer<typeof itemPatchSchema>,
  change: Change,
): PatchedItem {
  // Parsed once: the base the patch merges into, and the revision's "before" (validateItemData copies it).
  const stored = JSON.parse(row.data) as ItemData;
  let data = stored;
  let media: MediaRow[] = [];
  if (patch.data !== undefined) ({ data, newMedia: media } = validateItemData(collection.fields, patch.data, stored, lookups));
  const slug = patch.slug ?? row.slug;
  if (slug !== row.slug && takenSlugs(sql, collection.id, [slug]).length) {
    throw new ApiError("conflict", `Slug "${slug}" is already used in collection "${collection.slug}".`, { slugs: [slug] });
  }
  const json = JSON.stringify(data);
  if (media.length === 0 && sameContent(slug, json, data, row)) {
    return { row, values: { before: stored, after: stored }, revision: currentRevision(sql, row.id), unchanged: true };
  }
  for (const m of media) insertMedia(sql, m);
  keepPublicData(sql, collection, row.seq, data);
  // `row` was read in this same synchronous turn (the route reads the body first), and who
  // changed it is stamped in the same statement: one UPDATE, nothing read twice.
  const values = { before: stored, after: data };
  const { row: updated, revision } = updateItemContent(
    sql,
    row.seq,
    slug,
    json,
    searchTextOf(collection.fields, data),
    new Date().toISOString(),
    change,
    { before: row, updatedBy: change.actor.id, parsed: values },
  );
  return { row: updated, values, revision };
}

/**
 * The public keys an edit changed between two versions of a row: its data's field keys whose
 * values differ, and `slug`, `updatedAt`, `publishedAt` when those did. A value compared as JSON
 * text: one written with its keys in another order counts as changed, which only carries less.
 * `values`: both rows' data as objects, when the caller holds them (a save): neither is parsed again.
 */
export function changedPublicKeys(before: ItemRow, after: ItemRow, values?: PatchedItem["values"]): string[] {
  const a = values?.before ?? (JSON.parse(before.data) as ItemData);
  const b = values?.after ?? (JSON.parse(after.data) as ItemData);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const changed = [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  if (before.slug !== after.slug) changed.push("slug");
  if (before.updated_at !== after.updated_at) changed.push("updatedAt");
  if (before.published_at !== after.published_at) changed.push("publishedAt");
  return changed;
}

/**
 * Publishing keeps the first publish time, so unpublish and publish again does not move an item in
 * date order. `updatedBy`: the account or key id that made the change (null: the operator or admin
 * key), stamped in the same write.
 */
export function setStatus(sql: SqlStorage, row: ItemRow, status: "draft" | "published", change: Change, updatedBy: string | null): ItemRow {
  const now = new Date().toISOString();
  return updateItemStatus(sql, row.seq, status, status === "published" ? now : null, now, change, updatedBy);
}

export function deleteItem(sql: SqlStorage, row: ItemRow, change: Change): void {
  deleteItemRow(sql, row.seq, change);
}

/**
 * Who created (`created`) or last changed the rows: the account or key id of the caller, null for
 * the operator and admin keys. Called in the transaction of the change; returns the rows as stored.
 */
export function stampAuthor(sql: SqlStorage, rows: readonly ItemRow[], actorId: string | null, created: boolean): ItemRow[] {
  return rows.map((r) => setItemAuthor(sql, r.seq, actorId, created));
}
