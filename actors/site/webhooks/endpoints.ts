/**
 * The site's outbound webhook endpoints (owner of table `webhook_endpoints`): registered by the
 * owner, paused and resumed, and disabled by the delivery job when a receiver is gone or keeps
 * failing. Secrets are stored as base64 and shown once, at creation and at rotation.
 */
import { ApiError } from "../../../src/contract/errors";
import { randomId } from "../../../src/ids";
import { WEBHOOK_MAX_ENDPOINTS, WEBHOOK_OVERLAP_DEFAULT_HOURS, type WebhookEventType } from "../../../src/contract/webhook-limits";
import { newSecret } from "./sign";
import { forgetEndpoint, resumePending } from "./deliveries";

export type DisabledReason = "gone" | "failing" | "owner";

export type EndpointRow = {
  id: string;
  url: string;
  description: string;
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  state: "enabled" | "disabled";
  disabled_reason: DisabledReason | null;
  disabled_at: number | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  /** Until when the receiver asked to be left alone (429/502/504, Retry-After); epoch ms, migration 20. */
  throttled_until: number | null;
  /** Paused because its maker may no longer manage the site's settings: their email (migration 24). */
  disabled_maker: string | null;
};

const COLUMNS =
  "id, url, description, events, secret, previous_secret, previous_secret_until, state, disabled_reason, disabled_at, created_by, created_at, updated_at, throttled_until, disabled_maker";

export function listEndpoints(sql: SqlStorage): EndpointRow[] {
  return sql.exec<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints ORDER BY created_at, id`).toArray();
}

export function findEndpoint(sql: SqlStorage, id: string): EndpointRow | null {
  return sql.exec<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ?`, id).toArray()[0] ?? null;
}

export function readEndpoint(sql: SqlStorage, id: string): EndpointRow {
  const row = findEndpoint(sql, id);
  if (!row) throw new ApiError("not_found", `No webhook endpoint "${id.slice(0, 40)}".`);
  return row;
}

export function insertEndpoint(
  sql: SqlStorage,
  input: { url: string; description: string; events: readonly WebhookEventType[]; createdBy: string | null },
  now: number,
): EndpointRow {
  const count = sql.exec<{ n: number }>("SELECT count(*) AS n FROM webhook_endpoints").one().n;
  if (count >= WEBHOOK_MAX_ENDPOINTS)
    throw new ApiError("conflict", `A site has at most ${WEBHOOK_MAX_ENDPOINTS} webhook endpoints; delete one first.`);
  const id = `whe_${randomId(20)}`;
  sql.exec(
    `INSERT INTO webhook_endpoints (id, url, description, events, secret, state, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'enabled', ?, ?, ?)`,
    id,
    input.url,
    input.description,
    JSON.stringify([...new Set(input.events)]),
    newSecret(),
    input.createdBy,
    now,
    now,
  );
  return readEndpoint(sql, id);
}

export function updateEndpoint(
  sql: SqlStorage,
  id: string,
  patch: { url?: string; description?: string; events?: readonly WebhookEventType[] },
  now: number,
): void {
  const row = readEndpoint(sql, id);
  sql.exec(
    "UPDATE webhook_endpoints SET url = ?, description = ?, events = ?, updated_at = ? WHERE id = ?",
    patch.url ?? row.url,
    patch.description ?? row.description,
    patch.events ? JSON.stringify([...new Set(patch.events)]) : row.events,
    now,
    id,
  );
}

/**
 * Enabling resumes pending deliveries where they stopped (they are due at once). An endpoint paused
 * because its maker went becomes the resumer's (`by`): it stands on them from now on.
 */
export function setEnabled(sql: SqlStorage, id: string, enabled: boolean, now: number, by: string | null): void {
  if (enabled) {
    sql.exec(
      `UPDATE webhook_endpoints SET state = 'enabled', disabled_reason = NULL, disabled_at = NULL, updated_at = ?,
         created_by = CASE WHEN disabled_maker IS NULL THEN created_by ELSE ? END, disabled_maker = NULL
       WHERE id = ? AND state = 'disabled'`,
      now,
      by,
      id,
    );
    resumePending(sql, id, now);
  } else disableEndpoint(sql, id, "owner", now);
}

/** Enabled endpoints these makers (account or key ids) registered. */
export function endpointsMadeBy(sql: SqlStorage, makers: readonly string[]): EndpointRow[] {
  if (makers.length === 0) return [];
  return sql
    .exec<EndpointRow>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE state = 'enabled' AND created_by IN (${makers.map(() => "?").join(", ")})`,
      ...makers,
    )
    .toArray();
}

/**
 * Pauses an endpoint whose maker (`makerEmail`) may no longer manage the site's settings: nothing
 * new is queued for it and nothing waiting is sent until someone who may resumes it.
 */
export function pauseForMaker(sql: SqlStorage, id: string, makerEmail: string, now: number): void {
  disableEndpoint(sql, id, "owner", now);
  sql.exec("UPDATE webhook_endpoints SET disabled_maker = ? WHERE id = ?", makerEmail, id);
}

/**
 * The receiver answered 429, 502 or 504: nothing goes to it before `until` (its Retry-After, or a
 * pause), whichever delivery is next; a later answer can only lengthen the pause.
 */
export function throttleEndpoint(sql: SqlStorage, id: string, until: number): void {
  sql.exec("UPDATE webhook_endpoints SET throttled_until = max(coalesce(throttled_until, 0), ?) WHERE id = ?", until, id);
}

export function disableEndpoint(sql: SqlStorage, id: string, reason: DisabledReason, now: number): void {
  sql.exec(
    "UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND state = 'enabled'",
    reason,
    now,
    now,
    id,
  );
}

/** A new secret; the old one keeps signing (a second signature) for `overlapHours`. Returns the new secret. */
export function rotateSecret(sql: SqlStorage, id: string, overlapHours = WEBHOOK_OVERLAP_DEFAULT_HOURS, now: number): string {
  const row = readEndpoint(sql, id);
  const secret = newSecret();
  const until = overlapHours > 0 ? now + overlapHours * 3_600_000 : null;
  sql.exec(
    "UPDATE webhook_endpoints SET secret = ?, previous_secret = ?, previous_secret_until = ?, updated_at = ? WHERE id = ?",
    secret,
    until === null ? null : row.secret,
    until,
    now,
    id,
  );
  return secret;
}

/** The secrets an attempt made now is signed with: the current one, and the previous during an overlap. */
export function signingSecrets(row: EndpointRow, now: number): string[] {
  return row.previous_secret && (row.previous_secret_until ?? 0) > now ? [row.secret, row.previous_secret] : [row.secret];
}

/** Deletes the endpoint and everything sent or waiting for it. */
export function deleteEndpoint(sql: SqlStorage, id: string): void {
  readEndpoint(sql, id);
  forgetEndpoint(sql, id);
  sql.exec("DELETE FROM webhook_endpoints WHERE id = ?", id);
}
