import { FIELD_KEY } from "../../../src/contract/field-keys";

/** The SQL expression for a field's value: one spelling everywhere, so expression indexes match. */
export function fieldExpr(key: string): string {
  if (!FIELD_KEY.test(key)) throw new Error(`unsafe field key ${key}`);
  return `json_extract(data, '$.${key}')`;
}

export function fieldIndexName(key: string): string {
  return `items_field_${key}`;
}
