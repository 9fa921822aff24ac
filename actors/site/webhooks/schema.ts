/**
 * Outbound webhooks' tables and the triggers that write their events (site migration 17).
 * Item, collection and capture events come from triggers, so no write path (batch, import,
 * restore, a scheduled publish) can forget one, and each event is written in the same
 * transaction as the change it announces: a change that rolls back leaves no event.
 * Applied once per database: never edit this text; a change is a new migration.
 */

/** Milliseconds since the epoch, as SQLite's clock tells them. */
const NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
const NOW_ISO = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** An enabled endpoint subscribes to `type` and no import muted events. */
const wanted = (type: string) =>
  `(EXISTS (SELECT 1 FROM webhook_endpoints e, json_each(e.events) j WHERE e.state = 'enabled' AND j.value = '${type}')
    AND NOT EXISTS (SELECT 1 FROM webhook_mute))`;

/**
 * The event row and one pending delivery per enabled endpoint subscribed to `type`, when `when`
 * holds. One trigger may emit several events in a fixed order (SQLite runs several triggers of
 * one statement in no order a program should rely on), so each statement carries its condition.
 */
const emit = (type: string, when: string, orderKey: string, data: string) => `
  INSERT INTO webhook_events (id, type, order_key, payload, created_at)
  SELECT 'msg_' || lower(hex(randomblob(16))), '${type}', ${orderKey},
         json_object('type', '${type}', 'timestamp', ${NOW_ISO}, 'data', ${data}), ${NOW_MS}
  WHERE ${when} AND ${wanted(type)};
  INSERT INTO outbound_deliveries (endpoint_id, event_seq, order_key, state, attempts, next_at)
  SELECT e.id, (SELECT max(seq) FROM webhook_events), ${orderKey}, 'pending', 0, ${NOW_MS}
  FROM webhook_endpoints e
  WHERE ${when} AND ${wanted(type)} AND e.state = 'enabled' AND EXISTS (SELECT 1 FROM json_each(e.events) j WHERE j.value = '${type}');`;

const item = (r: "new" | "old") =>
  `json_object('siteId', (SELECT id FROM site), 'collection', (SELECT slug FROM collections WHERE id = ${r}.collection_id),
     'item', json_object('id', ${r}.id, 'slug', ${r}.slug, 'status', ${r}.status, 'publishedAt', ${r}.published_at,
                         'updatedAt', ${r}.updated_at))`;
const collection = (r: "new" | "old") =>
  `json_object('siteId', (SELECT id FROM site), 'collection', json_object('id', ${r}.id, 'slug', ${r}.slug, 'name', ${r}.name))`;

/** One trigger per table event; its events in the order listed, each only when its condition holds. */
const trigger = (name: string, on: string, events: readonly (readonly [type: string, when: string, orderKey: string, data: string])[]) => `
  CREATE TRIGGER IF NOT EXISTS ${name} ${on}
  WHEN ${events.map(([type, when]) => `(${when} AND ${wanted(type)})`).join(" OR ")}
  BEGIN ${events.map(([type, when, orderKey, data]) => emit(type, when, orderKey, data)).join("\n")}
  END;`;

const ITEM_CHANGED = "(old.slug IS NOT new.slug OR old.data IS NOT new.data)";
const PUBLISHED = "(old.status <> 'published' AND new.status = 'published')";
const UNPUBLISHED = "(old.status = 'published' AND new.status <> 'published')";
const COLLECTION_CHANGED = "(old.slug IS NOT new.slug OR old.name IS NOT new.name OR old.fields IS NOT new.fields)";

export const WEBHOOKS_MIGRATION_SQL = `
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
    ["item.created", "1", "new.id", item("new")],
    ["item.published", "new.status = 'published'", "new.id", item("new")],
  ])}
  ${trigger("webhook_item_changed", "AFTER UPDATE ON items", [
    ["item.updated", ITEM_CHANGED, "new.id", item("new")],
    ["item.published", PUBLISHED, "new.id", item("new")],
    ["item.unpublished", UNPUBLISHED, "new.id", item("new")],
  ])}
  ${trigger("webhook_item_deleted", "AFTER DELETE ON items", [["item.deleted", "1", "old.id", item("old")]])}
  ${trigger("webhook_collection_created", "AFTER INSERT ON collections", [["collection.created", "1", "new.id", collection("new")]])}
  ${trigger("webhook_collection_updated", "AFTER UPDATE ON collections", [["collection.updated", COLLECTION_CHANGED, "new.id", collection("new")]])}
  ${trigger("webhook_collection_deleted", "AFTER DELETE ON collections", [["collection.deleted", "1", "old.id", collection("old")]])}
  ${trigger("webhook_capture_refreshed", "AFTER UPDATE ON ssr_capture", [
    [
      "capture.refreshed",
      "old.refreshed_at IS NOT new.refreshed_at",
      "'capture'",
      "json_object('siteId', (SELECT id FROM site), 'capture', json_object('pageUrl', new.page_url, 'refreshedAt', new.refreshed_at))",
    ],
  ])}
`;
