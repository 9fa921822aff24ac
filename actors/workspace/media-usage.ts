/**
 * The media storage of a workspace (owner of media_usage and media_reservations): the plan's
 * storage is for all its sites together, so the Workspace object, which every upload of every
 * site passes through, is the one place that can refuse. Each site reports its own stored
 * total (it alone knows its rows), stamped with a sequence so a late report never overwrites a
 * newer one; uploads under way hold reservations that expire on their own, so a crash frees its
 * reservation without anyone telling.
 */
import { MEDIA_LIMITS } from "../../src/contract/limits";
import type { Plan } from "../../src/contract/plans";
import type { StorageReport } from "../../src/contract/media-calls";
import type { Refusal as Refused } from "../../src/contract/refusal";

function report(sql: SqlStorage, siteId: string, stored: StorageReport): void {
  sql.exec(
    `INSERT INTO media_usage (site_id, stored_bytes, seq) VALUES (?, ?, ?)
     ON CONFLICT (site_id) DO UPDATE SET stored_bytes = excluded.stored_bytes, seq = excluded.seq WHERE excluded.seq > media_usage.seq`,
    siteId,
    stored.bytes,
    stored.seq,
  );
}

/** Bytes of originals stored by every site, and reserved by uploads under way. */
export function workspaceUsage(sql: SqlStorage, now: number): number {
  const stored = sql.exec<{ n: number | null }>("SELECT sum(stored_bytes) AS n FROM media_usage").one().n ?? 0;
  const reserved = sql.exec<{ n: number | null }>("SELECT sum(bytes) AS n FROM media_reservations WHERE expires_at > ?", now).one().n ?? 0;
  return stored + reserved;
}

/** Reserves `bytes` for an upload of `siteId`, or refuses it (413 storage) when the plan's storage would be passed. */
export function reserve(
  sql: SqlStorage,
  plan: Plan,
  r: { siteId: string; reservationId: string; bytes: number; stored: StorageReport; expiresAt: number },
  now: number,
): { reserved: true } | Refused {
  report(sql, r.siteId, r.stored);
  sql.exec("DELETE FROM media_reservations WHERE expires_at <= ?", now);
  const limit = MEDIA_LIMITS.storageBytes[plan];
  const used = workspaceUsage(sql, now);
  if (used + r.bytes > limit) {
    const mib = (n: number) => Math.round(n / 1024 / 1024);
    return {
      error: {
        code: "payload_too_large",
        message: `This upload would pass the plan's storage for media (${mib(limit)} MiB for all the workspace's sites; ${mib(used)} MiB used). Delete unused files or ask the operator for a larger plan.`,
        details: { limit: "storage", usedBytes: used, limitBytes: limit },
      },
    };
  }
  sql.exec(
    "INSERT OR REPLACE INTO media_reservations (id, site_id, bytes, expires_at) VALUES (?, ?, ?, ?)",
    r.reservationId,
    r.siteId,
    r.bytes,
    r.expiresAt,
  );
  return { reserved: true };
}

/** A site's new stored total, and the reservations it no longer needs (committed, aborted, swept). */
export function settle(sql: SqlStorage, r: { siteId: string; released: readonly string[]; stored: StorageReport }): void {
  report(sql, r.siteId, r.stored);
  for (const id of r.released) sql.exec("DELETE FROM media_reservations WHERE id = ? AND site_id = ?", id, r.siteId);
}
