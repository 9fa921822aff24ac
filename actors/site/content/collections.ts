import { refreshPublicData } from "./public-items";
import { ApiError } from "../../../src/contract/errors";
import { newCollectionId } from "../../../src/ids";
import type { CollectionInput, Field } from "../../../src/contract/fields";
import { SEARCHABLE_TYPES } from "../../../src/contract/field-types";
import { fieldExpr } from "../storage/field-sql";
import { searchTextOf } from "./search-text";
import { type Collection } from "../storage/rows";
import type { Change } from "../storage/revisions-table";
import {
  countInCollection,
  countWithValue as countItemsWithValue,
  dataOfCollection,
  deleteCollectionItems,
  removeFieldValues,
  setSearchText,
  slugsWithoutValue,
  syncFieldIndexes,
} from "../storage/items-table";

type CollectionRow = {
  id: string;
  slug: string;
  name: string;
  fields: string;
  created_at: string;
  updated_at: string;
};

export function readCollections(sql: SqlStorage): Collection[] {
  return sql
    .exec<CollectionRow>("SELECT * FROM collections ORDER BY slug")
    .toArray()
    .map((r) => ({
      id: r.id,
      slug: r.slug,
      name: r.name,
      fields: JSON.parse(r.fields) as Field[],
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }));
}

/**
 * Creates or updates a collection. Changes that would leave stored items
 * invalid are refused (409) before anything is written; a removed field is
 * migrated by deleting its values from every item of the collection.
 * `createOnly` (the client sent `If-None-Match: *`) refuses an existing slug,
 * so a "new collection" form can never replace, and strip, one that exists.
 */
export function putCollection(
  sql: SqlStorage,
  all: readonly Collection[],
  slug: string,
  input: CollectionInput,
  createOnly: boolean,
  // Who changes the schema: items losing a removed field's value get a revision naming them.
  change: Change,
): { collection: Collection; created: boolean } {
  const existing = all.find((c) => c.slug === slug);
  if (existing && createOnly) {
    throw new ApiError(
      "conflict",
      `A collection with the slug "${slug}" exists already; nothing was changed. Open it to edit its fields, or choose another slug.`,
      { slug },
    );
  }
  for (const f of input.fields) {
    if ((f.type === "reference" || f.type === "references") && f.collection !== slug) {
      if (!all.some((c) => c.slug === f.collection)) {
        throw new ApiError("bad_request", `Field "${f.key}" references collection "${f.collection}", which does not exist.`, {
          field: f.key,
          collections: all.map((c) => c.slug),
        });
      }
    }
  }
  const now = new Date().toISOString();
  if (!existing) {
    const collection: Collection = {
      id: newCollectionId(),
      slug,
      name: input.name ?? slug,
      fields: input.fields,
      createdAt: now,
      updatedAt: now,
    };
    sql.exec(
      "INSERT INTO collections (id, slug, name, fields, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      collection.id,
      slug,
      collection.name,
      JSON.stringify(collection.fields),
      now,
      now,
    );
    syncFieldIndexes(sql, [...all, collection]);
    return { collection, created: true };
  }

  checkCompatible(sql, existing, input.fields);
  const removed = existing.fields.filter((f) => !input.fields.some((n) => n.key === f.key));
  for (const f of removed) {
    removeFieldValues(sql, existing.id, f.key, change);
  }
  const collection: Collection = { ...existing, name: input.name ?? existing.name, fields: input.fields, updatedAt: now };
  sql.exec(
    "UPDATE collections SET name = ?, fields = ?, updated_at = ? WHERE id = ?",
    collection.name,
    JSON.stringify(collection.fields),
    now,
    collection.id,
  );
  if (searchableKeys(existing.fields) !== searchableKeys(collection.fields)) rebuildSearchText(sql, collection);
  // Fields removed, added or reordered: each item's public JSON follows the new schema.
  if (JSON.stringify(existing.fields) !== JSON.stringify(collection.fields)) refreshPublicData(sql, collection, false);
  syncFieldIndexes(
    sql,
    all.map((c) => (c.id === collection.id ? collection : c)),
  );
  return { collection, created: false };
}

