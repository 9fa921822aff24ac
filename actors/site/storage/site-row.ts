import type { Plan } from "../../../src/contract/plans";

export interface SiteRow {
  id: string;
  name: string;
  workspaceId: string;
  plan: Plan;
  token: string;
  adminKeyHash: string;
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
    imageResizingHosts: JSON.parse(row.image_resizing_hosts) as string[],
    cacheVersion: row.cache_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function insertSite(sql: SqlStorage, s: Omit<SiteRow, "cacheVersion" | "createdAt" | "updatedAt" | "imageResizingHosts">): void {
  const now = new Date().toISOString();
  sql.exec(
    `INSERT INTO site (id, name, workspace_id, plan, token, admin_key_hash, cache_version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    s.id,
    s.name,
    s.workspaceId,
    s.plan,
    s.token,
    s.adminKeyHash,
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

export function setAdminKeyHash(sql: SqlStorage, hash: string): void {
  sql.exec("UPDATE site SET admin_key_hash = ?, updated_at = ?", hash, new Date().toISOString());
}
