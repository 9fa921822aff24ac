/**
 * The workspace's deferred work, on the same jobs table and one alarm as a site's
 * (actors/shared/jobs.ts): the membership pushes and site sweeps still owed, and the daily prune
 * of the workspace's audit log. A deleted workspace keeps only its audit log: its prune then waits
 * for the oldest row's expiry (at most daily), and once no row and no push is left the object's
 * storage goes (`finished`).
 */
import { AUDIT_PRUNE_JOB, AUDIT_RETENTION_MS } from "../shared/audit-log";
import { cancelJob, type JobHandler, pendingJob, scheduleJob } from "../shared/jobs";
import { oldestAuditAt, pruneWorkspaceAudit } from "./audit";
import type { MemberPushes } from "./member-change";
import { type AccountLookup, drain } from "./outbox";
import { drainSweeps, type SiteLookup } from "./site-sweep";

/** What the jobs use of the workspace object (live-workspace.ts). */
export interface WorkspaceJobsHost {
  readonly storage: DurableObjectStorage;
  readonly sql: SqlStorage;
  readonly pushes: MemberPushes;
  readonly accounts: AccountLookup;
  readonly sites: SiteLookup;
  /** The workspace, or null once deleted. */
  read(): object | null;
}

/** Owed membership pushes (outbox.ts) and site sweeps (site-sweep.ts): one job, due when the first row is. */
export const PUSHES_JOB = "member-pushes";

const DAY_MS = 86_400_000;
/** Where the code before the jobs table kept the time of the last prune (the object's key-value storage). */
const PRUNED_AT_KEY = "audit_pruned_at";

/** The prune's next time: a day on while the workspace lives; once deleted, when its oldest row expires (none: done). */
function nextPrune(w: WorkspaceJobsHost, after: number): number | undefined {
  if (w.read()) return after;
  const oldest = oldestAuditAt(w.sql);
  return oldest === null ? undefined : Math.max(oldest + AUDIT_RETENTION_MS + 1, after);
}

export function workspaceJobs(w: WorkspaceJobsHost): Readonly<Record<string, JobHandler>> {
  return {
    [PUSHES_JOB]: {
      run: async () => {
        const accounts = await w.pushes.serial(() => drain(w.sql, w.accounts));
        const due = [accounts, await drainSweeps(w.sql, w.sites)].filter((t) => t !== null);
        return due.length ? { next: Math.min(...due) } : undefined;
      },
    },
    [AUDIT_PRUNE_JOB]: {
      run: () => {
        pruneWorkspaceAudit(w.sql, Date.now());
        const next = nextPrune(w, Date.now() + DAY_MS);
        return next === undefined ? undefined : { next };
      },
    },
  };
}

/** Owed pushes and sweeps are tried again in 5 seconds (then by their rows' own backoff). */
export function retryPushesSoon(w: WorkspaceJobsHost): void {
  scheduleJob(w.storage, PUSHES_JOB, "all", Date.now() + 5_000);
}

/** A new workspace's first prune, a day on. */
export function armPrune(w: WorkspaceJobsHost): void {
  scheduleJob(w.storage, AUDIT_PRUNE_JOB, "all", Date.now() + DAY_MS);
}

/** The workspace was just deleted: no more daily wake-ups, only the kept audit log's expiry (or a push still owed). */
export function afterDeletion(w: WorkspaceJobsHost): void {
  const pending = pendingJob(w.sql, AUDIT_PRUNE_JOB, "all");
  const next = nextPrune(w, pending?.runAt ?? Date.now() + DAY_MS);
  if (next === undefined) cancelJob(w.storage, AUDIT_PRUNE_JOB, "all");
  else scheduleJob(w.storage, AUDIT_PRUNE_JOB, "all", next);
}

/** Whether a deleted workspace has nothing left to do: no job, so its storage may go. */
export function finished(w: WorkspaceJobsHost): boolean {
  return !w.read() && w.sql.exec("SELECT 1 FROM jobs LIMIT 1").toArray().length === 0;
}

/**
 * The rows' own `next_at` say when a push or sweep is due (outbox.ts, site-sweep.ts); the job only
 * wakes the alarm for them, so it is brought forward to the first row due. Run at start and at
 * every wake.
 */
export function syncPushesJob(w: WorkspaceJobsHost): void {
  const owed = w.sql
    .exec<{ t: number | null }>(
      "SELECT min(t) AS t FROM (SELECT min(next_at) AS t FROM outbox UNION ALL SELECT min(next_at) FROM site_sweeps)",
    )
    .one().t;
  if (owed === null) return;
  const pending = pendingJob(w.sql, PUSHES_JOB, "all");
  if (!pending || pending.runAt > owed) scheduleJob(w.storage, PUSHES_JOB, "all", owed);
}

/**
 * A prune time kept by the code before the jobs table becomes the prune job's time (and the key
 * goes). Checked at every wake as well as at start: one key read.
 */
export function adoptPrunedAt(w: WorkspaceJobsHost): void {
  const last = w.storage.kv.get(PRUNED_AT_KEY);
  if (last === undefined) return;
  w.storage.kv.delete(PRUNED_AT_KEY);
  scheduleJob(w.storage, AUDIT_PRUNE_JOB, "all", Number(last) + DAY_MS);
}

/**
 * At start: every owed push or sweep has its job, and a workspace with an audit log its prune. A
 * workspace from before the jobs table gets them here: its pushes when their first row is due, its
 * prune at the alarm it had (that code pruned at any wake when it had never pruned), else a day on.
 */
export async function armWorkspaceJobs(w: WorkspaceJobsHost): Promise<void> {
  // Read before any job is scheduled: scheduling sets the alarm.
  const alarm = await w.storage.getAlarm();
  adoptPrunedAt(w);
  syncPushesJob(w);
  if (!pendingJob(w.sql, AUDIT_PRUNE_JOB, "all") && (w.read() || oldestAuditAt(w.sql) !== null)) {
    scheduleJob(w.storage, AUDIT_PRUNE_JOB, "all", alarm ?? Date.now() + DAY_MS);
  }
}
