/**
 * Imports' tables (site migration 20). The parsed file is staged here, a row per record, so
 * every pass of the import (dry run, write, link) walks rows by number and resumes after a
 * restart from the last row it committed; nothing is held in memory between slices.
 * Applied once per database: never edit this text; a change is a new migration.
 */
export const IMPORTS_MIGRATION_SQL = `
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
`;
