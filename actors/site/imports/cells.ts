/**
 * A file's cell (text) as a field's value: numbers, true/false, dates in ISO 8601 or the form
 * Webflow exports (`Tue Aug 12 2025 07:53:00 GMT+0000 (Coordinated Universal Time)`), options by
 * value or label, references as slugs (`;`-separated for several, as Webflow writes them), images
 * and videos as URLs (kept as URL media), a gallery as several URLs (`urlList`). A cell that cannot be read gives a reason in words.
 */
import type { Field } from "../../../src/contract/fields";
import { DECIMAL_PATTERN, MAX_GALLERY } from "../../../src/contract/field-types";
import { escapeHtml } from "../../../src/shared/escape";
import { normalizeDate } from "../content/values";

/** Webflow's `Date.prototype.toString()` form; Date.parse reads it exactly (the offset is in it). */
const WEBFLOW_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}(?: \([^)]*\))?$/;

export function readDate(cell: string): string | null {
  const v = cell.trim();
  const iso = normalizeDate(v);
  if (iso) return iso;
  if (!WEBFLOW_DATE.test(v)) return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

const TRUE = new Set(["true", "yes", "1", "y", "on"]);
const FALSE = new Set(["false", "no", "0", "n", "off"]);

export function readBoolean(cell: string): boolean | null {
  const v = cell.trim().toLowerCase();
  return TRUE.has(v) ? true : FALSE.has(v) ? false : null;
}

/** `a; b;c` → ["a", "b", "c"] (empty parts dropped). */
export const splitList = (cell: string): string[] =>
  cell
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "");

/**
 * A gallery cell's URLs, in order: separated by whitespace (spaces, new lines) or `|`, which a URL
 * never holds unescaped; Webflow's multi-image form (`url; url`) reads the same. The export writes
 * a gallery joined by GALLERY_SEPARATOR, so a file exported and imported again keeps it.
 */
export const urlList = (cell: string): string[] =>
  cell
    .split(/;?(?:\s|\|)+/)
    .map((s) => s.replace(/;$/, ""))
    .filter((s) => s !== "");

export type CellValue = { value: unknown } | { refs: string[] } | { reason: string };

/** The value for `field`, references as the slugs to resolve, or why the cell cannot be read. */
export function readCell(field: Field, cell: string): CellValue {
  switch (field.type) {
    case "text":
    case "link":
      return { value: cell };
    case "richText":
      return { value: richTextOf(cell) };
    case "number": {
      const n = Number(cell.trim().replace(/^\+/, ""));
      return cell.trim() !== "" && Number.isFinite(n) ? { value: n } : { reason: "is not a number" };
    }
    case "decimal": {
      const v = cell.trim().replace(/^\+/, "");
      return DECIMAL_PATTERN.test(v) ? { value: v } : { reason: "is not a decimal number (write it with a dot, such as 34.90)" };
    }
    case "boolean": {
      const b = readBoolean(cell);
      return b === null ? { reason: "is not true or false" } : { value: b };
    }
    case "date": {
      const d = readDate(cell);
      return d
        ? { value: d }
        : { reason: "is not a date (write 2024-05-01, 2024-05-01T09:30:00Z, or Webflow's form Tue Aug 12 2025 07:53:00 GMT+0000)" };
    }
    case "image":
    case "video": {
      // A multi-image cell of Webflow (`url; url`) fills an image field with its first image.
      const url = splitList(cell)[0] ?? "";
      return { value: { url } };
    }
    case "gallery": {
      const urls = urlList(cell);
      return urls.length > MAX_GALLERY
        ? { reason: `holds ${urls.length} images; a gallery holds at most ${MAX_GALLERY}` }
        : { value: urls.map((url) => ({ url })) };
    }
    case "option": {
      const v = cell.trim();
      const hit = (field.options ?? []).find((o) => o.value === v) ?? (field.options ?? []).find((o) => o.label === v);
      const lower = v.toLowerCase();
      const loose = (field.options ?? []).find((o) => o.value.toLowerCase() === lower || o.label?.toLowerCase() === lower);
      return { value: (hit ?? loose)?.value ?? v };
    }
    case "reference":
      return { refs: [cell.trim()] };
    case "references":
      return { refs: splitList(cell) };
  }
}

/** A tag, a comment or a character reference: the cell is HTML (cleaned by the write as any rich text). */
const LOOKS_LIKE_HTML = /<(?:[a-z][a-z0-9-]*[\s/>]|\/[a-z][a-z0-9-]*\s*>|!--)|&(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);/i;

/**
 * A rich-text cell as HTML: HTML as it is; plain text as the editor would hold it, a paragraph
 * per block of lines (blank lines split them), a line break within one, every character escaped.
 */
export function richTextOf(cell: string): string {
  if (LOOKS_LIKE_HTML.test(cell)) return cell;
  return cell
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n\s*/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p>${escapeHtml(p).replace(/[ \t]*\n[ \t]*/g, "<br>")}</p>`)
    .join("");
}
