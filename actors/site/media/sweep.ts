/**
 * The daily media sweep (a job of the site's one alarm): removes every R2 object under the site's
 * prefix that no row names (a crash between put and commit, a delete whose byte removal failed),
 * and every upload left open past its time, aborting its R2 multipart upload (those are invisible
 * to list() and would hold storage until R2's own 7-day expiry).
 */
import type { SiteContext } from "../context";
import type { JobHandler } from "../../shared/jobs";
import { log } from "../../../src/log";
import { sitePrefix } from "./store";
import { settleStorage } from "./quota";

export const MEDIA_SWEEP_JOB = "media-sweep";
export const SWEEP_EVERY_MS = 86_400_000;

export async function sweepMedia(s: SiteContext, now: number): Promise<{ objects: number; uploads: number }> {
  const siteId = s.site()!.id;
  const bucket = s.env.MEDIA;
  const expired = s.sql
    .exec<{ id: string; object_key: string; multipart_id: string | null }>(
      "SELECT id, object_key, multipart_id FROM media_uploads WHERE expires_at <= ?",
      now,
    )
    .toArray();
  for (const u of expired) {
    // Aborting an upload R2 no longer knows is harmless.
    if (u.multipart_id)
      await bucket
        .resumeMultipartUpload(u.object_key, u.multipart_id)
        .abort()
        .catch(() => undefined);
    await bucket.delete(u.object_key);
    s.sql.exec("DELETE FROM media_uploads WHERE id = ?", u.id);
  }
  const named = (key: string): boolean =>
    s.sql.exec("SELECT 1 FROM media WHERE object_key = ?", key).toArray().length > 0 ||
    s.sql.exec("SELECT 1 FROM media_uploads WHERE object_key = ?", key).toArray().length > 0 ||
    s.sql.exec("SELECT 1 FROM media_variants WHERE key = ?", key).toArray().length > 0;
  let removed = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: sitePrefix(siteId), cursor });
    // An original is named by a row from before its first byte to its deletion. A variant is put just
    // before the site lists it: one younger than a minute is left for the next sweep.
    const young = (o: R2Object) => o.key.includes("/v/") && now - o.uploaded.getTime() < 60_000;
    const orphans = page.objects.filter((o) => !named(o.key) && !young(o)).map((o) => o.key);
    if (orphans.length > 0) await bucket.delete(orphans);
    removed += orphans.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  // The stored total is reported every day (it heals a report that never arrived); swept uploads' reservations go.
  await settleStorage(
    s,
    expired.map((u) => u.id),
  );
  if (removed + expired.length > 0) log("media_swept", { siteId, objects: removed, uploads: expired.length });
  return { objects: removed, uploads: expired.length };
}

export function mediaSweepJob(s: SiteContext): JobHandler {
  return {
    run: async () => {
      await sweepMedia(s, Date.now());
      return { next: Date.now() + SWEEP_EVERY_MS };
    },
  };
}
