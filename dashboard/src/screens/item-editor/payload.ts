/** An item as the editor shows it and as the API takes it back. */
import type { Collection, Item, ItemData } from "../../types";

/** What the editor shows of an item: a published item's pending changes when it has them. */
export const shownOf = (i: Item) => i.pendingChanges ?? { slug: i.slug, data: i.data };

const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/** The form's values as the API takes them: numbers parsed, emptied fields cleared with null on edit. */
export function toPayload(c: Collection, values: ItemData, editing: boolean): ItemData {
  const out: ItemData = {};
  for (const f of c.fields) {
    let v = values[f.key];
    if (f.type === "number" && typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) v = Number(v);
    // An unticked switch shows "no" and is saved as false: left out, `filter[key]=false` would miss the item.
    if (f.type === "boolean") v = v === true;
    if (isEmpty(v)) {
      if (editing) out[f.key] = null;
      continue;
    }
    out[f.key] = v;
  }
  return out;
}
