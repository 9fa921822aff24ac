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
import type { ItemData } from "../content/item-data";
import { keepPublicData } from "../reads/public-items";
import { searchTextOf } from "../content/search-text";
import { dataByIds, updateItemContent } from "../storage/items-table";

export async function deleteMediaEntry(s: SiteContext, a: SiteAccess, id: string, detach: boolean): Promise<{ detached: number }> {
  const collections = s.collections();
  const byId = new Map(collections.map((c) => [c.id, c]));
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
    const fieldsByItem = new Map<string, string[]>();
    for (const u of uses) fieldsByItem.set(u.itemId, [...(fieldsByItem.get(u.itemId) ?? []), u.field]);
    const slugOf = new Map(uses.map((u) => [u.itemId, u.slug]));
    const now = new Date().toISOString();
    for (const [itemId, fields] of fieldsByItem) {
      const r = dataByIds(s.sql, [itemId])[0];
      if (!r) continue;
      const c = byId.get(r.collection_id)!;
      const data = JSON.parse(r.data) as ItemData;
      for (const f of fields) delete data[f];
      const updated = updateItemContent(s.sql, r.seq, slugOf.get(itemId)!, JSON.stringify(data), searchTextOf(c.fields, data), now, {
        actor: a.grant.actor,
        note: "media deleted and detached",
      });
      keepPublicData(s.sql, c, r.seq, data);
      if (updated.status === "published") published = true;
    }
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
  return { detached: done.detached };
}
