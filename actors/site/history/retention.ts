/**
 * Pruning history by the site's plan (src/contract/history.ts): the daily `revisions-prune` job
 * of the one alarm. Bounded work per run; when the bound is hit the job runs again at once.
 */
import { HISTORY_RETENTION, TRASH_DAYS } from "../../../src/contract/history-limits";
import type { Plan } from "../../../src/contract/plans";
import type { JobHandler } from "../../shared/jobs";
import { pruneRevisions } from "../storage/revisions-table";

export const REVISIONS_PRUNE_JOB = "revisions-prune";
const DAY = 86_400_000;
const PER_RUN = 5000;

/** Prunes once; returns how many revisions went. */
export function pruneHistory(sql: SqlStorage, plan: Plan, now: number): number {
  const r = HISTORY_RETENTION[plan];
  return pruneRevisions(sql, now - TRASH_DAYS * DAY, r.perItem, r.days === null ? null : now - r.days * DAY, PER_RUN);
}

export function retentionJob(sql: SqlStorage, plan: () => Plan | null): JobHandler {
  return {
    run: () => {
      const p = plan();
      const now = Date.now();
      const removed = p ? pruneHistory(sql, p, now) : 0;
      return { next: removed >= PER_RUN ? now + 1000 : now + DAY };
    },
  };
}
