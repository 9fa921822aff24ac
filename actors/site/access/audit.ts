/**
 * The site's audit log: one row per change made through the dashboard API, written by the
 * handler in the same transaction as the change (so a failed write leaves no row, and a
 * change never goes unrecorded). The workspace merges every site's rows when read
 * (actors/workspace/audit.ts). Owner of table `audit`.
 */
import type { SiteAccess } from "./site-access";

/** Rows are kept 400 days, past the 90 README promises; the daily prune removes older ones. */
export const AUDIT_RETENTION_MS = 400 * 86_400_000;
export const AUDIT_PRUNE_JOB = "audit-prune";

export type AuditRow = {
  seq: number;
  at: number;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  operation: string;
  kind: string;
  target: string;
  ip: string | null;
  country: string | null;
  details: string | null;
};

// What the rows of handlers that record after an outside await (the capture's fetch, the
// hostname's provider) name as their target: the thing in words, not the route's template.
const TARGET_OF_PATH: Readonly<Record<string, string>> = {
  "ssr/capture": "captured page",
  "ssr/refresh": "captured page",
  "ssr/webhook-secret": "site publish webhook",
  "ssr/custom-hostname": "custom domain",
};

/** The target of a change that did not name one: `access.target` if the handler set it, else its route in words. */
export function defaultTarget(a: SiteAccess): string {
  if (a.target) return a.target;
  const rest = a.entry.path.replace(/^\/sites\/\{siteId\}\//, "");
  return TARGET_OF_PATH[rest] ?? rest;
}

/** Call inside the transaction that makes the change. */
export function recordAudit(sql: SqlStorage, a: SiteAccess, target: string, details?: unknown): void {
  a.recorded = true;
  sql.exec(
    `INSERT INTO audit (at, actor_kind, actor_id, actor_label, operation, kind, target, ip, country, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    Date.now(),
    a.grant.actor.kind,
    a.grant.actor.id,
    a.grant.actor.label,
    a.entry.id,
    a.entry.kind,
    target,
    a.client.ip,
    a.client.country,
    details === undefined ? null : JSON.stringify(details),
  );
}

export interface AuditFilter {
  /** An account or key id, or the label (email, key name) recorded at the time. */
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
  if (f.actor) add("(actor_id = ? OR actor_label = ?)", f.actor, f.actor);
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
