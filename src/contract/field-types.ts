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
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose values are scalars that SQLite can index, sort and compare. */
export const INDEXABLE_TYPES: ReadonlySet<FieldType> = new Set(["text", "number", "boolean", "date", "link", "reference", "option"]);
/** Types that `search` reads. */
export const SEARCHABLE_TYPES: ReadonlySet<FieldType> = new Set(["text", "link"]);
