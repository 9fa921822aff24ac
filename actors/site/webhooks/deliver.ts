/**
 * The `webhooks` job: sends due deliveries, at most six at once, each signed anew (receivers
 * refuse timestamps older than five minutes), never following a redirect (3xx is a failure and
 * could point inward), with the receiver's URL checked again before every attempt. An attempt
 * is counted and its retry time written before the request goes out, so an object that stops
 * mid-attempt retries at the scheduled time: at least once, nothing lost.
 */
import { log } from "../../../src/log";
import { WEBHOOK_RESPONSE_HEAD_BYTES } from "../../../src/contract/webhook-limits";
import { type JobHandler, pendingJob, scheduleJob } from "../../shared/jobs";
import { backoff } from "../../../src/shared/backoff";
import { checkReceiverUrl, ReceiverUrlError } from "./receiver-url";
import { disableEndpoint, findEndpoint, signingSecrets, throttleEndpoint } from "./endpoints";
import {
  cancelPending,
  claim,
  DELIVERY_LOG_DAYS,
  type DueDelivery,
  dueDeliveries,
  finish,
  postpone,
  pruneDeliveries,
  recordAttempt,
  soonestDue,
} from "./deliveries";
import { pruneEvents } from "./outbox";
import { MAX_ATTEMPTS, retryDelay } from "./schedule";
import { signedHeaders } from "./sign";

export const WEBHOOKS_JOB = "webhooks";
const JOB_KEY = "deliver";
/** Requests in flight at once (a Worker invocation's simultaneous connections). */
const CONCURRENCY = 6;
/** One alarm invocation sends for this long at most, then re-arms (other jobs get their turn). */
const INVOCATION_BUDGET_MS = 25_000;
const DEFAULT_TIMEOUT_MS = 10_000;
/** The longest a receiver's Retry-After may hold a delivery back. */
const RETRY_AFTER_MAX_MS = 24 * 3_600_000;
/**
 * Answers that mean "too much, slow down" (the Standard Webhooks spec: 429, 502, 504): the whole
 * endpoint waits, for its Retry-After or this long, not just the one delivery.
 */
const THROTTLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 504]);
export const THROTTLE_DEFAULT_MS = 30_000;
/** The daily job that removes the delivery log's rows older than DELIVERY_LOG_DAYS. */
export const WEBHOOKS_PRUNE_JOB = "webhooks-prune";

export function pruneJob(sql: SqlStorage): JobHandler {
  return {
    run: () => {
      const now = Date.now();
      pruneDeliveries(sql, now);
      pruneEvents(sql, now - DELIVERY_LOG_DAYS * 86_400_000);
      return { next: now + 86_400_000 };
    },
  };
}

export interface DeliveryContext {
  env: Env;
  storage: DurableObjectStorage;
  sql: SqlStorage;
}

/** Arms the job for the soonest due delivery, unless it is already armed as early. Call after any write. */
export function scheduleDeliveries(storage: DurableObjectStorage): void {
  const due = soonestDue(storage.sql);
  if (due === null) return;
  const job = pendingJob(storage.sql, WEBHOOKS_JOB, JOB_KEY);
  if (job && job.runAt <= due) return;
  scheduleJob(storage, WEBHOOKS_JOB, JOB_KEY, due);
}

