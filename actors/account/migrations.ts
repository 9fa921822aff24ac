import type { SQLSchemaMigration } from "durable-utils/sql-migrations";

/** The Account object's schema (append-only: never edit an applied migration). */
export const ACCOUNT_MIGRATIONS: SQLSchemaMigration[] = [
  {
    idMonotonicInc: 1,
    description: "account, sessions, memberships (pushed by workspaces), reset tokens, passkeys, known clients",
    sql: `
      CREATE TABLE IF NOT EXISTS account (
        id TEXT PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL, created_at INTEGER NOT NULL,
        password_hash TEXT, password_prep INTEGER NOT NULL DEFAULT 1, password_changed_at INTEGER
      );
      CREATE TABLE IF NOT EXISTS sessions (
        id_hash TEXT PRIMARY KEY, created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL,
        public_id TEXT UNIQUE, user_agent TEXT, ip TEXT, country TEXT
      );
      CREATE TABLE IF NOT EXISTS memberships (
        workspace_id TEXT PRIMARY KEY, workspace_name TEXT NOT NULL, role TEXT NOT NULL, site_ids TEXT, updated_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS reset_tokens (hash TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS passkeys (
        id TEXT PRIMARY KEY, public_key BLOB NOT NULL, counter INTEGER NOT NULL, transports TEXT, name TEXT NOT NULL,
        rp_id TEXT NOT NULL, created_at INTEGER NOT NULL, last_used_at INTEGER
      );
      CREATE TABLE IF NOT EXISTS used_challenges (hash TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS known_clients (hash TEXT PRIMARY KEY, first_seen INTEGER NOT NULL);
    `,
  },
];
