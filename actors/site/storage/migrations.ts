import { type SQLSchemaMigration, SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { WEBHOOKS_MIGRATION_SQL } from "../webhooks/schema";
import { IMPORTS_MIGRATION_SQL } from "../imports/schema";

/**
 * The site database, one numbered step at a time. Append only: an applied
 * migration is never edited, a change is a new entry with the next number.
 */
export const SITE_MIGRATIONS: SQLSchemaMigration[] = [
  {
    idMonotonicInc: 1,
    description: "site, collections, media, items",
    sql: `
      CREATE TABLE IF NOT EXISTS site (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        plan TEXT NOT NULL,
        token TEXT NOT NULL,
        admin_key_hash TEXT NOT NULL,
        cache_version INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS collections (
        id TEXT PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        fields TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS media (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        alt TEXT NOT NULL DEFAULT '',
        width INTEGER,
        height INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS items (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        collection_id TEXT NOT NULL,
        slug TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('draft', 'published')),
        data TEXT NOT NULL,
        search_text TEXT NOT NULL DEFAULT '',
        published_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (collection_id, slug)
      );
      CREATE INDEX IF NOT EXISTS items_by_published ON items (collection_id, status, published_at);
      CREATE INDEX IF NOT EXISTS items_by_updated ON items (collection_id, status, updated_at);
      CREATE INDEX IF NOT EXISTS items_by_slug ON items (collection_id, status, slug);
    `,
  },
  {
    idMonotonicInc: 2,
    description: "jobs: deferred work driven by the one alarm",
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
    idMonotonicInc: 3,
    description: "server-side rendering: the captured page (one per site), stored in parts",
    sql: `
      CREATE TABLE IF NOT EXISTS ssr_capture (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        page_url TEXT NOT NULL,
        public_url TEXT NOT NULL,
        collection_id TEXT NOT NULL,
        shows_list INTEGER NOT NULL,
        config TEXT NOT NULL DEFAULT '{}',
        compiled TEXT NOT NULL,
        webhook_secret TEXT NOT NULL,
        captured_at TEXT NOT NULL,
        refreshed_at TEXT NOT NULL,
        last_refresh TEXT
      );
      CREATE TABLE IF NOT EXISTS ssr_page_parts (
        part INTEGER PRIMARY KEY,
        html TEXT NOT NULL
      );
    `,
  },
  {
    idMonotonicInc: 4,
    description: "semantic search: index state kept by triggers on items, local vectors",
    sql: `
      CREATE TABLE IF NOT EXISTS search_index (
        item_id TEXT PRIMARY KEY,
        collection_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'indexed', 'failed', 'removing')),
        gen INTEGER NOT NULL DEFAULT 1,
        reason TEXT,
        model TEXT,
        text_hash TEXT,
        indexed_at TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS search_index_by_state ON search_index (state, updated_at);
      CREATE TABLE IF NOT EXISTS item_vectors (
        item_id TEXT PRIMARY KEY,
        collection_id TEXT NOT NULL,
        model TEXT NOT NULL,
        vector BLOB NOT NULL
      );
      CREATE TRIGGER IF NOT EXISTS search_queue_on_insert AFTER INSERT ON items WHEN new.status = 'published'
      BEGIN
        INSERT INTO search_index (item_id, collection_id, state, updated_at)
        VALUES (new.id, new.collection_id, 'pending', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ON CONFLICT (item_id) DO UPDATE SET state = 'pending', gen = gen + 1, reason = NULL, updated_at = excluded.updated_at;
      END;
      CREATE TRIGGER IF NOT EXISTS search_queue_on_update AFTER UPDATE ON items WHEN new.status = 'published'
      BEGIN
        INSERT INTO search_index (item_id, collection_id, state, updated_at)
        VALUES (new.id, new.collection_id, 'pending', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ON CONFLICT (item_id) DO UPDATE SET state = 'pending', gen = gen + 1, reason = NULL, updated_at = excluded.updated_at;
      END;
      CREATE TRIGGER IF NOT EXISTS search_queue_on_unpublish AFTER UPDATE ON items WHEN new.status <> 'published'
      BEGIN
        UPDATE search_index SET state = 'removing', gen = gen + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        WHERE item_id = old.id;
      END;
      CREATE TRIGGER IF NOT EXISTS search_queue_on_delete AFTER DELETE ON items
      BEGIN
        UPDATE search_index SET state = 'removing', gen = gen + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        WHERE item_id = old.id;
      END;
      INSERT OR IGNORE INTO search_index (item_id, collection_id, state, updated_at)
      SELECT id, collection_id, 'pending', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM items WHERE status = 'published';
    `,
  },
  {
    idMonotonicInc: 5,
    description: "SEO documents (sitemap, feeds) as generated, stored in parts",
    sql: `
      CREATE TABLE IF NOT EXISTS seo_documents (
        name TEXT NOT NULL,
        part INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (name, part)
      );
    `,
  },
  {
    idMonotonicInc: 6,
    description: "custom hostnames: the active one and a replacement awaiting confirmation",
    sql: `
      CREATE TABLE IF NOT EXISTS custom_hostnames (
        hostname TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        provider_id TEXT NOT NULL,
        ssl_status TEXT NOT NULL,
        missing TEXT NOT NULL DEFAULT '[]',
        validation_token TEXT NOT NULL,
        validated INTEGER NOT NULL DEFAULT 0,
        checks INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    idMonotonicInc: 7,
    description: "dashboard item lists in insertion order without sorting the whole collection",
    // Without these, page N of a 10,000-item collection sorted every row in a temporary B-tree (~15 ms).
    sql: `
      CREATE INDEX IF NOT EXISTS items_by_seq ON items (collection_id, seq);
      CREATE INDEX IF NOT EXISTS items_by_status_seq ON items (collection_id, status, seq);
    `,
  },
  {
    idMonotonicInc: 8,
    description: "each item's public data as JSON, kept on write (public-items.ts)",
    sql: `
      CREATE TABLE IF NOT EXISTS item_public (
        seq INTEGER PRIMARY KEY,
        public_json TEXT NOT NULL
      );
      CREATE TRIGGER IF NOT EXISTS item_public_on_delete AFTER DELETE ON items
      BEGIN
        DELETE FROM item_public WHERE seq = old.seq;
      END;
    `,
  },
  {
    idMonotonicInc: 9,
    description: "dashboard sessions of the site's owner",
    // Only the SHA-256 of a session id is stored: a database read never yields a usable cookie.
    sql: `
      CREATE TABLE IF NOT EXISTS sessions (
        id_hash TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL
      );
    `,
  },
  {
    idMonotonicInc: 10,
    description: "the image hosts of a site that resize on the fly (Cloudflare Image Resizing), for srcset",
    // Without one, an image's srcset names its original only: /cdn-cgi/image/ is a 404 anywhere else.
    // SQLite has no ADD COLUMN IF NOT EXISTS: the statement comes from ADDED_COLUMNS, given only
    // while the column is missing, so replaying this step over a migrated database is harmless.
  },
  {
    idMonotonicInc: 11,
    description: "custom hostnames: the DNS ownership proof (TXT) each registration must show",
    // Hostnames active before the proof existed keep serving (they were validated the old way);
    // every pending one gets its challenge on its next check. Statements: ADDED_COLUMNS, then AFTER.
  },
  {
    idMonotonicInc: 12,
    description: "publish webhook: signed deliveries accepted once; the secret-in-URL form only for hooks made before",
    // Existing captures keep accepting their old URL (secret in the path) until the owner rotates the secret.
  },
  {
    idMonotonicInc: 13,
    description: "accounts: who created and last changed each item, and the site's audit log",
    // NULL authors are items made before accounts (an admin key or the operator): only roles
    // that may change every item can change them. Audit rows are written in the same
    // transaction as the change they record (actors/site/audit.ts).
  },
  {
    idMonotonicInc: 14,
    description: "uploaded media: the R2 object, its SHA-256, type, size, name, focal point and uploader; uploads under way; variants",
    // Statements: ADDED_COLUMNS, then AFTER. Owner of media_uploads and media_variants: actors/site/media/.
  },
  {
    idMonotonicInc: 15,
    description: "history: a revision of every item change; publish and unpublish times of scheduled items",
    // Items from before history get their baseline revision on their first change (nothing is
    // copied here, inside blockConcurrencyWhile). Statements: ADDED_COLUMNS, then AFTER.
  },
  {
    idMonotonicInc: 16,
    description: "pending changes of published items: the public version stays until they are published",
    sql: `
      CREATE TABLE IF NOT EXISTS item_pending (
        seq INTEGER PRIMARY KEY,
        collection_id TEXT NOT NULL,
        slug TEXT NOT NULL,
        data TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT,
        UNIQUE (collection_id, slug)
      );
      CREATE TRIGGER IF NOT EXISTS item_pending_on_delete AFTER DELETE ON items BEGIN
        DELETE FROM item_pending WHERE seq = old.seq;
      END;
    `,
  },
  {
    idMonotonicInc: 17,
    description: "outbound webhooks: endpoints, events written by triggers with the change, deliveries and attempts",
    sql: WEBHOOKS_MIGRATION_SQL,
  },
  {
    idMonotonicInc: 19,
    description: "share links: previews of an item's draft behind a secret URL (only its SHA-256 kept)",
    // 18 is another branch's (import). Owner: actors/site/preview/links-table.ts. A link ends with
    // its item: the trigger deletes it with the item row (undo delete does not bring it back).
    sql: `
      CREATE TABLE IF NOT EXISTS preview_links (
        id TEXT PRIMARY KEY,
        item_id TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        label TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        password_hash TEXT,
        max_opens INTEGER,
        opens INTEGER NOT NULL DEFAULT 0,
        last_opened_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX IF NOT EXISTS preview_links_by_item ON preview_links (item_id);
      CREATE TRIGGER IF NOT EXISTS preview_links_on_item_delete AFTER DELETE ON items BEGIN
        DELETE FROM preview_links WHERE item_id = old.id;
      END;
    `,
  },
  {
    idMonotonicInc: 20,
    description:
      "imports: the uploaded file staged a row per record, each row's dry-run plan and outcome; a webhook endpoint slowed down after 429/502/504",
    // 18 was reserved for this step; 19 (share links) landed first, so it takes the next free number
    // (a database that ran 19 would never run an 18). Statements: ADDED_COLUMNS, then AFTER.
  },
  {
    idMonotonicInc: 21,
    description: "imports: the origin an import copies its images into the library under; import rows counted by outcome from an index",
    // Statements: ADDED_COLUMNS, then AFTER.
  },
  {
    idMonotonicInc: 22,
    description: "fewer pages per item save: revisions indexed for the trash alone; no search queue row on plans without search",
    // Every save inserts a revision and (published) rewrote the item's search queue row: each index
    // of item_revisions and the queue row are pages of that save's commit, and their originals went
    // into the savepoint's statement journal, which past 64 KiB spills into a temporary file
    // (created and deleted on every save before this step; docs/history.md).
    // - item_revisions_by_at served no query; item_revisions_by_kind (kind, at) only the trash's
    //   `kind = 'delete' AND at >= ?`: a partial index of deletes serves it, and an edit touches none.
    // - search_paused (one row or none; owner actors/site/search/index-state.ts) holds its row while
    //   the site's plan has no search; the queue triggers then write nothing. The site object keeps
    //   it in step with the plan and queues every published item again when search comes back
    //   (unchanged text is not embedded again: text_hash). Empty here, so nothing changes until then.
    sql: `
      DROP INDEX IF EXISTS item_revisions_by_at;
      DROP INDEX IF EXISTS item_revisions_by_kind;
      CREATE INDEX IF NOT EXISTS item_revisions_deleted ON item_revisions (at) WHERE kind = 'delete';
      CREATE TABLE IF NOT EXISTS search_paused (id INTEGER PRIMARY KEY CHECK (id = 1));
      DROP TRIGGER IF EXISTS search_queue_on_insert;
      DROP TRIGGER IF EXISTS search_queue_on_update;
      ${(["INSERT", "UPDATE"] as const)
        .map(
          (event) => `CREATE TRIGGER search_queue_on_${event.toLowerCase()} AFTER ${event} ON items
      WHEN new.status = 'published' AND NOT EXISTS (SELECT 1 FROM search_paused)
      BEGIN
        INSERT INTO search_index (item_id, collection_id, state, updated_at)
        VALUES (new.id, new.collection_id, 'pending', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ON CONFLICT (item_id) DO UPDATE SET state = 'pending', gen = gen + 1, reason = NULL, updated_at = excluded.updated_at;
      END;`,
        )
        .join("\n")}
    `,
  },
  {
    idMonotonicInc: 23,
    description: "a revision keeps its item's creation time, so an item brought back from the trash keeps it",
    // Statements: ADDED_COLUMNS. Revisions written before keep NULL (an undelete of those takes the time it runs).
  },
  {
    idMonotonicInc: 24,
    description: "who holds the admin key, who made each share link, and webhook endpoints paused because their maker went",
    // What a member made stands only while they may make it (src/access/maker.ts). Statements:
    // ADDED_COLUMNS, then AFTER, which fills the two makers from the site's audit log (kept 400 days).
  },
];

/** Columns added to existing tables, by migration number: [table, column, definition]. */
const ADDED_COLUMNS: Record<number, readonly (readonly [string, string, string])[]> = {
  24: [
    ["site", "admin_key_by", "TEXT"],
    ["preview_links", "created_by_id", "TEXT"],
    ["webhook_endpoints", "disabled_maker", "TEXT"],
  ],
  23: [["item_revisions", "created_at", "TEXT"]],
  20: [["webhook_endpoints", "throttled_until", "INTEGER"]],
  21: [["imports", "media_origin", "TEXT"]],
  10: [["site", "image_resizing_hosts", "TEXT NOT NULL DEFAULT '[]'"]],
  11: [
    ["custom_hostnames", "challenge_name", "TEXT NOT NULL DEFAULT ''"],
    ["custom_hostnames", "challenge_value", "TEXT NOT NULL DEFAULT ''"],
    ["custom_hostnames", "owner_verified", "INTEGER NOT NULL DEFAULT 0"],
  ],
  12: [["ssr_capture", "webhook_legacy_url", "INTEGER NOT NULL DEFAULT 1"]],
  13: [
    ["items", "created_by", "TEXT"],
    ["items", "updated_by", "TEXT"],
  ],
  // Uploaded media (actors/site/media/): rows added by URL keep these NULL.
  14: [
    ["media", "object_key", "TEXT"],
    ["media", "sha256", "TEXT"],
    ["media", "type", "TEXT"],
    ["media", "bytes", "INTEGER"],
    ["media", "name", "TEXT"],
    ["media", "focal_x", "REAL"],
    ["media", "focal_y", "REAL"],
    ["media", "created_by", "TEXT"],
  ],
  15: [
    ["items", "publish_at", "INTEGER"],
    ["items", "unpublish_at", "INTEGER"],
    ["items", "schedule_tz", "TEXT"],
    ["items", "schedule_by", "TEXT"],
  ],
};

/** Statements after a step's columns exist; each harmless when replayed. */
const AFTER: Record<number, string> = {
  // The admin key is held by whoever was shown it last: the latest rotation not made with the key
  // itself (that hands the new key to the old key's holder). None on record: unknown (NULL), and the
  // workspace says whether the leaving member created the site. A share link's maker is the actor of
  // its createPreviewLink row.
  24: `UPDATE site SET admin_key_by = (
    SELECT CASE actor_kind WHEN 'operator' THEN 'operator' ELSE actor_id END FROM audit
    WHERE operation = 'rotateAdminKey' AND actor_kind <> 'siteKey' ORDER BY at DESC, seq DESC LIMIT 1);
  UPDATE preview_links SET created_by_id = (
    SELECT actor_id FROM audit
    WHERE operation = 'createPreviewLink' AND json_extract(details, '$.previewLink') = preview_links.id LIMIT 1);`,
  20: IMPORTS_MIGRATION_SQL,
  // A progress poll counts an import's rows by outcome: from this index, not from the staged rows' cells.
  21: "CREATE INDEX IF NOT EXISTS import_rows_by_outcome ON import_rows (import_id, planned, done);",
  11: "UPDATE custom_hostnames SET owner_verified = 1 WHERE ssl_status = 'active';",
  12: "CREATE TABLE IF NOT EXISTS webhook_deliveries (id TEXT PRIMARY KEY, seen_at INTEGER NOT NULL);",
  13: `CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_id TEXT, actor_label TEXT NOT NULL,
    operation TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL, ip TEXT, country TEXT, details TEXT);
  CREATE INDEX IF NOT EXISTS audit_by_at ON audit (at);
  CREATE INDEX IF NOT EXISTS audit_by_actor ON audit (actor_id, at);`,
  // Same bytes twice in a site are stored once; uploads under way are written before their first
  // byte (the sweep removes what a crash left); variants are listed so delete and sweep know them.
  14: `CREATE UNIQUE INDEX IF NOT EXISTS media_sha256 ON media (sha256) WHERE sha256 IS NOT NULL;
  CREATE TABLE IF NOT EXISTS media_uploads (
    id TEXT PRIMARY KEY, object_key TEXT NOT NULL, multipart_id TEXT, reserved_bytes INTEGER NOT NULL,
    started_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS media_variants (
    object_key TEXT NOT NULL, width INTEGER NOT NULL, format TEXT NOT NULL, key TEXT NOT NULL, bytes INTEGER NOT NULL,
    PRIMARY KEY (object_key, width, format));`,
  15: `CREATE TABLE IF NOT EXISTS item_revisions (
    seq INTEGER PRIMARY KEY, item_id TEXT NOT NULL, collection_id TEXT NOT NULL, number INTEGER NOT NULL,
    kind TEXT NOT NULL, status TEXT NOT NULL, slug TEXT NOT NULL, data TEXT NOT NULL, published_at TEXT, created_by TEXT,
    changed TEXT NOT NULL DEFAULT '[]', at INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_id TEXT, actor_label TEXT NOT NULL,
    note TEXT, UNIQUE (item_id, number));
  CREATE INDEX IF NOT EXISTS item_revisions_by_at ON item_revisions (at);
  CREATE INDEX IF NOT EXISTS item_revisions_by_kind ON item_revisions (kind, at);
  CREATE INDEX IF NOT EXISTS items_publish_due ON items (publish_at) WHERE publish_at IS NOT NULL;
  CREATE INDEX IF NOT EXISTS items_unpublish_due ON items (unpublish_at) WHERE unpublish_at IS NOT NULL;`,
};

/** Runs every site migration not run yet; ALTER TABLE steps only where their column is missing. */
export async function runSiteMigrations(storage: DurableObjectStorage): Promise<void> {
  await new SQLSchemaMigrations({ doStorage: storage, migrations: SITE_MIGRATIONS }).runAll((id) => {
    const added = ADDED_COLUMNS[id];
    if (!added) return "";
    const missing = added.filter(
      ([table, column]) => storage.sql.exec("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", table, column).toArray().length === 0,
    );
    const statements = [
      ...missing.map(([table, column, definition]) => `ALTER TABLE ${table} ADD COLUMN ${column} ${definition};`),
      AFTER[id] ?? "",
    ];
    return statements.join("\n").trim() || "SELECT 1";
  });
}
