/**
 * What a member made on the workspace's sites (the admin key they were shown, webhook endpoints,
 * share links) ends with their right to make it, as their invitations and keys do (made-by.ts). The
 * change that lowers or removes them writes one row here per site where they lose a right those
 * things need, in its own transaction; the rows are then sent to the sites (`Site.sweepMaker`, the
 * channel the plan takes) before the change answers. A site that cannot be reached keeps its row
 * and the workspace's alarm sends it again (5 s, then doubling, at most hourly) until it has it.
 * Owner of table `site_sweeps`.
 */
import { losesOnSite, type MakerCause, type MakerStanding, type MakerSweep, type SiteSwept } from "../../src/access/maker";
import type { Changer } from "./audit";
import type { MemberView } from "./members";
import { backoff } from "../../src/shared/backoff";

// 5 s, then doubling, at most hourly (as the header says).
const SWEEP_BACKOFF = backoff({ firstMs: 5_000, maxMs: 3_600_000 });

/** The sites' part of what went with a member, merged over the sites. */
export interface SweptOnSites {
  /** Sites whose admin key was replaced by one shown to no one. */
  adminKeys: string[];
  webhooks: string[];
  previewLinks: string[];
}

/** A site object, as the sweep reaches it over RPC. */
export interface SweepHolder {
  sweepMaker(sweep: MakerSweep): Promise<SiteSwept>;
}
export type SiteLookup = (siteId: string) => SweepHolder;

type Row = { seq: number; site_id: string; payload: string; attempts: number };

/**
 * Queues the sweep of every site where `maker`, going from their row to `after`, loses a right
 * that what they made there needs, or where one of their `keys` (revoked by the same change) could
 * have made something. Call inside the change's transaction; returns the rows' seqs.
 */
export function queueSiteSweeps(
  sql: SqlStorage,
  c: Changer,
  maker: MemberView,
  after: MakerStanding,
  cause: MakerCause,
  keys: readonly { id: string; siteId: string | null }[],
): number[] {
  const siteIds = sql
    .exec<{ site_id: string }>("SELECT site_id FROM sites ORDER BY added_at")
    .toArray()
    .map((r) => r.site_id);
  const seqs: number[] = [];
  for (const siteId of siteIds) {
    const keyIds = keys.filter((k) => k.siteId === null || k.siteId === siteId).map((k) => k.id);
    if (keyIds.length === 0 && !losesOnSite(maker, after, siteId)) continue;
    const sweep: MakerSweep = {
      accountId: maker.accountId,
      email: maker.email,
      after,
      cause,
      keyIds,
      createdSite: createdSite(sql, maker.accountId, siteId),
      by: { actor: c.grant.actor, client: c.client },
    };
    seqs.push(
      sql
        .exec<{ seq: number }>(
          "INSERT INTO site_sweeps (site_id, payload, attempts, next_at) VALUES (?, ?, 0, ?) RETURNING seq",
          siteId,
          JSON.stringify(sweep),
          Date.now(),
        )
        .one().seq,
    );
  }
  return seqs;
}

/** Whether the workspace's audit log records this account creating the site (and so being shown its first admin key). */
function createdSite(sql: SqlStorage, accountId: string, siteId: string): boolean {
  return (
    sql.exec("SELECT 1 FROM audit WHERE operation = 'createSite' AND actor_id = ? AND site_id = ? LIMIT 1", accountId, siteId).toArray()
      .length > 0
  );
}

/** Sends the rows (at once, one call per site); `failed` when a site has not had its row yet. */
export async function deliverSweeps(
  sql: SqlStorage,
  seqs: readonly number[],
  site: SiteLookup,
): Promise<{ swept: SweptOnSites; failed: boolean }> {
  const swept: SweptOnSites = { adminKeys: [], webhooks: [], previewLinks: [] };
  const results = await Promise.all(seqs.map((seq) => deliver(sql, seq, site)));
  for (const r of results) {
    if (!r || r === "failed") continue;
    if (r.swept.adminKey) swept.adminKeys.push(r.siteId);
    swept.webhooks.push(...r.swept.webhooks);
    swept.previewLinks.push(...r.swept.previewLinks);
  }
  return { swept, failed: results.includes("failed") };
}

async function deliver(sql: SqlStorage, seq: number, site: SiteLookup): Promise<{ siteId: string; swept: SiteSwept } | "failed" | null> {
  const row = sql.exec<Row>("SELECT seq, site_id, payload, attempts FROM site_sweeps WHERE seq = ?", seq).toArray()[0];
  if (!row) return null;
  try {
    const swept = await site(row.site_id).sweepMaker(JSON.parse(row.payload) as MakerSweep);
    sql.exec("DELETE FROM site_sweeps WHERE seq = ?", seq);
    return { siteId: row.site_id, swept };
  } catch {
    const attempts = row.attempts + 1;
    sql.exec("UPDATE site_sweeps SET attempts = ?, next_at = ? WHERE seq = ?", attempts, Date.now() + SWEEP_BACKOFF(attempts), seq);
    return "failed";
  }
}

/** Every due row (the alarm); returns when the next is due, or null. */
export async function drainSweeps(sql: SqlStorage, site: SiteLookup, now = Date.now()): Promise<number | null> {
  const due = sql.exec<{ seq: number }>("SELECT seq FROM site_sweeps WHERE next_at <= ? ORDER BY seq LIMIT 50", now).toArray();
  await deliverSweeps(
    sql,
    due.map((r) => r.seq),
    site,
  );
  return sql.exec<{ t: number | null }>("SELECT min(next_at) AS t FROM site_sweeps").one().t;
}
