/**
 * The site database's steps for sites of 100,000 items (31 on): each item's values stored once,
 * counts kept as the items change, an exact substring index. Appended here from now on (migrations.ts joins the lists).
 */
import type { SiteMigration } from "./migration-step";

export const MIGRATIONS_FOR_SCALE: readonly SiteMigration[] = [
  {
    idMonotonicInc: 31,
    description: "a revision that holds the item's current values stores a mark instead of a second copy of them",
    // Owner: actors/site/storage/revisions-table.ts. `data = ''` (never JSON) reads as the item's
    // `items.data`. The triggers copy the values into every such revision before the item's data
    // changes or the item goes, so a marked revision always reads what it recorded. Existing
    // revisions are marked on the alarm, a slice of items at a time (REVISIONS_COMPACT_JOB).
    sql: `
  CREATE INDEX IF NOT EXISTS item_revisions_live ON item_revisions (item_id) WHERE data = '';
  CREATE TABLE IF NOT EXISTS revision_compaction (id INTEGER PRIMARY KEY CHECK (id = 1), done_to INTEGER NOT NULL);
  INSERT OR IGNORE INTO revision_compaction (id, done_to)
    SELECT 1, CASE WHEN EXISTS (SELECT 1 FROM items) THEN 0 ELSE 9007199254740991 END;
  CREATE TRIGGER IF NOT EXISTS item_revisions_keep_on_update BEFORE UPDATE OF data ON items
    WHEN old.data IS NOT new.data
  BEGIN
    UPDATE item_revisions SET data = old.data WHERE item_id = old.id AND data = '';
  END;
  CREATE TRIGGER IF NOT EXISTS item_revisions_keep_on_delete BEFORE DELETE ON items
  BEGIN
    UPDATE item_revisions SET data = old.data WHERE item_id = old.id AND data = '';
  END;`,
  },
  {
    idMonotonicInc: 32,
    description: "an item's kept public JSON can be its data with the expanded media laid over it, not a second copy",
    // Owner: actors/site/content/public-items.ts (keepPublicData). Rows kept in full before this
    // step are rewritten once on the alarm (PublicRebuild.startOnce), a chunk at a time.
    columns: [["item_public", "media", "TEXT"]],
  },
  {
    idMonotonicInc: 33,
    description: "how many items each collection has in each status, kept by triggers so counts read one row",
    // Owner: actors/site/storage/items-table.ts (items-queries.ts reads it). Filled from the items
    // once here, through an index of (collection_id, status): a few milliseconds at 100,000.
    sql: `
  CREATE TABLE IF NOT EXISTS item_counts (
    collection_id TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (collection_id, status)
  ) WITHOUT ROWID;
  DELETE FROM item_counts;
  INSERT INTO item_counts (collection_id, status, n) SELECT collection_id, status, count(*) FROM items GROUP BY collection_id, status;
  CREATE TRIGGER IF NOT EXISTS item_counts_on_insert AFTER INSERT ON items
  BEGIN
    INSERT INTO item_counts (collection_id, status, n) VALUES (new.collection_id, new.status, 1)
      ON CONFLICT (collection_id, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS item_counts_on_delete AFTER DELETE ON items
  BEGIN
    UPDATE item_counts SET n = n - 1 WHERE collection_id = old.collection_id AND status = old.status;
  END;
  CREATE TRIGGER IF NOT EXISTS item_counts_on_update AFTER UPDATE OF collection_id, status ON items
    WHEN old.collection_id IS NOT new.collection_id OR old.status IS NOT new.status
  BEGIN
    UPDATE item_counts SET n = n - 1 WHERE collection_id = old.collection_id AND status = old.status;
    INSERT INTO item_counts (collection_id, status, n) VALUES (new.collection_id, new.status, 1)
      ON CONFLICT (collection_id, status) DO UPDATE SET n = n + 1;
  END;`,
  },
  {
    idMonotonicInc: 34,
    description: "the substring index holds each item's slug after its search text, so the dashboard's search uses it too",
    // Owner: actors/site/storage/search-index.ts. The index is emptied and filled again on the alarm
    // (SEARCH_INDEX_JOB, from the view), since its entries were made from the old text; searches
    // scan until it is full, as on a site from before the index.
    sql: `
  DROP TRIGGER IF EXISTS items_fts_insert;
  DROP TRIGGER IF EXISTS items_fts_delete;
  DROP TRIGGER IF EXISTS items_fts_update;
  INSERT INTO items_fts (items_fts) VALUES ('delete-all');
  UPDATE search_index_state SET built_to = CASE WHEN EXISTS (SELECT 1 FROM items) THEN 0 ELSE 9007199254740991 END;
  DROP VIEW IF EXISTS items_search_source;
  CREATE VIEW items_search_source AS SELECT seq, search_text || char(31, 31) || slug || char(31, 31) AS body FROM items;
  CREATE TRIGGER items_fts_insert AFTER INSERT ON items
    WHEN new.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (rowid, body) VALUES (new.seq, new.search_text || char(31, 31) || new.slug || char(31, 31));
  END;
  CREATE TRIGGER items_fts_delete AFTER DELETE ON items
    WHEN old.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (items_fts, rowid, body) VALUES ('delete', old.seq, old.search_text || char(31, 31) || old.slug || char(31, 31));
  END;
  CREATE TRIGGER items_fts_update AFTER UPDATE OF search_text, slug ON items
    WHEN (old.search_text IS NOT new.search_text OR old.slug IS NOT new.slug)
      AND old.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (items_fts, rowid, body) VALUES ('delete', old.seq, old.search_text || char(31, 31) || old.slug || char(31, 31));
    INSERT INTO items_fts (rowid, body) VALUES (new.seq, new.search_text || char(31, 31) || new.slug || char(31, 31));
  END;`,
  },
  {
    idMonotonicInc: 35,
    description: "the sitemap's parts past 5,000 items: how many URLs each holds and its latest change, for the index",
    // Owner: actors/site/seo/documents.ts. Part k holds the published items whose seq is in the
    // k-th 5,000 (URLS_PER_PART), so a change rewrites only its item's part and the index.
    sql: `
  CREATE TABLE IF NOT EXISTS sitemap_parts (part INTEGER PRIMARY KEY, urls INTEGER NOT NULL, lastmod TEXT NOT NULL);`,
  },
  {
    idMonotonicInc: 36,
    description: "the substring index answers exactly: the search text and the slug in columns of their own, with positions",
    // Owner: actors/site/storage/search-index.ts. With each trigram's positions (detail=full) a
    // term is matched as a phrase from the index alone, and without case folding of its own
    // (case_sensitive 1: the stored text and the term are folded by foldForSearch) the match is
    // exactly `instr`'s, so no item needs reading to check it, and a column filter keeps the slug
    // out of the content API's search. Filled again on the alarm, as migration 34's was.
    sql: `
  DROP TRIGGER IF EXISTS items_fts_insert;
  DROP TRIGGER IF EXISTS items_fts_delete;
  DROP TRIGGER IF EXISTS items_fts_update;
  DROP TABLE IF EXISTS items_fts_vocab;
  DROP TABLE IF EXISTS items_fts;
  DROP VIEW IF EXISTS items_search_source;
  CREATE VIEW items_search_source AS SELECT seq, search_text || char(31, 31) AS text, slug || char(31, 31) AS slug FROM items;
  CREATE VIRTUAL TABLE items_fts USING fts5(text, slug, content='items_search_source', content_rowid='seq',
    tokenize='trigram case_sensitive 1', columnsize=0);
  CREATE VIRTUAL TABLE items_fts_vocab USING fts5vocab(items_fts, 'row');
  UPDATE search_index_state SET built_to = CASE WHEN EXISTS (SELECT 1 FROM items) THEN 0 ELSE 9007199254740991 END;
  CREATE TRIGGER items_fts_insert AFTER INSERT ON items
    WHEN new.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (rowid, text, slug) VALUES (new.seq, new.search_text || char(31, 31), new.slug || char(31, 31));
  END;
  CREATE TRIGGER items_fts_delete AFTER DELETE ON items
    WHEN old.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (items_fts, rowid, text, slug) VALUES ('delete', old.seq, old.search_text || char(31, 31), old.slug || char(31, 31));
  END;
  CREATE TRIGGER items_fts_update AFTER UPDATE OF search_text, slug ON items
    WHEN (old.search_text IS NOT new.search_text OR old.slug IS NOT new.slug)
      AND old.seq <= (SELECT built_to FROM search_index_state WHERE id = 1)
  BEGIN
    INSERT INTO items_fts (items_fts, rowid, text, slug) VALUES ('delete', old.seq, old.search_text || char(31, 31), old.slug || char(31, 31));
    INSERT INTO items_fts (rowid, text, slug) VALUES (new.seq, new.search_text || char(31, 31), new.slug || char(31, 31));
  END;`,
  },
  {
    idMonotonicInc: 37,
    description: "the local vector index stores int8 codes and their scale instead of float32 vectors",
    // Owner: actors/site/search/sqlite-index.ts. A row whose scale is NULL holds the float32
    // vector it was stored with; those are read as they are and rewritten in slices on the alarm
    // (vectors-compact), found through the partial index, which is empty once they are done.
    columns: [["item_vectors", "scale", "REAL"]],
    sql: "CREATE INDEX IF NOT EXISTS item_vectors_float ON item_vectors (item_id) WHERE scale IS NULL;",
  },
  {
    idMonotonicInc: 38,
    description: "locales: the site's locales and each item's translations",
    // Owner: actors/site/storage/locales-table.ts. A locale's id is never reused, so translations
    // of a removed locale (purged in slices on the alarm) never reappear under a code added again.
    // A translation holds its locale's own values of the localized fields and the folded search
    // text of the values a reader of that locale sees (its own, then its fallbacks'). An edit of
    // the item's own searchable text marks its translations' texts stale and queues their rebuild
    // (content/translations.ts), whichever write path made it.
    sql: `
  CREATE TABLE IF NOT EXISTS site_locales (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL UNIQUE,
    position INTEGER NOT NULL,
    fallback INTEGER
  );
  CREATE TABLE IF NOT EXISTS item_locales (
    seq INTEGER NOT NULL,
    locale INTEGER NOT NULL,
    collection_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    data TEXT NOT NULL,
    search_text TEXT NOT NULL DEFAULT '',
    own_search_text TEXT NOT NULL DEFAULT '',
    stale INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (seq, locale),
    UNIQUE (collection_id, locale, slug)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS item_locales_by_locale ON item_locales (locale, seq);
  CREATE INDEX IF NOT EXISTS item_locales_stale ON item_locales (seq) WHERE stale = 1;
  CREATE TRIGGER IF NOT EXISTS item_locales_item_gone AFTER DELETE ON items
  BEGIN
    DELETE FROM item_locales WHERE seq = old.seq;
  END;
  CREATE TRIGGER IF NOT EXISTS item_locales_item_text AFTER UPDATE OF search_text ON items
    WHEN old.search_text IS NOT new.search_text AND EXISTS (SELECT 1 FROM item_locales WHERE seq = new.seq)
  BEGIN
    UPDATE item_locales SET stale = 1 WHERE seq = new.seq;
    INSERT OR IGNORE INTO jobs (kind, key, run_at) VALUES ('translations-search', 'all', 0);
  END;`,
  },
  {
    idMonotonicInc: 39,
    description: "kept counts of each collection's items per locale and status",
    // Owner: actors/site/storage/locales-table.ts. An unfiltered list in a locale reads its total
    // here, as item_counts serves the primary's. Kept by triggers on item_locales (a translation
    // made or deleted) and on items (a status change, or the item deleted: its count goes before
    // its translations, whose own delete then finds no item and counts nothing).
    sql: `
  CREATE TABLE IF NOT EXISTS item_locale_counts (
    collection_id TEXT NOT NULL, locale INTEGER NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (collection_id, locale, status)
  ) WITHOUT ROWID;
  DELETE FROM item_locale_counts;
  INSERT INTO item_locale_counts (collection_id, locale, status, n)
    SELECT t.collection_id, t.locale, i.status, count(*) FROM item_locales t JOIN items i ON i.seq = t.seq GROUP BY 1, 2, 3;
  CREATE TRIGGER IF NOT EXISTS item_locale_counts_on_insert AFTER INSERT ON item_locales
  BEGIN
    INSERT INTO item_locale_counts (collection_id, locale, status, n)
      SELECT new.collection_id, new.locale, status, 1 FROM items WHERE seq = new.seq
      ON CONFLICT (collection_id, locale, status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS item_locale_counts_on_delete AFTER DELETE ON item_locales
  BEGIN
    UPDATE item_locale_counts SET n = n - 1
      WHERE collection_id = old.collection_id AND locale = old.locale AND status = (SELECT status FROM items WHERE seq = old.seq);
  END;
  DROP TRIGGER IF EXISTS item_locales_item_gone;
  CREATE TRIGGER item_locales_item_gone AFTER DELETE ON items
  BEGIN
    UPDATE item_locale_counts SET n = n - 1
      WHERE status = old.status AND (collection_id, locale) IN (SELECT collection_id, locale FROM item_locales WHERE seq = old.seq);
    DELETE FROM item_locales WHERE seq = old.seq;
  END;
  CREATE TRIGGER IF NOT EXISTS item_locale_counts_on_status AFTER UPDATE OF status ON items
    WHEN old.status IS NOT new.status AND EXISTS (SELECT 1 FROM item_locales WHERE seq = new.seq)
  BEGIN
    UPDATE item_locale_counts SET n = n - 1
      WHERE status = old.status AND (collection_id, locale) IN (SELECT collection_id, locale FROM item_locales WHERE seq = new.seq);
    INSERT INTO item_locale_counts (collection_id, locale, status, n)
      SELECT collection_id, locale, new.status, 1 FROM item_locales WHERE seq = new.seq
      ON CONFLICT (collection_id, locale, status) DO UPDATE SET n = n + 1;
  END;`,
  },
  {
    idMonotonicInc: 40,
    description: "import rows in several locales: each row's locale and the item it belongs to",
    // Owner: actors/site/imports/store.ts. A translation row (a secondary locale) finds the row of
    // its item in the primary by the file's item id (Webflow's `Item ID`), through the index.
    columns: [
      ["import_rows", "locale", "TEXT"],
      ["import_rows", "item_ref", "TEXT"],
    ],
    sql: "CREATE INDEX IF NOT EXISTS import_rows_by_item_ref ON import_rows (import_id, item_ref) WHERE item_ref IS NOT NULL;",
  },
  {
    idMonotonicInc: 41,
    description: "the old slugs of translations, so a renamed translation's old address answers 301",
    // Owner: actors/site/storage/locales-table.ts. As slug_redirects does for items: written by
    // triggers, so every path that renames a translation (the PUT, an import) leaves its redirect;
    // a row names the translation's item, so chains collapse; a slug taken again stops redirecting.
    sql: `
  CREATE TABLE IF NOT EXISTS translation_slug_moves (
    collection_id TEXT NOT NULL,
    locale INTEGER NOT NULL,
    slug TEXT NOT NULL,
    seq INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (collection_id, locale, slug)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS translation_slug_moves_by_item ON translation_slug_moves (seq, locale);
  CREATE TRIGGER IF NOT EXISTS translation_slug_move_on_rename AFTER UPDATE OF slug ON item_locales WHEN old.slug IS NOT new.slug
  BEGIN
    DELETE FROM translation_slug_moves WHERE collection_id = new.collection_id AND locale = new.locale AND slug = new.slug;
    INSERT OR REPLACE INTO translation_slug_moves (collection_id, locale, slug, seq, created_at)
    VALUES (old.collection_id, old.locale, old.slug, old.seq, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  END;
  CREATE TRIGGER IF NOT EXISTS translation_slug_move_on_insert AFTER INSERT ON item_locales
  BEGIN
    DELETE FROM translation_slug_moves WHERE collection_id = new.collection_id AND locale = new.locale AND slug = new.slug;
  END;
  CREATE TRIGGER IF NOT EXISTS translation_slug_move_on_delete AFTER DELETE ON item_locales
  BEGIN
    DELETE FROM translation_slug_moves WHERE seq = old.seq AND locale = old.locale;
  END;`,
  },
  {
    idMonotonicInc: 42,
    description: "an import's translation rows counted by outcome from an index",
    // Owner: actors/site/imports/store.ts. The forecast and report say how many rows are
    // translations; counted here, not from the staged rows' cells (as import_rows_by_outcome).
    sql: "CREATE INDEX IF NOT EXISTS import_rows_translations ON import_rows (import_id, planned, done) WHERE locale IS NOT NULL;",
  },
];
