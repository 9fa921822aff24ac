/**
 * The workspace's audit log: its own rows (members, invitations, keys, sites, settings), written in
 * the transaction of each change, merged on read with every site's rows (actors/site/access/audit.ts).
 * Owner of the workspace's table `audit`.
 */
import { ApiError } from "../../src/contract/errors";
import type { Grant } from "../../src/access/grant";
import type { AccessEntry } from "../../src/access/operations";
import type { PrincipalHeader } from "../../src/contract/principal";
import { AUDIT_RETENTION_MS, auditPage, type AuditFilter, type AuditRow } from "../shared/audit-log";
import { memberNames } from "./members";

/** Where a row comes from in the merged order: the workspace itself, or a site id. */
const WORKSPACE_SOURCE = "workspace";

export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; label: string; name: string | null };
  operation: string;
  kind: string;
  target: string;
  siteId: string | null;
  ip: string | null;
  country: string | null;
  details: unknown;
}

export interface Changer {
  entry: AccessEntry;
  grant: Grant;
  client: PrincipalHeader["client"];
}

/** Call inside the transaction that makes the change. */
export function recordWorkspaceAudit(sql: SqlStorage, c: Changer, target: string, siteId: string | null = null, details?: unknown): void {
  sql.exec(
    `INSERT INTO audit (at, actor_kind, actor_id, actor_label, actor_name, operation, kind, target, site_id, ip, country, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    Date.now(),
    c.grant.actor.kind,
    c.grant.actor.id,
    c.grant.actor.label,
    c.grant.actor.name,
    c.entry.id,
    c.entry.kind,
    target,
    siteId,
    c.client.ip,
    c.client.country,
    details === undefined ? null : JSON.stringify(details),
  );
}

export function pruneWorkspaceAudit(sql: SqlStorage, now: number): number {
  return sql.exec("DELETE FROM audit WHERE at < ?", now - AUDIT_RETENTION_MS).rowsWritten;
}

/** When the oldest kept row was written (ms), or null when the log is empty. */
export function oldestAuditAt(sql: SqlStorage): number | null {
  return sql.exec<{ at: number | null }>("SELECT min(at) AS at FROM audit").one().at;
}

interface Cursor {
  at: number;
  source: string;
  seq: number;
}

export function parseCursor(raw: string | null): Cursor | null {
  if (raw === null || raw === "") return null;
  const m = /^(\d{1,15})\.([a-z0-9_]{1,40})\.(\d{1,15})$/.exec(raw);
  if (!m) throw new ApiError("bad_request", "`before` must be a cursor from a previous page's `next`.", { path: "before" });
  return { at: Number(m[1]), source: m[2]!, seq: Number(m[3]) };
}

/**
 * Rows strictly after the cursor in the merged order (at, source, seq), all descending, for one
 * source: the per-source condition that the total order implies.
 */
function beforeFor(source: string, c: Cursor | null): AuditFilter["before"] {
  if (!c) return null;
  if (source === c.source) return { at: c.at, seq: c.seq };
  return source < c.source ? { at: c.at, seq: Number.MAX_SAFE_INTEGER } : { at: c.at, seq: 0 };
}

export interface MergedQuery {
  actor: string | null;
  siteId: string | null;
  kind: string | null;
  before: Cursor | null;
  from: number | null;
  to: number | null;
  limit: number;
}

/** One page of the merged log, newest first, and the cursor of the next page (null at the end). */
export async function mergedAudit(
  sql: SqlStorage,
  siteIds: readonly string[],
  sitePage: (siteId: string, f: AuditFilter) => Promise<AuditRow[]>,
  q: MergedQuery,
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  const limit = Math.max(1, Math.min(200, q.limit));
  const base = { actor: q.actor, kind: q.kind, from: q.from, to: q.to, limit: limit + 1 };
  const sources: { source: string; rows: AuditRow[] }[] = [];
  // Workspace rows concern a site when they name one (createSite): the site filter applies to them too.
  const wsRows = auditPage(sql, { ...base, before: beforeFor(WORKSPACE_SOURCE, q.before) }).filter(
    (r) => q.siteId === null || (r as AuditRow & { site_id?: string | null }).site_id === q.siteId,
  );
  sources.push({ source: WORKSPACE_SOURCE, rows: wsRows });
  const sites = q.siteId === null ? siteIds : siteIds.filter((id) => id === q.siteId);
  const pages = await Promise.all(
    sites.map(async (id) => ({ source: id, rows: await sitePage(id, { ...base, before: beforeFor(id, q.before) }) })),
  );
  sources.push(...pages);
  const all = sources.flatMap(({ source, rows }) => rows.map((row) => ({ source, row })));
  all.sort((a, b) => b.row.at - a.row.at || (a.source < b.source ? 1 : a.source > b.source ? -1 : 0) || b.row.seq - a.row.seq);
  const page = all.slice(0, limit);
  const last = page[page.length - 1];
  const next = all.length > limit && last ? `${last.row.at}.${last.source}.${last.row.seq}` : null;
  // Rows written before names were kept name a person by the member's name today, when they still are one.
  const unnamed = page.flatMap(({ row }) => (row.actor_kind === "account" && !row.actor_name && row.actor_id ? [row.actor_id] : []));
  const names = memberNames(sql, unnamed);
  return { entries: page.map(({ source, row }) => present(source, row, names)), next };
}

function present(source: string, r: AuditRow & { site_id?: string | null }, names: ReadonlyMap<string, string>): AuditEntry {
  const name = r.actor_name || (r.actor_kind === "account" && r.actor_id ? (names.get(r.actor_id) ?? null) : null);
  return {
    id: `${source}.${r.seq}`,
    at: new Date(r.at).toISOString(),
    actor: { kind: r.actor_kind, id: r.actor_id, label: r.actor_label, name },
    operation: r.operation,
    kind: r.kind,
    target: r.target,
    siteId: source === WORKSPACE_SOURCE ? (r.site_id ?? null) : source,
    ip: r.ip,
    country: r.country,
    details: r.details === null ? null : (JSON.parse(r.details) as unknown),
  };
}

// "actor name" comes last so the columns that programs already read keep their places.
export const CSV_COLUMNS = ["time", "actor", "actor type", "operation", "kind", "target", "site", "ip", "country", "actor name"] as const;

/**
 * The entries as CSV (RFC 4180, header row). papaparse's `escapeFormulae` quotes any cell starting
 * with = + - @ (or a tab/CR) behind a ', so a spreadsheet never runs an actor's or target's text.
 */
export async function auditCsv(entries: readonly AuditEntry[]): Promise<string> {
  // Loaded on first use: an isolate that only serves public reads never evaluates it
  // (scripts/bundle-report.mjs --check fails the build check otherwise).
  const { default: Papa } = await import("papaparse");
  return Papa.unparse(
    {
      fields: [...CSV_COLUMNS],
      data: entries.map((e) => [
        e.at,
        e.actor.label,
        e.actor.kind,
        e.operation,
        e.kind,
        e.target,
        e.siteId ?? "",
        e.ip ?? "",
        e.country ?? "",
        e.actor.name ?? "",
      ]),
    },
    { escapeFormulae: true, newline: "\r\n" },
  );
}
