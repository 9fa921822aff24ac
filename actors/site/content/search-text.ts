import type { Field } from "../../../src/contract/fields";
import { SEARCHABLE_TYPES } from "../../../src/contract/field-types";
import { searchTextsAfter, setSearchText } from "../storage/items-table";

const SEPARATOR = "\u001f";

/**
 * The text `search` matches: the indexed text fields, folded (`foldForSearch`) and kept in a
 * column so a search is one `instr` per row instead of JSON parsing.
 */
export function searchTextOf(fields: readonly Field[], data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const f of fields) {
    if (!f.indexed || !SEARCHABLE_TYPES.has(f.type)) continue;
    const v = data[f.key];
    if (typeof v === "string" && v !== "") parts.push(foldForSearch(v));
  }
  return parts.join(SEPARATOR);
}

// Letters with no combining mark to drop that readers still type plainly (Łódź as "lodz").
const PLAIN: Readonly<Record<string, string>> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i" };
const SPECIAL = /[ßæœøłđðþı]/g;
// Accents of the alphabets readers drop them from when typing. Marks of other scripts (Devanagari's
// vowel signs, Hebrew's points) are parts of their letters and stay.
const ACCENTED = /(\p{Script=Latin}|\p{Script=Greek}|\p{Script=Cyrillic})\p{M}+/gu;
const ASCII = /^[\0-\x7f]*$/;

/**
 * Case and accents folded, as a reader types a search: "Café" and "CAFE" are both "cafe", "Łódź"
 * is "lodz". Full Unicode lower-casing (SQLite's own LIKE folds ASCII only). Applied to the stored
 * text and to the query alike, so a query with its accents finds the same items as one without.
 */
export function foldForSearch(text: string): string {
  const lower = text.toLowerCase();
  if (ASCII.test(lower)) return lower;
  return lower
    .normalize("NFD")
    .replace(ACCENTED, "$1")
    .normalize("NFC")
    .replace(SPECIAL, (c) => PLAIN[c] ?? c);
}

const FOLDED_KEY = "search-text-folded";
const CHUNK = 500;

/**
 * Search text stored before it was accent-folded was only lower-cased: each site folds it once, in
 * place, when its object starts (before any search is answered). Text that folds to itself (plain
 * ASCII: most of it) is not rewritten, so it queues no search re-index. Returns how many changed.
 */
export function foldStoredSearchTextOnce(storage: DurableObjectStorage): number {
  if (storage.kv.get(FOLDED_KEY)) return 0;
  let changed = 0;
  let after = 0;
  for (;;) {
    const rows = searchTextsAfter(storage.sql, after, CHUNK);
    if (rows.length === 0) break;
    for (const r of rows) {
      const folded = foldForSearch(r.search_text);
      if (folded !== r.search_text) {
        setSearchText(storage.sql, r.seq, folded);
        changed++;
      }
    }
    after = rows[rows.length - 1]!.seq;
  }
  storage.kv.put(FOLDED_KEY, 1);
  return changed;
}
