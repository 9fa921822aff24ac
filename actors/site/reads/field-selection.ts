/**
 * `fields=` on the content API's list and item reads: each item keeps only the named fields in
 * its `data` (its id, slug and times stay), so a card grid or a menu downloads what it shows.
 * Without it, every field, as always.
 */
import { ApiError, clip } from "../../../src/contract/errors";
import { MAX_FIELDS_PARAM, parseFieldsParam } from "../../../src/shared/list-params";
import type { Collection } from "../storage/rows";

/** The keys `fields=` names, each a field of the collection, or null for every field; anything else is a 400. */
export function fieldSelection(c: Collection, params: URLSearchParams): ReadonlySet<string> | null {
  const keys = parseFieldsParam(params.get("fields"));
  if (keys === null) return null;
  if (keys.length > MAX_FIELDS_PARAM)
    throw new ApiError("bad_request", `fields names at most ${MAX_FIELDS_PARAM} fields.`, { parameter: "fields", max: MAX_FIELDS_PARAM });
  const allowed = c.fields.map((f) => f.key);
  const unknown = keys.find((k) => !allowed.includes(k));
  if (unknown !== undefined)
    throw new ApiError("bad_request", `fields: "${clip(unknown, 64)}" is not a field of "${c.slug}" (its fields: ${allowed.join(", ")}).`, {
      parameter: "fields",
      field: clip(unknown, 64),
      allowed,
    });
  return new Set(keys);
}

/** An item's public JSON text with only the selected fields in its `data`. */
export function selectFields(itemJson: string, keys: ReadonlySet<string>): string {
  const item = JSON.parse(itemJson) as { data?: Record<string, unknown> };
  if (item.data) item.data = Object.fromEntries(Object.entries(item.data).filter(([k]) => keys.has(k)));
  return JSON.stringify(item);
}
