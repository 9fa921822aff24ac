import type { SQLSchemaMigration } from "durable-utils/sql-migrations";
import { ROLES } from "../../src/contract/principal";

const ROLE_CHECK = ROLES.map((r) => `'${r}'`).join(", ");

/** The workspace database, one numbered step at a time (append only, as the site's). */
export const WORKSPACE_MIGRATIONS: SQLSchemaMigration[] = [
  {
    idMonotonicInc: 1,
    description: "workspace and its sites",
    sql: `
      CREATE TABLE IF NOT EXISTS workspace (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, plan TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS sites (site_id TEXT PRIMARY KEY, added_at TEXT NOT NULL);
    `,
  },
  {
    idMonotonicInc: 2,
    description: "members and roles, invitations, API keys, the workspace's audit log, and the outbox of membership pushes",
    sql: `
      CREATE TABLE IF NOT EXISTS members (
        account_id TEXT PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
        role TEXT NOT NULL CHECK (role IN (${ROLE_CHECK})), site_ids TEXT,
        added_at INTEGER NOT NULL, added_by TEXT
      );
      CREATE UNIQUE INDEX IF NOT EXISTS members_one_owner ON members (role) WHERE role = 'owner';
      CREATE TABLE IF NOT EXISTS invitations (
        id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, email TEXT,
        role TEXT NOT NULL CHECK (role IN (${ROLE_CHECK})), site_ids TEXT,
        created_by TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        accepted_by TEXT, accepted_at INTEGER, revoked_at INTEGER
      );
      CREATE TABLE IF NOT EXISTS api_keys (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL UNIQUE,
        scope TEXT NOT NULL CHECK (scope IN ('read', 'full')), site_id TEXT,
        created_by TEXT NOT NULL, created_at INTEGER NOT NULL, last_used_at INTEGER, revoked_at INTEGER
      );
      CREATE TABLE IF NOT EXISTS audit (
        seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_id TEXT, actor_label TEXT NOT NULL,
        operation TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL, site_id TEXT, ip TEXT, country TEXT, details TEXT
      );
      CREATE INDEX IF NOT EXISTS audit_by_at ON audit (at);
      CREATE TABLE IF NOT EXISTS outbox (
        seq INTEGER PRIMARY KEY, account_id TEXT NOT NULL, payload TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL
      );
    `,
  },
  {
    idMonotonicInc: 3,
    description: "media storage of all the workspace's sites: each site's stored total, and reservations of uploads under way",
    sql: `
      CREATE TABLE IF NOT EXISTS media_usage (site_id TEXT PRIMARY KEY, stored_bytes INTEGER NOT NULL, seq INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS media_reservations (
        id TEXT PRIMARY KEY, site_id TEXT NOT NULL, bytes INTEGER NOT NULL, expires_at INTEGER NOT NULL
      );
    `,
  },
  {
    idMonotonicInc: 4,
    description: "the account that made each API key, so a key lives only while its maker may still make keys",
    // `created_by` holds the label shown in the list (an email, "operator"); a key made before this
    // step gets its maker's id from its createApiKey audit row, or else from the member of that email.
    sql: `
      ALTER TABLE api_keys ADD COLUMN created_by_account TEXT;
      UPDATE api_keys SET created_by_account = (
        SELECT actor_id FROM audit
        WHERE operation = 'createApiKey' AND actor_kind = 'account' AND json_extract(details, '$.id') = api_keys.id
        LIMIT 1
      );
      UPDATE api_keys SET created_by_account = (SELECT account_id FROM members WHERE members.email = api_keys.created_by)
        WHERE created_by_account IS NULL;
    `,
  },
  {
    idMonotonicInc: 5,
    description: "whether each invitation was mailed (and why not), which also counts the workspace's invitation mails of a day",
    // Before this step every invitation to an address was handed to the mail service.
    sql: `
      ALTER TABLE invitations ADD COLUMN mail_state TEXT NOT NULL DEFAULT 'none'
        CHECK (mail_state IN ('none', 'sent', 'recipient', 'workspace_limit', 'inviter_limit'));
      UPDATE invitations SET mail_state = 'sent' WHERE email IS NOT NULL;
      CREATE INDEX IF NOT EXISTS invitations_mailed ON invitations (created_at) WHERE mail_state = 'sent';
    `,
  },
  {
    idMonotonicInc: 6,
    description: "sweeps owed to sites: what a member made on a site ends when their standing falls, retried until each site has it",
    sql: `
      CREATE TABLE IF NOT EXISTS site_sweeps (
        seq INTEGER PRIMARY KEY, site_id TEXT NOT NULL, payload TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL
      );
    `,
  },
  {
    idMonotonicInc: 7,
    description: "jobs: deferred work driven by the one alarm, as the site's (owed pushes and sweeps, the daily audit prune)",
    // Before this step the alarm was set by hand and the last prune's time kept in the key-value
    // storage (`audit_pruned_at`); the workspace's first start after it turns both into jobs (job-registry.ts).
    sql: `
      CREATE TABLE IF NOT EXISTS jobs (
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        run_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        PRIMARY KEY (kind, key)
      );
      CREATE INDEX IF NOT EXISTS jobs_by_run_at ON jobs (run_at);
    `,
  },
  {
    idMonotonicInc: 8,
    description: "the name of the person behind an audit row, as they gave it at sign-up",
    // Rows written before keep NULL; a read names them after the member of that account, if any.
    sql: "ALTER TABLE audit ADD COLUMN actor_name TEXT;",
  },
  {
    idMonotonicInc: 9,
    description: "why an invitation the workspace decided to mail did not go: no mail transport, or the mail service failed",
    // NULL for every invitation before this step: their mails were handed over without waiting for the answer.
    sql: "ALTER TABLE invitations ADD COLUMN mail_failure TEXT CHECK (mail_failure IN ('failed', 'not_configured'));",
  },
];
