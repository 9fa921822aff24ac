import type { Collection } from "../storage/rows";
import { fieldExpr } from "../storage/field-sql";
import { sanitizeRichText } from "./rich-text";
import { setFieldValue, textValuesOf } from "../storage/items-table";

const DONE_KEY = "rich-text-cleaned";

/**
 * Rich text is cleaned when it is written (item-data.ts). Values stored before that cleaning
 * existed would reach pages as they are, so each site cleans them once, in place, when its
 * object starts; values that are already clean are not rewritten (no write, no re-index).
 * Returns how many values changed.
 */
export function cleanStoredRichTextOnce(storage: DurableObjectStorage, collections: readonly Collection[]): number {
  if (storage.kv.get(DONE_KEY)) return 0;
  let changed = 0;
  for (const c of collections) {
    for (const f of c.fields.filter((x) => x.type === "richText")) {
      const rows = textValuesOf(storage.sql, c.id, fieldExpr(f.key));
      for (const r of rows) {
        const clean = sanitizeRichText(r.v);
        if (clean === r.v) continue;
        setFieldValue(storage.sql, r.id, f.key, clean);
        changed++;
      }
    }
  }
  storage.kv.put(DONE_KEY, 1);
  return changed;
}