export function timeoutMs(env: Env): number {
  const ms = Number(env.WEBHOOK_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_TIMEOUT_MS;
}

export function deliveryJob(s: DeliveryContext): JobHandler {
  return {
    run: async () => {
      const started = Date.now();
      for (;;) {
        const due = dueDeliveries(s.sql, Date.now(), CONCURRENCY);
        if (due.length === 0) break;
        await Promise.all(due.map((d) => attempt(s, d)));
        if (Date.now() - started > INVOCATION_BUDGET_MS) break;
      }
      // Read after the last await: a delivery queued while this ran is not forgotten.
      const next = soonestDue(s.sql);
      return next === null ? undefined : { next: Math.max(next, Date.now()) };
    },
    // Failures are recorded per delivery; a throw here would be a bug, retried soon.
    backoffMs: backoff({ firstMs: 30_000, factor: 1 }),
    maxAttempts: 1_000_000,
  };
}

interface Outcome {
  status: number | null;
  error: string | null;
  responseHead: string | null;
  retryAfterMs: number | null;
}

async function attempt(s: DeliveryContext, d: DueDelivery): Promise<void> {
  const endpoint = findEndpoint(s.sql, d.endpoint_id);
  if (!endpoint || endpoint.state !== "enabled") return;
  const at = Date.now();
  const target = { endpoint_id: d.endpoint_id, event_seq: d.event_seq };
  if (d.attempts >= MAX_ATTEMPTS) {
    // The last attempt was made but its outcome never recorded (the object stopped): give up now.
    giveUp(s, d, at);
    return;
  }
  const delay = retryDelay(d.attempts + 1);
  const limit = timeoutMs(s.env);
  // The last attempt: should the object stop mid-request, the recheck above ends the delivery.
  s.storage.transactionSync(() => claim(s.sql, d, at + (delay ?? 2 * limit)));
  const outcome = await send(s.env, endpoint.url, signingSecrets(endpoint, at), d, limit);
  const done = Date.now();
  s.storage.transactionSync(() => {
    recordAttempt(s.sql, target, { at, durationMs: done - at, ...outcome });
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    if (ok) finish(s.sql, target, "delivered", done);
    else if (outcome.status === 410) {
      disableEndpoint(s.sql, d.endpoint_id, "gone", done);
      cancelPending(s.sql, d.endpoint_id, done);
    } else if (delay === null) giveUp(s, d, done);
    else {
      const wait = outcome.retryAfterMs ?? (THROTTLE_STATUSES.has(outcome.status ?? 0) ? THROTTLE_DEFAULT_MS : null);
      if (wait !== null) postpone(s.sql, target, done + Math.min(wait, RETRY_AFTER_MAX_MS));
      if (wait !== null && THROTTLE_STATUSES.has(outcome.status ?? 0))
        throttleEndpoint(s.sql, d.endpoint_id, done + Math.min(wait, RETRY_AFTER_MAX_MS));
    }
  });
  log("webhook_attempt", {
    siteId: siteIdOf(s.sql) ?? undefined,
    endpointId: d.endpoint_id,
    eventId: d.id,
    attempt: d.attempts + 1,
    status: outcome.status,
    // The kind of failure only: messages can name the receiver's host.
    error: outcome.error?.split(":")[0] ?? null,
    durationMs: done - at,
  });
}

/** Every retry failed: the delivery has failed and the endpoint is disabled until the owner enables it. */
function giveUp(s: DeliveryContext, d: DueDelivery, now: number): void {
  finish(s.sql, { endpoint_id: d.endpoint_id, event_seq: d.event_seq }, "failed", now);
  disableEndpoint(s.sql, d.endpoint_id, "failing", now);
}

async function send(env: Env, url: string, secrets: string[], d: DueDelivery, limit: number): Promise<Outcome> {
  const signal = AbortSignal.timeout(limit);
  try {
    const checked = await checkReceiverUrl(env, url);
    const headers = await signedHeaders(secrets, d.id, d.payload, Date.now());
    const res = await fetch(checked, {
      method: "POST",
      body: d.payload,
      redirect: "manual",
      signal,
      headers: { ...headers, "content-type": "application/json", "user-agent": "open-content-edge-webhooks/1" },
    });
    const responseHead = await readHead(res, signal).catch(() => null);
    const redirect = res.status >= 300 && res.status < 400;
    return {
      status: res.status,
      error: redirect ? "redirect not followed" : null,
      responseHead,
      retryAfterMs: retryAfter(res.headers.get("retry-after")),
    };
  } catch (err) {
    const error =
      err instanceof ReceiverUrlError
        ? `${err.reason}: ${err.message}`
        : signal.aborted
          ? `timeout after ${limit / 1000} s`
          : unreachable(url, err);
    return { status: null, error, responseHead: null, retryAfterMs: null };
  }
}

/**
 * A connection that failed, in words an owner can act on. The runtime's own text ("internal
 * error; reference = …", "Network connection lost") reads like our fault; it stays at the end.
 */
function unreachable(url: string, err: unknown): string {
  const host = URL.parse(url)?.host ?? "the receiver";
  const raw = (err instanceof Error ? err.message : String(err)).slice(0, 120);
  return `unreachable: could not connect to ${host}. Check the address and that the receiver is up and reachable from the internet (${raw}).`;
}

/** The first bytes of the answer as text; the rest is not read. */
async function readHead(res: Response, signal: AbortSignal): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  // The deadline fires later whatever happens; its rejection is only wanted by the race below.
  aborted.catch(() => undefined);
  try {
    while (size < WEBHOOK_RESPONSE_HEAD_BYTES) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(size, WEBHOOK_RESPONSE_HEAD_BYTES));
  let offset = 0;
  for (const c of chunks) {
    const part = c.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
    if (offset >= bytes.length) break;
  }
  return new TextDecoder().decode(bytes);
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
function retryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

function siteIdOf(sql: SqlStorage): string | null {
  return sql.exec<{ id: string }>("SELECT id FROM site").toArray()[0]?.id ?? null;
}
