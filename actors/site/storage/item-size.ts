/**
 * The size check of an item's stored values (MAX_ITEM_BYTES). The items repository and the
 * pending-changes table call it before each statement that writes values, so no write path
 * (PATCH, batch, pending changes, restore, import) can reach SQLite's row limit and fail there.
 */
import { ApiError } from "../../../src/contract/errors";
import { MAX_ITEM_BYTES } from "../../../src/contract/limits";

/** UTF-8 length of a string as SQLite stores it (a lone surrogate becomes the 3 bytes of U+FFFD). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * Refuses (413) values that would make the item `slug` larger than MAX_ITEM_BYTES: its data as
 * JSON, its slug and its search text. `searchText` is the text the item has with these values,
 * also for pending changes, so what is saved as pending can always be published.
 */
export function checkItemSize(slug: string, data: string, searchText: string): void {
  // A UTF-16 unit is at most 3 UTF-8 bytes: most items are under the limit without counting.
  if ((slug.length + data.length + searchText.length) * 3 <= MAX_ITEM_BYTES) return;
  const bytes = utf8Length(slug) + utf8Length(data) + utf8Length(searchText);
  if (bytes <= MAX_ITEM_BYTES) return;
  throw new ApiError(
    "payload_too_large",
    `Item "${slug}" would take ${bytes} bytes as stored (its values as JSON, its slug and its search text); an item holds at most ${MAX_ITEM_BYTES}. Shorten its values or split it into more items.`,
    { limit: "item", max: MAX_ITEM_BYTES, bytes, slug },
  );
}
