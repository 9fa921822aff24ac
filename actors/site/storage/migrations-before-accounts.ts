import type { SiteMigration } from "./migration-step";

/**
 * Site migrations 1–12: the site before accounts (content, jobs, capture, search, SEO documents,
 * custom hostnames, public JSON, owner sessions, image hosts, signed publish webhooks).
 */
export const MIGRATIONS_BEFORE_ACCOUNTS: SiteMigration[] = [
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
    columns: [["site", "image_resizing_hosts", "TEXT NOT NULL DEFAULT '[]'"]],
  },
  {
    idMonotonicInc: 11,
    description: "custom hostnames: the DNS ownership proof (TXT) each registration must show",
    // Hostnames active before the proof existed keep serving (they were validated the old way);
    // every pending one gets its challenge on its next check.
    columns: [
      ["custom_hostnames", "challenge_name", "TEXT NOT NULL DEFAULT ''"],
      ["custom_hostnames", "challenge_value", "TEXT NOT NULL DEFAULT ''"],
      ["custom_hostnames", "owner_verified", "INTEGER NOT NULL DEFAULT 0"],
    ],
    sql: "UPDATE custom_hostnames SET owner_verified = 1 WHERE ssl_status = 'active';",
  },
  {
    idMonotonicInc: 12,
    description: "publish webhook: signed deliveries accepted once; the secret-in-URL form only for hooks made before",
    // Existing captures keep accepting their old URL (secret in the path) until the owner rotates the secret.
    columns: [["ssr_capture", "webhook_legacy_url", "INTEGER NOT NULL DEFAULT 1"]],
    sql: "CREATE TABLE IF NOT EXISTS webhook_deliveries (id TEXT PRIMARY KEY, seen_at INTEGER NOT NULL);",
  },
];
