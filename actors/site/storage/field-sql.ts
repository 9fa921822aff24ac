import { FIELD_KEY } from "../../../src/contract/field-keys";

/** The SQL expression for a field's value: one spelling everywhere, so expression indexes match. */
export function fieldExpr(key: string): string {
  if (!FIELD_KEY.test(key)) throw new Error(`unsafe field key ${key}`);
  return `json_extract(data, '$.${key}')`;
}

export function fieldIndexName(key: string): string {
  return `items_field_${key}`;
}

/**
 * The SQL expression a field is compared and sorted by: its value, except a decimal's, which is
 * stored as exact text and compared as a number.
 */
export function valueExpr(field: { key: string; type: string }): string {
  return field.type === "decimal" ? `CAST(${fieldExpr(field.key)} AS REAL)` : fieldExpr(field.key);
}

/** The expression index serving `valueExpr` of an indexed field (shared by every collection with that key and kind). */
export function valueIndexName(field: { key: string; type: string }): string {
  return field.type === "decimal" ? `items_decimal_${field.key}` : fieldIndexName(field.key);
}

/** The SQL expression for the media id a field shows first: an image's own, a gallery's first. */
export function firstMediaExpr(field: { key: string; type: string }): string {
  const expr = fieldExpr(field.key);
  return field.type === "gallery" ? `json_extract(data, '$.${field.key}[0]')` : expr;
}
