/**
 * Events written by code rather than by the triggers of schema.ts (owner of `webhook_events` and
 * `webhook_mute`): the test event of one endpoint, events of features without a table trigger
 * (an import finishing), and the item events of an import's row written in two steps. Call inside
 * the transaction of the change the event announces.
 */
import type { WebhookEventType } from "../../../src/contract/webhook-limits";
import { randomHex } from "../../../src/ids";
import type { ItemRow } from "../storage/rows";
import { enqueue } from "./deliveries";

/** Inserts the event and a pending delivery for each endpoint given (enabled ones subscribed to `type` by default). */
export function recordEvent(
  sql: SqlStorage,
  type: WebhookEventType | "webhook.test",
  orderKey: string,
  data: Record<string, unknown>,
  now: number,
  endpointIds?: readonly string[],
): { seq: number; id: string } {
  const targets =
    endpointIds ??
    sql
      .exec<{ id: string }>(
        `SELECT e.id FROM webhook_endpoints e
         WHERE e.state = 'enabled' AND EXISTS (SELECT 1 FROM json_each(e.events) j WHERE j.value = ?)
           AND NOT EXISTS (SELECT 1 FROM webhook_mute)`,
        type,
      )
      .toArray()
      .map((r) => r.id);
  const id = `msg_${randomHex(16)}`;
  const payload = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
  const seq = sql
    .exec<{ seq: number }>(
      "INSERT INTO webhook_events (id, type, order_key, payload, created_at) VALUES (?, ?, ?, ?, ?) RETURNING seq",
      id,
      type,
      orderKey,
      payload,
      now,
    )
    .one().seq;
  for (const endpointId of targets) enqueue(sql, endpointId, seq, orderKey, now);
  return { seq, id };
}

/**
 * `write` with item events off (a write a receiver must not hear of: an import's draft written
 * before its references exist, announced by `recordItemCreated` once they do, or removed
 * unannounced). Call inside the transaction of the write; events are on again when it returns.
 */
export function withoutItemEvents<T>(sql: SqlStorage, write: () => T): T {
  sql.exec("INSERT OR IGNORE INTO webhook_mute (id) VALUES (1)");
  try {
    return write();
  } finally {
    sql.exec("DELETE FROM webhook_mute");
  }
}

/**
 * The events the `items` insert trigger would have written for `item` (schema.ts): `item.created`,
 * then `item.published` when it is published, with the trigger's payload. For an item whose
 * insert was muted (withoutItemEvents), announced once it is whole.
 */
export function recordItemCreated(sql: SqlStorage, siteId: string, collection: string, item: ItemRow, now: number): void {
  const data = {
    siteId,
    collection,
    item: { id: item.id, slug: item.slug, status: item.status, publishedAt: item.published_at, updatedAt: item.updated_at },
  };
  recordEvent(sql, "item.created", item.id, data, now);
  if (item.status === "published") recordEvent(sql, "item.published", item.id, data, now);
}

/** Events older than `cutoff` (epoch ms) that no delivery names any more (pruneDeliveries removed them). */
export function pruneEvents(sql: SqlStorage, cutoff: number): void {
  sql.exec(
    "DELETE FROM webhook_events WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM outbound_deliveries d WHERE d.event_seq = webhook_events.seq)",
    cutoff,
  );
}
