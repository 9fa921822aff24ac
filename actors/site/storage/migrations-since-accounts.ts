import type { SiteMigration } from "./migration-step";
import { collectionData, itemData, trigger } from "./webhook-trigger-sql";

/**
 * Site migrations 13 to 30: accounts and what came after them (audit, uploaded media, history,
 * pending changes, outbound webhooks, share links, imports, makers, redirects, the substring index),
 * New steps go to migrations-for-scale.ts.
 */
export const MIGRATIONS_SINCE_ACCOUNTS: SiteMigration[] = [
  {
    idMonotonicInc: 13,
    description: "accounts: who created and last changed each item, and the site's audit log",
    // NULL authors are items made before accounts (an admin key or the operator): only roles
    // that may change every item can change them. Audit rows are written in the same
    // transaction as the change they record (actors/site/access/audit.ts).
    columns: [
      ["items", "created_by", "TEXT"],
      ["items", "updated_by", "TEXT"],
    ],
    sql: `CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_id TEXT, actor_label TEXT NOT NULL,
    operation TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL, ip TEXT, country TEXT, details TEXT);
  CREATE INDEX IF NOT EXISTS audit_by_at ON audit (at);
  CREATE INDEX IF NOT EXISTS audit_by_actor ON audit (actor_id, at);`,
  },
  {
    idMonotonicInc: 14,
    description: "uploaded media: the R2 object, its SHA-256, type, size, name, focal point and uploader; uploads under way; variants",
    // Owner of media_uploads and media_variants: actors/site/media/. Rows added by URL keep the
    // new columns NULL. Same bytes twice in a site are stored once; uploads under way are written
    // before their first byte (the sweep removes what a crash left); variants are listed so delete
    // and sweep know them.
    columns: [
      ["media", "object_key", "TEXT"],
      ["media", "sha256", "TEXT"],
      ["media", "type", "TEXT"],
      ["media", "bytes", "INTEGER"],
      ["media", "name", "TEXT"],
      ["media", "focal_x", "REAL"],
      ["media", "focal_y", "REAL"],
      ["media", "created_by", "TEXT"],
    ],
    sql: `CREATE UNIQUE INDEX IF NOT EXISTS media_sha256 ON media (sha256) WHERE sha256 IS NOT NULL;
  CREATE TABLE IF NOT EXISTS media_uploads (
    id TEXT PRIMARY KEY, object_key TEXT NOT NULL, multipart_id TEXT, reserved_bytes INTEGER NOT NULL,
    started_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS media_variants (
    object_key TEXT NOT NULL, width INTEGER NOT NULL, format TEXT NOT NULL, key TEXT NOT NULL, bytes INTEGER NOT NULL,
    PRIMARY KEY (object_key, width, format));`,
  },
  {
    idMonotonicInc: 15,
    description: "history: a revision of every item change; publish and unpublish times of scheduled items",
    // Items from before history get their baseline revision on their first change (nothing is
    // copied here, inside blockConcurrencyWhile).
    columns: [
      ["items", "publish_at", "INTEGER"],
      ["items", "unpublish_at", "INTEGER"],
      ["items", "schedule_tz", "TEXT"],
      ["items", "schedule_by", "TEXT"],
    ],
    sql: `CREATE TABLE IF NOT EXISTS item_revisions (
    seq INTEGER PRIMARY KEY, item_id TEXT NOT NULL, collection_id TEXT NOT NULL, number INTEGER NOT NULL,
    kind TEXT NOT NULL, status TEXT NOT NULL, slug TEXT NOT NULL, data TEXT NOT NULL, published_at TEXT, created_by TEXT,
    changed TEXT NOT NULL DEFAULT '[]', at INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_id TEXT, actor_label TEXT NOT NULL,
    note TEXT, UNIQUE (item_id, number));
  CREATE INDEX IF NOT EXISTS item_revisions_by_at ON item_revisions (at);
  CREATE INDEX IF NOT EXISTS item_revisions_by_kind ON item_revisions (kind, at);
  CREATE INDEX IF NOT EXISTS items_publish_due ON items (publish_at) WHERE publish_at IS NOT NULL;
  CREATE INDEX IF NOT EXISTS items_unpublish_due ON items (unpublish_at) WHERE unpublish_at IS NOT NULL;`,
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
    // Owners: actors/site/webhooks/ (endpoints.ts, outbox.ts, deliver.ts).
    sql: `
  CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_secret_until INTEGER,
    state TEXT NOT NULL CHECK (state IN ('enabled', 'disabled')),
    disabled_reason TEXT CHECK (disabled_reason IN ('gone', 'failing', 'owner')),
    disabled_at INTEGER,
    created_by TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS webhook_events (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    order_key TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS outbound_deliveries (
    endpoint_id TEXT NOT NULL,
    event_seq INTEGER NOT NULL,
    order_key TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    done_at INTEGER,
    PRIMARY KEY (endpoint_id, event_seq)
  );
  CREATE INDEX IF NOT EXISTS outbound_due ON outbound_deliveries (next_at) WHERE state = 'pending';
  CREATE INDEX IF NOT EXISTS outbound_order ON outbound_deliveries (endpoint_id, order_key, event_seq) WHERE state = 'pending';
  CREATE TABLE IF NOT EXISTS outbound_attempts (
    seq INTEGER PRIMARY KEY,
    endpoint_id TEXT NOT NULL,
    event_seq INTEGER NOT NULL,
    at INTEGER NOT NULL,
    status INTEGER,
    duration_ms INTEGER NOT NULL,
    error TEXT,
    response_head TEXT
  );
  CREATE INDEX IF NOT EXISTS outbound_attempts_by_delivery ON outbound_attempts (endpoint_id, event_seq, seq);
  CREATE TABLE IF NOT EXISTS webhook_mute (id INTEGER PRIMARY KEY CHECK (id = 1));
  ${trigger("webhook_item_inserted", "AFTER INSERT ON items", [
    ["item.created", "1", "new.id", itemData("new")],
    ["item.published", "new.status = 'published'", "new.id", itemData("new")],
  ])}
  ${trigger("webhook_item_changed", "AFTER UPDATE ON items", [
    ["item.updated", "(old.slug IS NOT new.slug OR old.data IS NOT new.data)", "new.id", itemData("new")],
    ["item.published", "(old.status <> 'published' AND new.status = 'published')", "new.id", itemData("new")],
    ["item.unpublished", "(old.status = 'published' AND new.status <> 'published')", "new.id", itemData("new")],
  ])}
  ${trigger("webhook_item_deleted", "AFTER DELETE ON items", [["item.deleted", "1", "old.id", itemData("old")]])}
  ${trigger("webhook_collection_created", "AFTER INSERT ON collections", [["collection.created", "1", "new.id", collectionData("new")]])}
  ${trigger("webhook_collection_updated", "AFTER UPDATE ON collections", [["collection.updated", "(old.slug IS NOT new.slug OR old.name IS NOT new.name OR old.fields IS NOT new.fields)", "new.id", collectionData("new")]])}
  ${trigger("webhook_collection_deleted", "AFTER DELETE ON collections", [["collection.deleted", "1", "old.id", collectionData("old")]])}
  ${trigger("webhook_capture_refreshed", "AFTER UPDATE ON ssr_capture", [
    [
      "capture.refreshed",
      "old.refreshed_at IS NOT new.refreshed_at",
      "'capture'",
      "json_object('siteId', (SELECT id FROM site), 'capture', json_object('pageUrl', new.page_url, 'refreshedAt', new.refreshed_at))",
    ],
  ])}
`,
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
    // (a database that ran 19 would never run an 18). The parsed file is staged a row per record, so
    // every pass of an import (dry run, write, link) walks rows by number and resumes after a
    // restart from the last row it committed; nothing is held in memory between slices.
    columns: [["webhook_endpoints", "throttled_until", "INTEGER"]],
    sql: `
  CREATE TABLE IF NOT EXISTS imports (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('csv', 'json', 'site')),
    collection_id TEXT,
    file_name TEXT NOT NULL,
    file_bytes INTEGER NOT NULL,
    delimiter TEXT NOT NULL,
    header TEXT NOT NULL,
    head TEXT,
    mapping TEXT NOT NULL DEFAULT '[]',
    state TEXT NOT NULL CHECK (state IN ('receiving', 'uploaded', 'checking', 'checked', 'importing', 'linking', 'cancelling',
                                         'done', 'failed', 'cancelled')),
    pass_row INTEGER NOT NULL DEFAULT 0,
    rows_total INTEGER NOT NULL DEFAULT 0,
    actor TEXT,
    failure TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER
  );
  CREATE INDEX IF NOT EXISTS imports_by_created ON imports (created_at);
  CREATE TABLE IF NOT EXISTS import_rows (
    import_id TEXT NOT NULL,
    row INTEGER NOT NULL,
    line INTEGER NOT NULL,
    cells TEXT NOT NULL,
    slug TEXT,
    planned TEXT CHECK (planned IN ('create', 'update', 'skip', 'error')),
    done TEXT CHECK (done IN ('created', 'updated', 'skipped', 'failed', 'pending')),
    item_id TEXT,
    problems TEXT,
    refs TEXT,
    PRIMARY KEY (import_id, row)
  );
  CREATE INDEX IF NOT EXISTS import_rows_by_slug ON import_rows (import_id, slug);
`,
  },
  {
    idMonotonicInc: 21,
    description: "imports: the origin an import copies its images into the library under; import rows counted by outcome from an index",
    // A progress poll counts an import's rows by outcome: from this index, not from the staged rows' cells.
    columns: [["imports", "media_origin", "TEXT"]],
    sql: "CREATE INDEX IF NOT EXISTS import_rows_by_outcome ON import_rows (import_id, planned, done);",
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
    // Revisions written before keep NULL (an undelete of those takes the time it runs).
    columns: [["item_revisions", "created_at", "TEXT"]],
  },
  {
    idMonotonicInc: 24,
    description: "who holds the admin key, who made each share link, and webhook endpoints paused because their maker went",
    // What a member made stands only while they may make it (src/access/maker.ts). The two makers
    // are filled from the site's audit log (kept 400 days). The admin key is held by whoever was
    // shown it last: the latest rotation not made with the key itself (that hands the new key to
    // the old key's holder). None on record: unknown (NULL), and the workspace says whether the
    // leaving member created the site. A share link's maker is the actor of its createPreviewLink row.
    columns: [
      ["site", "admin_key_by", "TEXT"],
      ["preview_links", "created_by_id", "TEXT"],
      ["webhook_endpoints", "disabled_maker", "TEXT"],
    ],
    sql: `UPDATE site SET admin_key_by = (
    SELECT CASE actor_kind WHEN 'operator' THEN 'operator' ELSE actor_id END FROM audit
    WHERE operation = 'rotateAdminKey' AND actor_kind <> 'siteKey' ORDER BY at DESC, seq DESC LIMIT 1);
  UPDATE preview_links SET created_by_id = (
    SELECT actor_id FROM audit
    WHERE operation = 'createPreviewLink' AND json_extract(details, '$.previewLink') = preview_links.id LIMIT 1);`,
  },
  {
    idMonotonicInc: 25,
    description: "the name of the person behind an audit row and a revision, as they gave it at sign-up",
    // Rows written before keep NULL: the email (actor_label) stays how they are shown.
    columns: [
      ["audit", "actor_name", "TEXT"],
      ["item_revisions", "actor_name", "TEXT"],
    ],
  },
  {
    idMonotonicInc: 26,
    description: "where and when the embed script last ran on one of the site's pages",
    // Sites from before keep NULL: not seen yet, until a page with the widget is viewed.
    columns: [
      ["site", "widget_seen_at", "TEXT"],
      ["site", "widget_seen_page", "TEXT"],
    ],
  },
  {
    idMonotonicInc: 27,
    description: "the old slugs of published items, so their old addresses answer 301 to the current one",
    // Owner: actors/site/storage/slug-redirects-table.ts. Written by triggers, so every path that
    // renames an item (PATCH, publishing pending changes, restore, import) leaves its redirect.
    // A row names the item, not a slug: chains collapse (a and b both lead to the item's slug
    // now) and no loop can form. A slug taken by an item (new or renamed back) stops redirecting.
    sql: `
  CREATE TABLE IF NOT EXISTS slug_redirects (
    collection_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    item_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (collection_id, slug)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS slug_redirects_by_item ON slug_redirects (item_id);
  CREATE TRIGGER IF NOT EXISTS slug_redirect_on_rename AFTER UPDATE OF slug ON items WHEN old.slug IS NOT new.slug
  BEGIN
    DELETE FROM slug_redirects WHERE collection_id = new.collection_id AND slug = new.slug;
    INSERT OR REPLACE INTO slug_redirects (collection_id, slug, item_id, created_at)
    SELECT old.collection_id, old.slug, old.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE old.status = 'published';
  END;
  CREATE TRIGGER IF NOT EXISTS slug_redirect_on_insert AFTER INSERT ON items
  BEGIN
    DELETE FROM slug_redirects WHERE collection_id = new.collection_id AND slug = new.slug;
  END;
  CREATE TRIGGER IF NOT EXISTS slug_redirect_on_delete AFTER DELETE ON items
  BEGIN
    DELETE FROM slug_redirects WHERE item_id = old.id;
  END;`,
  },
  {
    idMonotonicInc: 28,
    description: "the slugs of published items since deleted or unpublished, so their pages may answer 410 Gone",
    // Owner: actors/site/storage/slug-redirects-table.ts. Written by triggers like slug_redirects:
    // a published item deleted or unpublished leaves its slug; publishing an item at that slug
    // takes it back. Rows older than a year (the longest 410 an owner may choose) are dropped.
    sql: `
  CREATE TABLE IF NOT EXISTS gone_slugs (
    collection_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    gone_at TEXT NOT NULL,
    PRIMARY KEY (collection_id, slug)
  ) WITHOUT ROWID;
  CREATE TRIGGER IF NOT EXISTS gone_on_delete AFTER DELETE ON items WHEN old.status = 'published'
  BEGIN
    DELETE FROM gone_slugs WHERE gone_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-366 days');
    INSERT OR REPLACE INTO gone_slugs (collection_id, slug, gone_at) VALUES (old.collection_id, old.slug, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  END;
  CREATE TRIGGER IF NOT EXISTS gone_on_unpublish AFTER UPDATE OF status ON items WHEN old.status = 'published' AND new.status <> 'published'
  BEGIN
    DELETE FROM gone_slugs WHERE gone_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-366 days');
    INSERT OR REPLACE INTO gone_slugs (collection_id, slug, gone_at) VALUES (old.collection_id, old.slug, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  END;
  CREATE TRIGGER IF NOT EXISTS gone_back_on_publish AFTER UPDATE ON items WHEN new.status = 'published'
  BEGIN
    DELETE FROM gone_slugs WHERE collection_id = new.collection_id AND slug = new.slug;
  END;
  CREATE TRIGGER IF NOT EXISTS gone_back_on_insert AFTER INSERT ON items WHEN new.status = 'published'
  BEGIN
    DELETE FROM gone_slugs WHERE collection_id = new.collection_id AND slug = new.slug;
  END;`,
  },
  {
    idMonotonicInc: 29,
    description: "the owner's redirects of rendered pages: an old path of the site's host to a new path or URL",
    // Owner: actors/site/storage/redirects-table.ts. `from_path` is kept as requests are matched
    // (no trailing slash but the root's), so one indexed lookup answers a page.
    sql: `
  CREATE TABLE IF NOT EXISTS redirects (
    id TEXT PRIMARY KEY,
    from_path TEXT NOT NULL UNIQUE,
    to_url TEXT NOT NULL,
    status INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );`,
  },
  {
    idMonotonicInc: 30,
    description: "a trigram index of the items' search text, so substring search reads only the items that may match",
    // Owner: actors/site/storage/search-index.ts. Each text is indexed with two separators after it
    // (char 31), so every occurrence of a short term starts a trigram. The triggers keep the rows
    // the backfill has passed (seq <= built_to); a new site's index is complete at once, an older
    // site's is filled on the alarm (SEARCH_INDEX_JOB) while searches scan as before.
    sql: `
  CREATE TABLE IF NOT EXISTS search_index_state (id INTEGER PRIMARY KEY CHECK (id = 1), built_to INTEGER NOT NULL);
  INSERT OR IGNORE INTO search_index_state (id, built_to)
    SELECT 1, CASE WHEN EXISTS (SELECT 1 FROM items) THEN 0 ELSE 9007199254740991 END;
  CREATE VIEW IF NOT EXISTS items_search_source AS SELECT seq, search_text || char(31, 31) AS body FROM items;
  CREATE VIRTUAL TABLE IF NOT EXISTS items_fts USING fts5(body, content='items_search_source', content_rowid='seq', tokenize='trigram', detail='none', columnsize=0);
  CREATE VIRTUAL TABLE IF NOT EXISTS items_fts_vocab USING fts5vocab(items_fts, 'row');
  CREATE TRIGGER IF NOT EXISTS items_fts_insert AFTER INSERT ON items
    WHEN new.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (rowid, body) VALUES (new.seq, new.search_text || char(31, 31));
  END;
  CREATE TRIGGER IF NOT EXISTS items_fts_delete AFTER DELETE ON items
    WHEN old.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (items_fts, rowid, body) VALUES ('delete', old.seq, old.search_text || char(31, 31));
  END;
  CREATE TRIGGER IF NOT EXISTS items_fts_update AFTER UPDATE OF search_text ON items
    WHEN old.search_text IS NOT new.search_text AND old.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (items_fts, rowid, body) VALUES ('delete', old.seq, old.search_text || char(31, 31));
    INSERT INTO items_fts (rowid, body) VALUES (new.seq, new.search_text || char(31, 31));
  END;`,
  },
];
