/**
 * Writing again the items that show a media entry, when the entry changes under them (detached
 * on delete, repointed to a copy in the library, its file replaced): each item's data through
 * the items repository (so it gets a revision with `note`), and its kept public JSON. Call
 * inside a transaction; answers whether a published item changed (the caller retires the cache).
 * `swap` says what each media id held becomes: itself, another id, or null (taken out). A field
 * holding one id is then cleared; a gallery keeps its other ids in order, and goes once empty.
 */
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import type { MediaUse } from "../content/media-library";
import type { ItemData } from "../content/item-data";
import { keepPublicData } from "../content/public-items";
import { searchTextOf } from "../content/search-text";
import { dataByIds, updateItemContent } from "../storage/items-table";

export function rewriteUses(
  s: SiteContext,
  a: SiteAccess,
  uses: readonly MediaUse[],
  swap: (mediaId: string) => string | null,
  note: string,
): { published: boolean } {
  const byId = new Map(s.collections().map((c) => [c.id, c]));
  const fieldsByItem = new Map<string, string[]>();
  for (const u of uses) fieldsByItem.set(u.itemId, [...(fieldsByItem.get(u.itemId) ?? []), u.field]);
  const slugOf = new Map(uses.map((u) => [u.itemId, u.slug]));
  const now = new Date().toISOString();
  let published = false;
  for (const [itemId, fields] of fieldsByItem) {
    const r = dataByIds(s.sql, [itemId])[0];
    if (!r) continue;
    const c = byId.get(r.collection_id)!;
    const data = JSON.parse(r.data) as ItemData;
    for (const f of fields) swapIn(data, f, swap);
    const updated = updateItemContent(s.sql, r.seq, slugOf.get(itemId)!, JSON.stringify(data), searchTextOf(c.fields, data), now, {
      actor: a.grant.actor,
      note,
    }).row;
    keepPublicData(s.sql, c, r.seq, data);
    if (updated.status === "published") published = true;
  }
  return { published };
}

function swapIn(data: ItemData, field: string, swap: (mediaId: string) => string | null): void {
  const v = data[field];
  const next = Array.isArray(v)
    ? [...new Set(v.map((id) => (typeof id === "string" ? swap(id) : null)).filter((id) => id !== null))]
    : typeof v === "string"
      ? swap(v)
      : null;
  if (next === null || (Array.isArray(next) && next.length === 0)) delete data[field];
  else data[field] = next;
}
