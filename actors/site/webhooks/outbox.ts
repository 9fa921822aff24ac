/**
 * Events written by code rather than by the triggers of schema.ts (owner of `webhook_events` and
 * `webhook_mute`): the test event of one endpoint, and events of features without a table
 * trigger (an import finishing). Call inside the transaction of the change the event announces.
 */
import type { WebhookEventType } from "../../../src/contract/webhook-limits";
import { randomHex } from "../../../src/ids";
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
 * Item events off for the writes that follow, in this transaction (an import's rows are announced
 * by `import.finished`, not one event each). Always pair with `unmute` in the same transaction.
 */
export function mute(sql: SqlStorage): void {
  sql.exec("INSERT OR IGNORE INTO webhook_mute (id) VALUES (1)");
}

export function unmute(sql: SqlStorage): void {
  sql.exec("DELETE FROM webhook_mute");
}

/** Events older than `cutoff` (epoch ms) that no delivery names any more (pruneDeliveries removed them). */
export function pruneEvents(sql: SqlStorage, cutoff: number): void {
  sql.exec(
    "DELETE FROM webhook_events WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM outbound_deliveries d WHERE d.event_seq = webhook_events.seq)",
    cutoff,
  );
}
