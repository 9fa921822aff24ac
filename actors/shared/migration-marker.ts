/**
 * The key of an object's KV storage where durable-utils' SQLSchemaMigrations keeps the number of
 * the last migration it ran (its default key: no object passes another). Present wherever a
 * schema was built, so reading it tells whether an object holds a database without writing one.
 */
export const MIGRATION_MARKER = "__sql_migrations_lastID";
