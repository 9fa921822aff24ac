import type { Field } from "../../../src/contract/fields";
import { SEARCHABLE_TYPES } from "../../../src/contract/field-types";

const SEPARATOR = "\u001f";

/**
 * The text `search` matches: the indexed text fields, lower-cased with full
 * Unicode case folding (SQLite's own LIKE folds ASCII only), kept in a column
 * so a search is one `instr` per row instead of JSON parsing.
 */
export function searchTextOf(fields: readonly Field[], data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const f of fields) {
    if (!f.indexed || !SEARCHABLE_TYPES.has(f.type)) continue;
    const v = data[f.key];
    if (typeof v === "string" && v !== "") parts.push(v.toLowerCase());
  }
  return parts.join(SEPARATOR);
}
