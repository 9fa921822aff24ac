/**
 * Deliveries of events to endpoints and their attempts (owner of `outbound_deliveries` and
 * `outbound_attempts`). The event triggers insert pending rows; the delivery job (deliver.ts)
 * takes due ones in order per endpoint and item; the dashboard reads the log and redelivers.
 */
import { WEBHOOK_DELIVERIES_PAGE_MAX } from "../../../src/contract/webhook-limits";

export type DueDelivery = {
  endpoint_id: string;
  event_seq: number;
  attempts: number;
  id: string;
  payload: string;
};

export type DeliveryLogRow = {
  event_seq: number;
  id: string;
  type: string;
  order_key: string;
  state: "pending" | "delivered" | "failed" | "cancelled";
  attempts: number;
  next_at: number;
  created_at: number;
  status: number | null;
  error: string | null;
  duration_ms: number | null;
  response_head: string | null;
  at: number | null;
  /** The earliest pending delivery of the same item to this endpoint, which this pending one waits behind. */
  waits_for_id: string | null;
  waits_for_type: string | null;
};

/** No earlier delivery of the same endpoint and item (order key) is still pending. */
const FIRST_OF_ITS_ITEM = `NOT EXISTS (SELECT 1 FROM outbound_deliveries e
  WHERE e.endpoint_id = d.endpoint_id AND e.order_key = d.order_key AND e.state = 'pending' AND e.event_seq < d.event_seq)`;

/**
 * Due deliveries of enabled endpoints, oldest due first, skipping any with an earlier pending
 * delivery for the same endpoint and item: one item's events reach a receiver in order.
 */
export function dueDeliveries(sql: SqlStorage, now: number, limit: number): DueDelivery[] {
  return sql
    .exec<DueDelivery>(
      `SELECT d.endpoint_id, d.event_seq, d.attempts, ev.id, ev.payload
       FROM outbound_deliveries d
       JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.state = 'enabled' AND coalesce(w.throttled_until, 0) <= ?1
       JOIN webhook_events ev ON ev.seq = d.event_seq
       WHERE d.state = 'pending' AND d.next_at <= ?1 AND ${FIRST_OF_ITS_ITEM}
       ORDER BY d.next_at, d.event_seq LIMIT ?2`,
      now,
      limit,
    )
    .toArray();
}

/**
 * When the next delivery that may go (enabled endpoint, first of its item, the endpoint not slowed
 * down) is due; null when none waits.
 */
export function soonestDue(sql: SqlStorage): number | null {
  return sql
    .exec<{ t: number | null }>(
      `SELECT min(max(d.next_at, coalesce(w.throttled_until, 0))) AS t FROM outbound_deliveries d
       JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.state = 'enabled'
       WHERE d.state = 'pending' AND ${FIRST_OF_ITS_ITEM}`,
    )
    .one().t;
}

/** Before an attempt: counted, and due again at `retryAt` should the object stop before it ends. */
export function claim(sql: SqlStorage, d: DueDelivery, retryAt: number): void {
  sql.exec(
    "UPDATE outbound_deliveries SET attempts = attempts + 1, next_at = ? WHERE endpoint_id = ? AND event_seq = ? AND state = 'pending'",
    retryAt,
    d.endpoint_id,
    d.event_seq,
  );
}

