/**
 * Deleting a library entry: refused (409) while items show it, unless the caller asks to detach
 * it from them, which clears those fields in the same transaction. The row and its variant rows
 * go in the transaction; the bytes go right after it (whatever fails there, the sweep removes).
 */
import { ApiError } from "../../../src/contract/errors";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { usesOfOne } from "../content/media-library";
import { rewriteUses } from "./rewrite-uses";
import { settleStorage } from "./quota";

export async function deleteMediaEntry(s: SiteContext, a: SiteAccess, id: string, detach: boolean): Promise<{ detached: number }> {
  const collections = s.collections();
  let published = false;
  const done = s.storage.transactionSync(() => {
    const row = s.sql.exec<{ object_key: string | null }>("SELECT object_key FROM media WHERE id = ?", id).toArray()[0];
    if (!row) throw new ApiError("not_found", "No such media entry.");
    const uses = usesOfOne(s.sql, collections, id);
    if (uses.length > 0 && !detach)
      throw new ApiError(
        "conflict",
        `This file is shown by ${uses.length} item${uses.length === 1 ? "" : "s"}; remove it from them first, or delete with ?detach=true.`,
        { usedBy: uses },
      );
    if (rewriteUses(s, a, uses, (m) => (m === id ? null : m), "media deleted and detached").published) published = true;
    const variants = row.object_key
      ? s.sql
          .exec<{ key: string }>("SELECT key FROM media_variants WHERE object_key = ?", row.object_key)
          .toArray()
          .map((v) => v.key)
      : [];
    if (row.object_key) s.sql.exec("DELETE FROM media_variants WHERE object_key = ?", row.object_key);
    s.sql.exec("DELETE FROM media WHERE id = ?", id);
    recordAudit(s.sql, a, `media ${id}`, { detached: uses.length });
    return { keys: row.object_key ? [row.object_key, ...variants] : [], detached: uses.length };
  });
  if (published) s.contentChanged();
  if (done.keys.length > 0) await s.env.MEDIA.delete(done.keys).catch(() => undefined);
  // The workspace's storage gets the bytes back.
  await settleStorage(s, []);
  return { detached: done.detached };
}
