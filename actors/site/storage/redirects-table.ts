/**
 * The owner's redirects (`redirects`, site migration 29): an old path of the site's host to a new
 * path or an absolute URL. The table's one reader and writer. A page request costs one indexed
 * lookup per hop; chains are followed to their end (at most REDIRECT_LIMITS.hops), together with
 * the automatic redirects of renamed items, so a visitor gets one 301 and a loop never answers.
 */
import { REDIRECT_LIMITS } from "../../../src/contract/redirect-limits";
import type { RedirectInput } from "../../../src/contract/redirects";
import { movedSlug } from "./slug-redirects-table";

export type RedirectRow = {
  id: string;
  from_path: string;
  to_url: string;
  status: 301 | 302;
  created_at: string;
  updated_at: string;
};

/**
 * A path as rules are matched: dot segments resolved, characters escaped as a browser sends
 * them, and no trailing slash but the root's (`/old/` and `/old` are one address to a visitor).
 */
export function matchPath(path: string): string {
  const p = new URL(path, "https://host.invalid").pathname;
  return p.length > 1 && p.endsWith("/") ? p.replace(/\/+$/, "") || "/" : p;
}

/**
 * A target as a Location header can carry it: a header holds bytes, so a path or URL typed with
 * other characters (`/café`, `https://例え.jp/ページ`) is written as a browser would send it
 * (percent-escapes, the host in punycode). The same address, not another.
 */
export function targetOf(to: string): string {
  if (!to.startsWith("/")) return new URL(to).href;
  const u = new URL(to, "https://host.invalid");
  return `${u.pathname}${u.search}${u.hash}`;
}

/** The path a same-host target leads to, as rules are matched; null for an absolute URL. */
function targetPath(to: string): string | null {
  return to.startsWith("/") ? matchPath(to.replace(/[?#].*$/, "")) : null;
}

export function ruleAt(sql: SqlStorage, path: string): RedirectRow | null {
  return sql.exec<RedirectRow>("SELECT * FROM redirects WHERE from_path = ?", matchPath(path)).toArray()[0] ?? null;
}

export function redirectCount(sql: SqlStorage): number {
  return sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM redirects").one().n;
}

/** One page of rules sorted by `from`, those whose from or to holds `q` (literally) when given. */
export function listRedirects(sql: SqlStorage, q: string, page: number): { rows: RedirectRow[]; total: number } {
  const where = q ? "WHERE instr(lower(from_path), ?1) > 0 OR instr(lower(to_url), ?1) > 0" : "";
  const args = q ? [q.toLowerCase()] : [];
  const total = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM redirects ${where}`, ...args).one().n;
  const rows = sql
    .exec<RedirectRow>(
      `SELECT * FROM redirects ${where} ORDER BY from_path LIMIT ${REDIRECT_LIMITS.page} OFFSET ${(page - 1) * REDIRECT_LIMITS.page}`,
      ...args,
    )
    .toArray();
  return { rows, total };
}

/** Every rule, sorted by `from` (the CSV export; at most REDIRECT_LIMITS.perSite rows). */
export function allRedirects(sql: SqlStorage): RedirectRow[] {
  return sql.exec<RedirectRow>("SELECT * FROM redirects ORDER BY from_path").toArray();
}

/** The paths rules lead away from, for the sitemap, which never lists one. */
export function redirectedPaths(sql: SqlStorage): Set<string> {
  return new Set(
    sql
      .exec<{ from_path: string }>("SELECT from_path FROM redirects")
      .toArray()
      .map((r) => r.from_path),
  );
}

export function findRedirect(sql: SqlStorage, id: string): RedirectRow | null {
  return sql.exec<RedirectRow>("SELECT * FROM redirects WHERE id = ?", id).toArray()[0] ?? null;
}

/** Adds the rule, or changes the one with `id`; answers the row as stored. */
export function saveRedirect(sql: SqlStorage, id: string, input: RedirectInput, now: string): RedirectRow {
  sql.exec(
    `INSERT INTO redirects (id, from_path, to_url, status, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)
       ON CONFLICT (id) DO UPDATE SET from_path = ?2, to_url = ?3, status = ?4, updated_at = ?5`,
    id,
    matchPath(input.from),
    targetOf(input.to),
    input.status,
    now,
  );
  return findRedirect(sql, id)!;
}

export function deleteRedirect(sql: SqlStorage, id: string): void {
  sql.exec("DELETE FROM redirects WHERE id = ?", id);
}

/** Where a path without a rule leads on its own (an item's old slug), or null. */
export type MovedPath = (path: string) => string | null;

export interface Resolved {
  location: string;
  status: 301 | 302;
}

/**
 * Where a request for `path` is sent: the last target of its chain of rules and renamed items,
 * as one hop. The first rule's status is the answer's. A chain that comes back to a path it
 * passed answers null: the page is served as if there were no rule, and the owner's list says so
 * (`loopFrom`).
 */
export function resolveRedirect(sql: SqlStorage, path: string, moved: MovedPath): Resolved | null {
  const start = matchPath(path);
  const seen = new Set([start]);
  let at = start;
  let location: string | null = null;
  let status: 301 | 302 = 301;
  for (let hop = 0; hop < REDIRECT_LIMITS.hops; hop++) {
    const rule = ruleAt(sql, at);
    const next = rule ? rule.to_url : moved(at);
    if (next === null) break;
    if (hop === 0 && rule) status = rule.status;
    location = next;
    const nextPath = targetPath(next);
    if (nextPath === null) break;
    if (seen.has(nextPath)) return null;
    seen.add(nextPath);
    at = nextPath;
  }
  return location === null ? null : { location, status };
}

/** The path of a loop the rule would close (`/a → /b → /a`), or null when its chain ends. */
export function loopFrom(sql: SqlStorage, from: string, to: string, moved: MovedPath): string | null {
  const start = matchPath(from);
  const trail = [start];
  let at = targetPath(to);
  for (let hop = 0; at !== null && hop < REDIRECT_LIMITS.hops; hop++) {
    trail.push(at);
    if (at === start) return trail.join(" → ");
    const rule = ruleAt(sql, at);
    const next = rule ? rule.to_url : moved(at);
    at = next === null ? null : targetPath(next);
  }
  return null;
}

/** Renamed items of the collection rendered under `base`: `/blog/old-slug` leads to `/blog/new-slug`. */
export function movedItems(sql: SqlStorage, collectionId: string, base: string): MovedPath {
  return (path) => {
    const rest = path.startsWith(base) ? path.slice(base.length) : "";
    if (rest === "" || rest.includes("/")) return null;
    let slug: string;
    try {
      slug = decodeURIComponent(rest);
    } catch {
      return null;
    }
    const moved = movedSlug(sql, collectionId, slug);
    return moved === null ? null : `${base}${encodeURIComponent(moved)}`;
  };
}
