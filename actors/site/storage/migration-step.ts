/**
 * One step of the site database: numbered, append only (an applied step is never edited; a change
 * is a new step with the next number), its statements in the step itself, as durable-utils'
 * SQLSchemaMigration, plus the columns it adds to tables that earlier steps made.
 */
export interface SiteMigration {
  idMonotonicInc: number;
  description: string;
  /**
   * Columns added to tables of earlier steps, [table, column, definition], each only while it is
   * missing: SQLite has no ADD COLUMN IF NOT EXISTS, and a step can run over a database that has
   * it (a database whose marker is behind its schema replays the steps after the marker).
   */
  columns?: readonly (readonly [table: string, column: string, definition: string])[];
  /** Statements run after the columns are added; each harmless when replayed. */
  sql?: string;
}

/**
 * The statements of a step with columns, made when it runs: a column is missing or not only
 * after the steps before it have built their tables, in the same transaction.
 */
export function stepStatements(sql: SqlStorage, step: SiteMigration): string {
  const missing = (step.columns ?? []).filter(
    ([table, column]) => sql.exec("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", table, column).toArray().length === 0,
  );
  const statements = [
    ...missing.map(([table, column, definition]) => `ALTER TABLE ${table} ADD COLUMN ${column} ${definition};`),
    step.sql ?? "",
  ];
  return statements.join("\n").trim() || "SELECT 1";
}
