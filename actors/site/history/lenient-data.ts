/**
 * A stored version's values checked against today's fields, leniently: an old revision may name
 * a field that was removed since, or media or an item that no longer exists. Those values are
 * left out and listed, instead of making the version impossible to restore. Values that still
 * pass are kept exactly as stored, so restoring a version of an unchanged schema is identical.
 */
import { ApiError } from "../../../src/contract/errors";
import type { Field } from "../../../src/contract/fields";
import { type DataLookups, type ItemData, validateItemData } from "../content/item-data";

export interface Dropped {
  field: string;
  reason: string;
}

/** `current`: the item's values now, which fill a required field the old version lacks. */
export function lenientData(
  fields: readonly Field[],
  stored: ItemData,
  current: ItemData | null,
  lookups: DataLookups,
): { data: ItemData; dropped: Dropped[] } {
  const known = new Set(fields.map((f) => f.key));
  const dropped: Dropped[] = [];
  const data: ItemData = {};
  for (const [k, v] of Object.entries(stored)) {
    if (known.has(k)) data[k] = v;
    else dropped.push({ field: k, reason: "the field no longer exists" });
  }
  // Each pass removes what was refused; a value is either kept as stored or left out.
  for (let pass = 0; pass < 3; pass++) {
    try {
      validateItemData(fields, data, null, lookups);
      return { data, dropped };
    } catch (err) {
      const issues =
        err instanceof ApiError ? ((err.details as { issues?: { path: string; message: string }[] } | undefined)?.issues ?? []) : [];
      if (!issues.length) throw err;
      for (const i of issues) {
        const key = i.path.replace(/^data\./, "");
        if (i.message === "is required" && current && current[key] !== undefined) {
          data[key] = current[key];
          dropped.push({ field: key, reason: "required now and empty in that version: the current value was kept" });
        } else if (key in data) {
          delete data[key];
          dropped.push({ field: key, reason: i.message });
        }
      }
    }
  }
  // Still refused (a required field with no value anywhere): say which, change nothing.
  validateItemData(fields, data, null, lookups);
  return { data, dropped };
}
