/**
 * Duplicate: a new draft with the item's saved values (its pending changes when it has them), its
 * title marked as a copy and a free slug (`-copy`, `-copy-2`, …; the service refuses a taken one
 * with 409, which moves on to the next). Media and references are shared, not copied.
 */
import { ApiFailure, call, client } from "../../api";
import { inSite } from "../../site-state";
import type { Collection, Item } from "../../types";

const TRIES = 20;

export async function duplicateItem(c: Collection, item: Item): Promise<Item> {
  const data: Record<string, unknown> = { ...(item.pendingChanges?.data ?? item.data) };
  const title = c.titleField ? data[c.titleField] : undefined;
  if (typeof title === "string" && title.trim() !== "") data[c.titleField as string] = `${title} (copy)`;
  const base = `${item.slug}`.slice(0, 118);
  for (let n = 1; n <= TRIES; n++) {
    const slug = n === 1 ? `${base}-copy` : `${base}-copy-${n}`;
    try {
      const { item: made } = await call(
        client.POST("/sites/{siteId}/collections/{slug}/items", { params: { path: inSite({ slug: c.slug }) }, body: { slug, data } }),
      );
      return made;
    } catch (err) {
      if (!(err instanceof ApiFailure) || err.status !== 409) throw err;
    }
  }
  throw new Error(`Every slug from ${base}-copy to ${base}-copy-${TRIES} is taken: rename one of those items first.`);
}
