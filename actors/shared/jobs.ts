import { log } from "../../src/log";
import { backoff } from "../../src/shared/backoff";
/**
 * One alarm, many jobs (the Site and the Workspace alike). Every deferred piece of work of an
 * object (a site's nightly template refresh, retries, indexing; a workspace's owed pushes and
 * daily prune) is a row in the object's own `jobs` table; `runDueJobs` runs what is due and
 * re-arms the alarm for the next one, so the single alarm slot of a Durable Object serves every
 * kind of job. Each object passes its own storage and its handlers by kind.
 */

export interface JobResult {
  /** Run again at this time (epoch ms), for recurring jobs. Omitted: the job is done and removed. */
  next?: number;
}

export interface JobHandler {
  run(key: string): Promise<JobResult | void> | JobResult | void;
  /** Delay before retry `attempt` (1-based) after a failure. */
  backoffMs?(attempt: number): number;
  /** After this many failed attempts in a row, `failed` is called and the job is dropped. */
  maxAttempts?: number;
  failed?(key: string, error: string): void;
}

type JobRow = { kind: string; key: string; run_at: number; attempts: number };

const DEFAULT_BACKOFF = backoff({ firstMs: 30_000, maxMs: 60 * 60_000 });
// Bounds one alarm invocation; whatever is left runs on the immediate re-arm.
const JOBS_PER_ALARM = 50;

export function scheduleJob(storage: DurableObjectStorage, kind: string, key: string, runAt: number): void {
  storage.sql.exec(
    `INSERT INTO jobs (kind, key, run_at, attempts, last_error) VALUES (?, ?, ?, 0, NULL)
     ON CONFLICT (kind, key) DO UPDATE SET run_at = excluded.run_at, attempts = 0, last_error = NULL`,
    kind,
    key,
    runAt,
  );
  armAlarm(storage);
}

export function cancelJob(storage: DurableObjectStorage, kind: string, key: string): void {
  storage.sql.exec("DELETE FROM jobs WHERE kind = ? AND key = ?", kind, key);
}

export function pendingJob(
  sql: SqlStorage,
  kind: string,
  key: string,
): { runAt: number; attempts: number; lastError: string | null } | null {
  const row = sql
    .exec<{ run_at: number; attempts: number; last_error: string | null }>(
      "SELECT run_at, attempts, last_error FROM jobs WHERE kind = ? AND key = ?",
      kind,
      key,
    )
    .toArray()[0];
  return row ? { runAt: row.run_at, attempts: row.attempts, lastError: row.last_error } : null;
}

/** Whether any job of `kind` is queued. */
export function hasPendingJob(sql: SqlStorage, kind: string): boolean {
  return sql.exec("SELECT 1 FROM jobs WHERE kind = ? LIMIT 1", kind).toArray().length > 0;
}

/** Sets the alarm to the earliest due job (or clears it when there is none). */
export function armAlarm(storage: DurableObjectStorage): void {
  const next = storage.sql.exec<{ t: number | null }>("SELECT min(run_at) AS t FROM jobs").one().t;
  if (next === null) void storage.deleteAlarm();
  // A job already due (a row's time in the past, even 0) runs at once: setAlarm refuses a time <= 0.
  else void storage.setAlarm(Math.max(next, Date.now()));
}

export async function runDueJobs(
  storage: DurableObjectStorage,
  handlers: Readonly<Record<string, JobHandler>>,
  now = Date.now(),
): Promise<void> {
  const due = storage.sql
    .exec<JobRow>("SELECT kind, key, run_at, attempts FROM jobs WHERE run_at <= ? ORDER BY run_at LIMIT ?", now, JOBS_PER_ALARM)
    .toArray();
  for (const job of due) {
    const handler = handlers[job.kind];
    if (!handler) {
      log("job_kind_unknown", { kind: job.kind });
      cancelJob(storage, job.kind, job.key);
      continue;
    }
    try {
      const result = await handler.run(job.key);
      // The handler may have rescheduled this very job; only finish the row we ran.
      if (result?.next !== undefined) {
        storage.sql.exec(
          "UPDATE jobs SET run_at = ?, attempts = 0, last_error = NULL WHERE kind = ? AND key = ? AND run_at = ?",
          result.next,
          job.kind,
          job.key,
          job.run_at,
        );
      } else {
        storage.sql.exec("DELETE FROM jobs WHERE kind = ? AND key = ? AND run_at = ?", job.kind, job.key, job.run_at);
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const attempts = job.attempts + 1;
      if (attempts >= (handler.maxAttempts ?? 8)) {
        cancelJob(storage, job.kind, job.key);
        handler.failed?.(job.key, message);
      } else {
        const delay = (handler.backoffMs ?? DEFAULT_BACKOFF)(attempts);
        storage.sql.exec(
          "UPDATE jobs SET run_at = ?, attempts = ?, last_error = ? WHERE kind = ? AND key = ?",
          Date.now() + delay,
          attempts,
          message,
          job.kind,
          job.key,
        );
      }
    }
  }
  armAlarm(storage);
}

/** A recurring job's kind and how often it runs. */
export type Recurring = readonly [kind: string, everyMs: number];

/** Arms each recurring job once (key "all"): a job already in the table keeps its time, so a restart changes nothing. */
export function armRecurring(storage: DurableObjectStorage, recurring: readonly Recurring[]): void {
  for (const [kind, everyMs] of recurring)
    if (!pendingJob(storage.sql, kind, "all")) scheduleJob(storage, kind, "all", Date.now() + everyMs);
}
