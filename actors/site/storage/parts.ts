/**
 * Large text in SQLite: a single value is capped at 2 MB, so documents are
 * stored in parts of at most 512K UTF-16 units (at most 1.5 MB of UTF-8),
 * never splitting a surrogate pair.
 */
export const PART_CHARS = 512 * 1024;

export function splitParts(text: string, size = PART_CHARS): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length || parts.length === 0;) {
    let end = Math.min(text.length, i + size);
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1] as string)) end++;
    parts.push(text.slice(i, end));
    i = end;
  }
  return parts;
}
