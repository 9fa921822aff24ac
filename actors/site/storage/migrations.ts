import { type SQLSchemaMigration, SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { type SiteMigration, stepStatements } from "./migration-step";
import { MIGRATIONS_BEFORE_ACCOUNTS } from "./migrations-before-accounts";
import { MIGRATIONS_SINCE_ACCOUNTS } from "./migrations-since-accounts";
import { MIGRATIONS_FOR_SCALE } from "./migrations-for-scale";

export type { SiteMigration } from "./migration-step";

/**
 * The site database, one numbered step at a time, each one entry with its statements. Append
 * only (to migrations-for-scale.ts): an applied step is never edited, a change is a new
 * entry with the next number. durable-utils keeps the last number run (MIGRATION_MARKER).
 */
export const SITE_MIGRATIONS: readonly SiteMigration[] = [
  ...MIGRATIONS_BEFORE_ACCOUNTS,
  ...MIGRATIONS_SINCE_ACCOUNTS,
  ...MIGRATIONS_FOR_SCALE,
];

/**
 * Runs every step of `steps` (all of them but in tests) not run yet. A step with columns has no
 * `sql` for durable-utils, which then asks for its statements when it reaches the step.
 */
export async function runSiteMigrations(storage: DurableObjectStorage, steps: readonly SiteMigration[] = SITE_MIGRATIONS): Promise<void> {
  const migrations: SQLSchemaMigration[] = steps.map(({ idMonotonicInc, description, columns, sql }) =>
    columns ? { idMonotonicInc, description } : { idMonotonicInc, description, sql },
  );
  const byId = new Map(steps.map((s) => [s.idMonotonicInc, s]));
  await new SQLSchemaMigrations({ doStorage: storage, migrations }).runAll((id) => stepStatements(storage.sql, byId.get(id)!));
}