export function recordAttempt(
  sql: SqlStorage,
  d: { endpoint_id: string; event_seq: number },
  a: { at: number; status: number | null; durationMs: number; error: string | null; responseHead: string | null },
): void {
  sql.exec(
    `INSERT INTO outbound_attempts (endpoint_id, event_seq, at, status, duration_ms, error, response_head)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    d.endpoint_id,
    d.event_seq,
    a.at,
    a.status,
    a.durationMs,
    a.error,
    a.responseHead,
  );
}

export function finish(sql: SqlStorage, d: { endpoint_id: string; event_seq: number }, state: "delivered" | "failed", now: number): void {
  sql.exec(
    "UPDATE outbound_deliveries SET state = ?, done_at = ? WHERE endpoint_id = ? AND event_seq = ? AND state = 'pending'",
    state,
    now,
    d.endpoint_id,
    d.event_seq,
  );
}

/** Retry-After (or a slower pace) moves the next attempt later, never earlier. */
export function postpone(sql: SqlStorage, d: { endpoint_id: string; event_seq: number }, at: number): void {
  sql.exec(
    "UPDATE outbound_deliveries SET next_at = max(next_at, ?) WHERE endpoint_id = ? AND event_seq = ? AND state = 'pending'",
    at,
    d.endpoint_id,
    d.event_seq,
  );
}

/** A receiver that answered 410 Gone gets nothing more: its pending deliveries are cancelled. */
export function cancelPending(sql: SqlStorage, endpointId: string, now: number): void {
  sql.exec("UPDATE outbound_deliveries SET state = 'cancelled', done_at = ? WHERE endpoint_id = ? AND state = 'pending'", now, endpointId);
}

/** An endpoint enabled again: what waited is due at once. */
export function resumePending(sql: SqlStorage, endpointId: string, now: number): void {
  sql.exec("UPDATE outbound_deliveries SET next_at = ? WHERE endpoint_id = ? AND state = 'pending'", now, endpointId);
}

export function forgetEndpoint(sql: SqlStorage, endpointId: string): void {
  sql.exec("DELETE FROM outbound_attempts WHERE endpoint_id = ?", endpointId);
  sql.exec("DELETE FROM outbound_deliveries WHERE endpoint_id = ?", endpointId);
}

/** How long finished deliveries, their attempts and their events are kept (the dashboard's log). */
export const DELIVERY_LOG_DAYS = 30;

/**
 * Deliveries that ended (delivered, failed, cancelled) more than DELIVERY_LOG_DAYS ago, with their
 * attempts; pending ones stay whatever their age. Returns how many deliveries went.
 */
export function pruneDeliveries(sql: SqlStorage, now: number): number {
  const cutoff = now - DELIVERY_LOG_DAYS * 86_400_000;
  sql.exec(
    `DELETE FROM outbound_attempts WHERE EXISTS (SELECT 1 FROM outbound_deliveries d
       WHERE d.endpoint_id = outbound_attempts.endpoint_id AND d.event_seq = outbound_attempts.event_seq
         AND d.state != 'pending' AND d.done_at < ?)`,
    cutoff,
  );
  return sql.exec("DELETE FROM outbound_deliveries WHERE state != 'pending' AND done_at < ?", cutoff).rowsWritten;
}

export function enqueue(sql: SqlStorage, endpointId: string, eventSeq: number, orderKey: string, now: number): void {
  sql.exec(
    `INSERT INTO outbound_deliveries (endpoint_id, event_seq, order_key, state, attempts, next_at)
     VALUES (?, ?, ?, 'pending', 0, ?)`,
    endpointId,
    eventSeq,
    orderKey,
    now,
  );
}

/** A new attempt now, same `webhook-id`; a finished delivery starts a fresh schedule. False: no such delivery. */
export function redeliver(sql: SqlStorage, endpointId: string, eventSeq: number, now: number): boolean {
  const n = sql.exec(
    `UPDATE outbound_deliveries
     SET next_at = ?, done_at = NULL, attempts = CASE WHEN state = 'pending' THEN attempts ELSE 0 END, state = 'pending'
     WHERE endpoint_id = ? AND event_seq = ?`,
    now,
    endpointId,
    eventSeq,
  ).rowsWritten;
  return n > 0;
}

export function pendingCount(sql: SqlStorage, endpointId: string): number {
  return sql
    .exec<{ n: number }>("SELECT count(*) AS n FROM outbound_deliveries WHERE endpoint_id = ? AND state = 'pending'", endpointId)
    .one().n;
}

export function lastAttempt(sql: SqlStorage, endpointId: string): { at: number; status: number | null } | null {
  return (
    sql
      .exec<{ at: number; status: number | null }>(
        "SELECT at, status FROM outbound_attempts WHERE endpoint_id = ? ORDER BY seq DESC LIMIT 1",
        endpointId,
      )
      .toArray()[0] ?? null
  );
}

const LOG_SELECT = `SELECT d.event_seq, ev.id, ev.type, d.order_key, d.state, d.attempts, d.next_at, ev.created_at,
         a.status, a.error, a.duration_ms, a.response_head, a.at, w.id AS waits_for_id, w.type AS waits_for_type
  FROM outbound_deliveries d
  JOIN webhook_events ev ON ev.seq = d.event_seq
  LEFT JOIN webhook_events w ON d.state = 'pending' AND w.seq = (SELECT min(p.event_seq) FROM outbound_deliveries p
                                   WHERE p.endpoint_id = d.endpoint_id AND p.order_key = d.order_key
                                     AND p.state = 'pending' AND p.event_seq < d.event_seq)
  LEFT JOIN outbound_attempts a ON a.seq = (SELECT max(seq) FROM outbound_attempts x
                                            WHERE x.endpoint_id = d.endpoint_id AND x.event_seq = d.event_seq)`;

/** The newest deliveries of an endpoint with their last attempt, before `before` (an event seq). */
export function deliveryLog(
  sql: SqlStorage,
  endpointId: string,
  before: number | null,
  limit = WEBHOOK_DELIVERIES_PAGE_MAX,
): DeliveryLogRow[] {
  return sql
    .exec<DeliveryLogRow>(
      `${LOG_SELECT} WHERE d.endpoint_id = ? AND d.event_seq < ? ORDER BY d.event_seq DESC LIMIT ?`,
      endpointId,
      before ?? Number.MAX_SAFE_INTEGER,
      Math.min(limit, WEBHOOK_DELIVERIES_PAGE_MAX),
    )
    .toArray();
}

export function deliveryByEventId(sql: SqlStorage, endpointId: string, eventId: string): DeliveryLogRow | null {
  return sql.exec<DeliveryLogRow>(`${LOG_SELECT} WHERE d.endpoint_id = ? AND ev.id = ?`, endpointId, eventId).toArray()[0] ?? null;
}

export function attemptsOf(
  sql: SqlStorage,
  endpointId: string,
  eventSeq: number,
): { at: number; status: number | null; duration_ms: number; error: string | null; response_head: string | null }[] {
  return sql
    .exec<{ at: number; status: number | null; duration_ms: number; error: string | null; response_head: string | null }>(
      "SELECT at, status, duration_ms, error, response_head FROM outbound_attempts WHERE endpoint_id = ? AND event_seq = ? ORDER BY seq",
      endpointId,
      eventSeq,
    )
    .toArray();
}
