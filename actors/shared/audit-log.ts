/**
 * What the site's and the workspace's audit logs have in common: both objects keep a table
 * `audit` of the same shape, page it the same way and prune it after the same retention, so a
 * read can merge both by `(at, source, seq)`. Each object writes its own rows.
 */

/** Rows are kept at least 90 days (the promised floor); the daily prune removes older ones. */
export const AUDIT_RETENTION_MS = 400 * 86_400_000;
/** The recurring job of either object that prunes its audit rows past AUDIT_RETENTION_MS. */
export const AUDIT_PRUNE_JOB = "audit-prune";

export type AuditRow = {
  seq: number;
  at: number;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  /** The person's name at the time (accounts); null in rows written before names were kept. */
  actor_name: string | null;
  operation: string;
  kind: string;
  target: string;
  ip: string | null;
  country: string | null;
  details: string | null;
};

export interface AuditFilter {
  /** An account or key id, or the label (email, key name) or the person's name recorded at the time. */
  actor?: string | null;
  kind?: string | null;
  /** Only rows strictly before this (at, seq), newest first. */
  before?: { at: number; seq: number } | null;
  from?: number | null;
  to?: number | null;
  limit: number;
}

/** One page of rows, newest first (bounded by `limit`, at most 200). */
export function auditPage(sql: SqlStorage, f: AuditFilter): AuditRow[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const add = (clause: string, ...values: (string | number)[]) => {
    where.push(clause);
    args.push(...values);
  };
  if (f.actor) add("(actor_id = ? OR actor_label = ? OR actor_name = ?)", f.actor, f.actor, f.actor);
  if (f.kind) add("kind = ?", f.kind);
  if (f.before) add("(at < ? OR (at = ? AND seq < ?))", f.before.at, f.before.at, f.before.seq);
  if (f.from != null) add("at >= ?", f.from);
  if (f.to != null) add("at < ?", f.to);
  const limit = Math.max(1, Math.min(200, Math.floor(f.limit)));
  return sql
    .exec<AuditRow>(
      `SELECT * FROM audit ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY at DESC, seq DESC LIMIT ?`,
      ...args,
      limit,
    )
    .toArray();
}

/** Deletes rows older than the retention; returns how many. */
export function pruneAudit(sql: SqlStorage, now: number): number {
  return sql.exec("DELETE FROM audit WHERE at < ?", now - AUDIT_RETENTION_MS).rowsWritten;
}
