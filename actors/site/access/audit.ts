/**
 * The site's audit log: one row per change made through the dashboard API, written by the
 * handler in the same transaction as the change (so a failed write leaves no row, and a
 * change never goes unrecorded). The workspace merges every site's rows when read
 * (actors/workspace/audit.ts). Owner of table `audit`; its shape, pages and retention are
 * shared with the workspace's own log (actors/shared/audit-log.ts).
 */
import type { SiteAccess } from "./site-access";

// What the rows of handlers that record after an outside await (the capture's fetch, the
// hostname's provider) name as their target: the thing in words, not the route's template.
const TARGET_OF_PATH: Readonly<Record<string, string>> = {
  "ssr/capture": "captured page",
  "ssr/refresh": "captured page",
  "ssr/webhook-secret": "site publish webhook",
  "ssr/rich-results": "rich results (structured data)",
  "ssr/custom-hostname": "custom domain",
};

/** The target of a change that did not name one: `access.target` if the handler set it, else its route in words. */
export function defaultTarget(a: SiteAccess): string {
  if (a.target) return a.target;
  const rest = a.entry.path.replace(/^\/sites\/\{siteId\}\//, "");
  return TARGET_OF_PATH[rest] ?? rest;
}

const COLUMNS = "at, actor_kind, actor_id, actor_label, actor_name, operation, kind, target, ip, country, details";

/** Call inside the transaction that makes the change. */
export function recordAudit(sql: SqlStorage, a: SiteAccess, target: string, details?: unknown): void {
  recordAudits(sql, a, [{ target, details }]);
}

/**
 * One row per entry, in their order, in one statement (a change made to many things at once). Call inside the transaction that makes the change.
 */
export function recordAudits(sql: SqlStorage, a: SiteAccess, entries: readonly { target: string; details: unknown }[]): void {
  if (!entries.length) return;
  a.recorded = true;
  sql.exec(
    `INSERT INTO audit (${COLUMNS})
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, json_extract(j.value, '$[0]'), ?8, ?9, json_extract(j.value, '$[1]')
     FROM json_each(?10) j ORDER BY j.key`,
    Date.now(),
    a.grant.actor.kind,
    a.grant.actor.id,
    a.grant.actor.label,
    a.grant.actor.name,
    a.entry.id,
    a.entry.kind,
    a.client.ip,
    a.client.country,
    JSON.stringify(entries.map((e) => [e.target, e.details === undefined ? null : JSON.stringify(e.details)])),
  );
}
