import type { Plan } from "../../../src/contract/plans";

export interface SiteRow {
  id: string;
  name: string;
  workspaceId: string;
  plan: Plan;
  token: string;
  adminKeyHash: string;
  /**
   * Who was shown the admin key last (src/access/maker.ts): an account id, `operator`, `nobody` (a
   * key the service made and showed no one), or null when it is not known (a site from before this
   * was recorded).
   */
  adminKeyBy: string | null;
  /** Hostnames whose images go through Cloudflare Image Resizing (`/cdn-cgi/image/…`). */
  imageResizingHosts: string[];
  cacheVersion: number;
  createdAt: string;
  updatedAt: string;
}

export function readSite(sql: SqlStorage): SiteRow | null {
  const row = sql
    .exec<{
      id: string;
      name: string;
      workspace_id: string;
      plan: string;
      token: string;
      admin_key_hash: string;
      admin_key_by: string | null;
      cache_version: number;
      image_resizing_hosts: string;
      created_at: string;
      updated_at: string;
    }>("SELECT * FROM site LIMIT 1")
    .toArray()[0];
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    workspaceId: row.workspace_id,
    plan: row.plan as Plan,
    token: row.token,
    adminKeyHash: row.admin_key_hash,
    adminKeyBy: row.admin_key_by,
    imageResizingHosts: JSON.parse(row.image_resizing_hosts) as string[],
    cacheVersion: row.cache_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function insertSite(sql: SqlStorage, s: Omit<SiteRow, "cacheVersion" | "createdAt" | "updatedAt" | "imageResizingHosts">): void {
  const now = new Date().toISOString();
  sql.exec(
    `INSERT INTO site (id, name, workspace_id, plan, token, admin_key_hash, admin_key_by, cache_version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    s.id,
    s.name,
    s.workspaceId,
    s.plan,
    s.token,
    s.adminKeyHash,
    s.adminKeyBy,
    now,
    now,
  );
}

/** Every change a reader could see bumps the version, which retires every cached response of the site. */
export function bumpCacheVersion(sql: SqlStorage): number {
  return sql.exec<{ cache_version: number }>("UPDATE site SET cache_version = cache_version + 1 RETURNING cache_version").one()
    .cache_version;
}

export function updateSite(sql: SqlStorage, patch: { name?: string; plan?: Plan; imageResizingHosts?: string[] }): void {
  const now = new Date().toISOString();
  if (patch.imageResizingHosts !== undefined) {
    sql.exec("UPDATE site SET image_resizing_hosts = ?, updated_at = ?", JSON.stringify(patch.imageResizingHosts), now);
  }
  if (patch.name !== undefined) sql.exec("UPDATE site SET name = ?, updated_at = ?", patch.name, now);
  if (patch.plan !== undefined) sql.exec("UPDATE site SET plan = ?, updated_at = ?", patch.plan, now);
}

/** The hosts of `imageResizingHosts`, read where media are presented (one indexed row). */
export function readImageResizingHosts(sql: SqlStorage): ReadonlySet<string> {
  const row = sql.exec<{ h: string }>("SELECT image_resizing_hosts AS h FROM site LIMIT 1").toArray()[0];
  return new Set(row ? (JSON.parse(row.h) as string[]) : []);
}

/** The admin key's holder when the service made the key and showed it to no one. */
export const ADMIN_KEY_SHOWN_TO_NOBODY = "nobody";

/** A new admin key (its hash) and who was shown it. */
export function setAdminKeyHash(sql: SqlStorage, hash: string, shownTo: string | null): void {
  sql.exec("UPDATE site SET admin_key_hash = ?, admin_key_by = ?, updated_at = ?", hash, shownTo, new Date().toISOString());
}

/** Where and when the embed script last reported running on one of the site's pages. */
export interface WidgetSeen {
  at: string;
  page: string;
}

/** How often a report is written: a busy page reports on every visitor's first view, the site keeps the latest each hour. */
const WIDGET_SEEN_EVERY_MS = 60 * 60 * 1000;

/** Records a report of the embed script (page: an http(s) address without query or fragment); at most one write an hour. */
export function noteWidgetSeen(sql: SqlStorage, page: string, now = Date.now()): void {
  sql.exec(
    "UPDATE site SET widget_seen_at = ?, widget_seen_page = ? WHERE widget_seen_at IS NULL OR widget_seen_at < ?",
    new Date(now).toISOString(),
    page,
    new Date(now - WIDGET_SEEN_EVERY_MS).toISOString(),
  );
}

export function widgetSeen(sql: SqlStorage): WidgetSeen | null {
  const row = sql
    .exec<{ at: string | null; page: string | null }>("SELECT widget_seen_at AS at, widget_seen_page AS page FROM site LIMIT 1")
    .toArray()[0];
  return row?.at && row.page ? { at: row.at, page: row.page } : null;
}
