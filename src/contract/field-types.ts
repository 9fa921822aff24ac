/**
 * The field types, once, for the service and the dashboard alike. No zod here, so the
 * dashboard's bundle takes this list without the schema library.
 */
export const FIELD_TYPES = [
  "text",
  "richText",
  "number",
  "boolean",
  "date",
  "link",
  "image",
  "video",
  "reference",
  "references",
  "option",
  "decimal",
  "gallery",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose values are scalars that SQLite can index, sort and compare. */
export const INDEXABLE_TYPES: ReadonlySet<FieldType> = new Set([
  "text",
  "number",
  "boolean",
  "date",
  "link",
  "reference",
  "option",
  "decimal",
]);
/**
 * The field types a translation may hold: text people read. Other fields (numbers, dates,
 * options, references, media) are shared by every locale.
 */
export const LOCALIZABLE_TYPES: ReadonlySet<FieldType> = new Set(["text", "richText", "link"]);
/** Types that `search` reads. */
export const SEARCHABLE_TYPES: ReadonlySet<FieldType> = new Set(["text", "link"]);

/**
 * The most images a gallery field holds: a shop's product photos, with room to spare, while an
 * item's public JSON (each one expanded to a MediaRef with its srcset) stays small.
 */
export const MAX_GALLERY = 50;
/** How a CSV export joins a gallery's URLs; the import's gallery cell (imports/cells.ts urlList) reads it back. */
export const GALLERY_SEPARATOR = " | ";

/**
 * A decimal field's value: an exact decimal written with a dot, as text ("34.90"), so its digits
 * (trailing zeros too) come back as they were given. Up to 15 digits before the dot and 8 after.
 */
export const DECIMAL_PATTERN = /^-?\d{1,15}(?:\.\d{1,8})?$/;
/** An ISO 4217 currency code, as a decimal field's `currency`. */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