export function deleteCollection(sql: SqlStorage, all: readonly Collection[], slug: string, change: Change): void {
  const target = all.find((c) => c.slug === slug);
  if (!target) throw new ApiError("not_found", `No collection "${slug}".`);
  const referrers = all.filter(
    (c) => c.slug !== slug && c.fields.some((f) => (f.type === "reference" || f.type === "references") && f.collection === slug),
  );
  if (referrers.length) {
    throw new ApiError(
      "conflict",
      `Collection "${slug}" is referenced by ${referrers.map((c) => `"${c.slug}"`).join(", ")}; remove those fields first.`,
      {
        referencedBy: referrers.map((c) => c.slug),
      },
    );
  }
  deleteCollectionItems(sql, target.id, change);
  sql.exec("DELETE FROM collections WHERE id = ?", target.id);
  syncFieldIndexes(
    sql,
    all.filter((c) => c.id !== target.id),
  );
}

function checkCompatible(sql: SqlStorage, existing: Collection, next: readonly Field[]): void {
  for (const f of next) {
    const old = existing.fields.find((o) => o.key === f.key);
    const typeChanged = old && (old.type !== f.type || old.collection !== f.collection);
    if (typeChanged) {
      const used = countWithValue(sql, existing.id, f.key);
      if (used > 0) {
        throw new ApiError(
          "conflict",
          `Field "${f.key}" cannot change from ${describe(old)} to ${describe(f)}: ${used} item(s) hold a value. Clear those values first, or add a field with a new key.`,
          { field: f.key, from: old.type, to: f.type, itemsWithValue: used },
        );
      }
    }
    if (old && !typeChanged && f.type === "option") refuseRemovedOptionsInUse(sql, existing.id, old, f);
    if (f.required && (!old || !old.required || typeChanged)) {
      const missing = countTotal(sql, existing.id) - countWithValue(sql, existing.id, f.key);
      if (missing > 0) {
        // Which ones, so the owner knows where to go: the first few by slug.
        const examples = slugsWithoutValue(sql, existing.id, fieldExpr(f.key), 5);
        const more = missing > examples.length ? `, and ${missing - examples.length} more` : "";
        throw new ApiError(
          "conflict",
          `Field "${f.key}" cannot become required: ${missing} item(s) have no value for it (${examples.join(", ")}${more}). Give each a value first, or leave the field optional.`,
          { field: f.key, itemsWithoutValue: missing, examples },
        );
      }
    }
  }
}

/**
 * An option taken off the list while items still hold it is refused, naming the option and how
 * many items use it: the owner moves those items to another option first (nothing is lost or
 * left holding a value the field no longer offers).
 */
function refuseRemovedOptionsInUse(sql: SqlStorage, collectionId: string, old: Field, next: Field): void {
  const kept = new Set((next.options ?? []).map((o) => o.value));
  const removed = (old.options ?? []).map((o) => o.value).filter((v) => !kept.has(v));
  if (removed.length === 0) return;
  const inUse = removed
    .map((value) => ({
      value,
      items: countItemsWithValue(sql, collectionId, fieldExpr(old.key), value),
    }))
    .filter((u) => u.items > 0);
  if (inUse.length === 0) return;
  const words = inUse.map((u) => `"${u.value}" (${u.items} item${u.items === 1 ? "" : "s"})`).join(", ");
  throw new ApiError(
    "conflict",
    `Field "${old.key}" cannot drop option ${words}: items still use it. Move those items to another option first, or keep the option.`,
    { field: old.key, optionsInUse: inUse },
  );
}

function describe(f: Field): string {
  return f.collection ? `${f.type}(${f.collection})` : f.type;
}

function countWithValue(sql: SqlStorage, collectionId: string, key: string): number {
  return countItemsWithValue(sql, collectionId, fieldExpr(key));
}

function countTotal(sql: SqlStorage, collectionId: string): number {
  return countInCollection(sql, collectionId);
}

function searchableKeys(fields: readonly Field[]): string {
  return fields
    .filter((f) => f.indexed && SEARCHABLE_TYPES.has(f.type))
    .map((f) => f.key)
    .join(",");
}

function rebuildSearchText(sql: SqlStorage, collection: Collection): void {
  const rows = dataOfCollection(sql, collection.id);
  for (const r of rows) {
    setSearchText(sql, r.seq, searchTextOf(collection.fields, JSON.parse(r.data)));
  }
}
