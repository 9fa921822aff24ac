/**
 * The SQL of the triggers that write outbound webhooks' events (site migration 17). Item,
 * collection and capture events come from triggers, so no write path (batch, import, restore, a
 * scheduled publish) can forget one, and each event is written in the same transaction as the
 * change it announces: a change that rolls back leaves no event. Applied once per database:
 * never edit what this makes; a change is a new migration.
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

/** The `data` of an item event: the site, the collection's slug, the item (`new` or `old` row). */
export const itemData = (r: "new" | "old") =>
  `json_object('siteId', (SELECT id FROM site), 'collection', (SELECT slug FROM collections WHERE id = ${r}.collection_id),
     'item', json_object('id', ${r}.id, 'slug', ${r}.slug, 'status', ${r}.status, 'publishedAt', ${r}.published_at,
                         'updatedAt', ${r}.updated_at))`;
/** The `data` of a collection event. */
export const collectionData = (r: "new" | "old") =>
  `json_object('siteId', (SELECT id FROM site), 'collection', json_object('id', ${r}.id, 'slug', ${r}.slug, 'name', ${r}.name))`;

/** One trigger per table event; its events in the order listed, each only when its condition holds. */
export const trigger = (
  name: string,
  on: string,
  events: readonly (readonly [type: string, when: string, orderKey: string, data: string])[],
) => `
  CREATE TRIGGER IF NOT EXISTS ${name} ${on}
  WHEN ${events.map(([type, when]) => `(${when} AND ${wanted(type)})`).join(" OR ")}
  BEGIN ${events.map(([type, when, orderKey, data]) => emit(type, when, orderKey, data)).join("\n")}
  END;`;
