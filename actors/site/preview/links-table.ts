/**
 * Share links of items (`preview_links`, site migration 19): every statement on the table is here.
 * The token itself is never stored, only its SHA-256 (`token_hash`), so a read of the database
 * yields no working link; a password is stored as accounts store theirs (a PHC string).
 */
import { PREVIEW_LINK_LIMITS } from "../../../src/contract/history-limits";

export type PreviewLinkRow = {
  id: string;
  item_id: string;
  token_hash: string;
  label: string;
  created_at: number;
  created_by: string;
  /** The maker's account or key id (null: the operator or the site admin key), migration 24. */
  created_by_id: string | null;
  expires_at: number;
  password_hash: string | null;
  max_opens: number | null;
  opens: number;
  last_opened_at: number | null;
  revoked_at: number | null;
};

export type LinkState = "live" | "expired" | "revoked" | "used up";

export function stateOf(row: PreviewLinkRow, now: number): LinkState {
  if (row.revoked_at !== null) return "revoked";
  if (row.expires_at <= now) return "expired";
  if (row.max_opens !== null && row.opens >= row.max_opens) return "used up";
  return "live";
}

/** A live link, as SQL: not revoked, not expired, opens left. `?` is now. */
const LIVE = "revoked_at IS NULL AND expires_at > ? AND (max_opens IS NULL OR opens < max_opens)";

/**
 * Links that ended this long ago leave the owner's list: the item's when it gets a new link, and
 * every item's by the daily `preview-links-prune` job (preview/prune.ts).
 */
export const KEEP_ENDED_MS = 30 * 86_400_000;

/** A link that ended (revoked, expired or used up) before `?1`. */
const ENDED_BEFORE = `(revoked_at < ?1 OR expires_at < ?1
  OR (max_opens IS NOT NULL AND opens >= max_opens AND COALESCE(last_opened_at, created_at) < ?1))`;

export function insertLink(sql: SqlStorage, row: Omit<PreviewLinkRow, "opens" | "last_opened_at" | "revoked_at">): PreviewLinkRow {
  // Long-ended links of the item go first: its list stays bounded between the daily prunes.
  sql.exec(`DELETE FROM preview_links WHERE ${ENDED_BEFORE} AND item_id = ?2`, row.created_at - KEEP_ENDED_MS, row.item_id);
  return sql
    .exec<PreviewLinkRow>(
      `INSERT INTO preview_links (id, item_id, token_hash, label, created_at, created_by, created_by_id, expires_at, password_hash, max_opens)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      row.id,
      row.item_id,
      row.token_hash,
      row.label,
      row.created_at,
      row.created_by,
      row.created_by_id,
      row.expires_at,
      row.password_hash,
      row.max_opens,
    )
    .one();
}

/** Live links of the item and of the whole site, for the limits. */
export function liveCounts(sql: SqlStorage, itemId: string, now: number): { item: number; site: number } {
  return sql
    .exec<{ item: number; site: number }>(
      `SELECT COALESCE(SUM(item_id = ?), 0) AS item, COUNT(*) AS site FROM preview_links WHERE ${LIVE}`,
      itemId,
      now,
    )
    .one();
}

export function linksOfItem(sql: SqlStorage, itemId: string): PreviewLinkRow[] {
  return sql.exec<PreviewLinkRow>("SELECT * FROM preview_links WHERE item_id = ? ORDER BY created_at DESC, id", itemId).toArray();
}

export function findLink(sql: SqlStorage, itemId: string, id: string): PreviewLinkRow | undefined {
  return sql.exec<PreviewLinkRow>("SELECT * FROM preview_links WHERE item_id = ? AND id = ?", itemId, id).toArray()[0];
}

/** The link a token names (by its hash), whatever its state: one indexed lookup. */
export function linkByTokenHash(sql: SqlStorage, tokenHash: string): PreviewLinkRow | undefined {
  return sql.exec<PreviewLinkRow>("SELECT * FROM preview_links WHERE token_hash = ?", tokenHash).toArray()[0];
}

/** Live links these makers (account or key ids) created. */
export function liveLinksMadeBy(sql: SqlStorage, makers: readonly string[], now: number): PreviewLinkRow[] {
  if (makers.length === 0) return [];
  return sql
    .exec<PreviewLinkRow>(
      `SELECT * FROM preview_links WHERE ${LIVE} AND created_by_id IN (${makers.map(() => "?").join(", ")})`,
      now,
      ...makers,
    )
    .toArray();
}

export function revokeLink(sql: SqlStorage, id: string, now: number): PreviewLinkRow {
  return sql.exec<PreviewLinkRow>("UPDATE preview_links SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING *", now, id).one();
}

/**
 * Counts one open if the link is still live: the check and the count are one statement, so two
 * opens racing for the last allowed one cannot both get it. Null when it was not live.
 */
export function countOpen(sql: SqlStorage, id: string, now: number): PreviewLinkRow | null {
  return (
    sql
      .exec<PreviewLinkRow>(
        `UPDATE preview_links SET opens = opens + 1, last_opened_at = ? WHERE id = ? AND ${LIVE} RETURNING *`,
        now,
        id,
        now,
      )
      .toArray()[0] ?? null
  );
}

export const LIVE_LIMITS = { perItem: PREVIEW_LINK_LIMITS.livePerItem, perSite: PREVIEW_LINK_LIMITS.livePerSite } as const;

/** Deletes at most `limit` links of any item that ended before `cutoff`; returns how many went. */
export function deleteEndedLinks(sql: SqlStorage, cutoff: number, limit: number): number {
  return sql.exec(`DELETE FROM preview_links WHERE id IN (SELECT id FROM preview_links WHERE ${ENDED_BEFORE} LIMIT ?2)`, cutoff, limit)
    .rowsWritten;
}
