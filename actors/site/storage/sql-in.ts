/**
 * Runs `query` once per chunk of `values`, handing it the `?,?,…` list for the
 * chunk, so an `IN (...)` never exceeds SQLite's bound-parameter limit.
 */
export function selectIn<T extends Record<string, SqlStorageValue>>(
  sql: SqlStorage,
  values: Iterable<string | number>,
  query: (placeholders: string) => string,
  leading: readonly SqlStorageValue[] = [],
): T[] {
  const list = [...new Set(values)];
  const out: T[] = [];
  for (let i = 0; i < list.length; i += 90) {
    const chunk = list.slice(i, i + 90);
    out.push(...sql.exec<T>(query(chunk.map(() => "?").join(",")), ...leading, ...chunk).toArray());
  }
  return out;
}
