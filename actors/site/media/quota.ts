/**
 * The site's side of the workspace's media storage (actors/workspace/media-usage.ts): reserve
 * before an upload's first byte, settle after every change of what the site stores. The
 * workspace owns the count; this object only reports its own total, which it alone knows.
 */
import type { StorageReport } from "../../../src/contract/media-calls";
import { type Refusal, unlessRefused } from "../../../src/contract/refusal";
import { log, errorText } from "../../../src/log";
import { workspaceStub } from "../../../src/stubs";
import type { SiteContext } from "../context";

let lastSeq = 0;

/**
 * This site's stored bytes of originals now, with a sequence that grows across calls and
 * restarts (microseconds of the clock, or one more than the last), so the workspace can keep
 * the newest of two reports that cross on the way.
 */
function storedNow(sql: SqlStorage): StorageReport {
  lastSeq = Math.max(lastSeq + 1, Date.now() * 1000);
  const bytes = sql.exec<{ n: number | null }>("SELECT sum(bytes) AS n FROM media WHERE object_key IS NOT NULL").one().n ?? 0;
  return { bytes, seq: lastSeq };
}

/** Reserves `bytes` in the workspace for an upload; throws 413 `storage` when the plan's storage would be passed. */
export async function reserveStorage(s: SiteContext, reservationId: string, bytes: number, expiresAt: number): Promise<void> {
  const site = s.site()!;
  const answer = (await workspaceStub(s.env, site.workspaceId).reserveMedia({
    siteId: site.id,
    reservationId,
    bytes,
    stored: storedNow(s.sql),
    expiresAt,
  })) as { reserved: true } | Refusal;
  unlessRefused(answer);
}

/**
 * Tells the workspace this site's stored total after a change, and the reservations it no longer
 * holds. Never fails the change: a report that does not arrive is corrected by the next one, and
 * a reservation left behind expires.
 */
export async function settleStorage(s: SiteContext, released: readonly string[]): Promise<void> {
  const site = s.site()!;
  try {
    await workspaceStub(s.env, site.workspaceId).settleMedia({ siteId: site.id, released: [...released], stored: storedNow(s.sql) });
  } catch (err) {
    log("media_storage_unsettled", { siteId: site.id, error: errorText(err) });
  }
}
