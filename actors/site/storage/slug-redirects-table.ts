/**
 * Where a published item's old addresses lead: its old slugs (`slug_redirects`, site migration
 * 27) and the slugs of items since removed (`gone_slugs`, migration 28). The tables' one reader:
 * their rows are written by the triggers of those migrations, inside the statement that renames,
 * publishes, unpublishes, creates or deletes an item, so no write path can forget one; and by a
 * site import, which brings an exported site's old slugs along with its items' ids.
 */

/**
 * The slug a published item that once answered at `slug` has now, or null: a slug that never
 * was a published item's, or whose item is gone or unpublished, redirects nowhere.
 */
export function movedSlug(sql: SqlStorage, collectionId: string, slug: string): string | null {
  const row = sql
    .exec<{ slug: string }>(
      `SELECT i.slug FROM slug_redirects r JOIN items i ON i.id = r.item_id
        WHERE r.collection_id = ? AND r.slug = ? AND i.status = 'published'`,
      collectionId,
      slug,
    )
    .toArray()[0];
  return row?.slug ?? null;
}

/** Whether a published item answered at `slug` until it was deleted or unpublished, within `days`. */
export function goneWithin(sql: SqlStorage, collectionId: string, slug: string, days: number, now = Date.now()): boolean {
  const since = new Date(now - days * 86_400_000).toISOString();
  return (
    sql.exec("SELECT 1 FROM gone_slugs WHERE collection_id = ? AND slug = ? AND gone_at >= ?", collectionId, slug, since).toArray().length >
    0
  );
}

/** How many old slugs redirect on their own (the owner's redirects list says so beside its rules). */
export function countMovedSlugs(sql: SqlStorage): number {
  return sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM slug_redirects").one().n;
}

export interface MovedSlugRow extends Record<string, SqlStorageValue> {
  collection_id: string;
  slug: string;
  item_id: string;
}

/** Every old slug and the item it leads to (the site export). */
export function movedSlugRows(sql: SqlStorage): MovedSlugRow[] {
  return sql.exec<MovedSlugRow>("SELECT collection_id, slug, item_id FROM slug_redirects ORDER BY collection_id, slug").toArray();
}

/** An imported site's old slugs, before its items (a row leads nowhere until its item is published). */
export function restoreMovedSlugs(sql: SqlStorage, rows: readonly MovedSlugRow[], now: string): void {
  for (const r of rows)
    sql.exec(
      "INSERT OR REPLACE INTO slug_redirects (collection_id, slug, item_id, created_at) VALUES (?, ?, ?, ?)",
      r.collection_id,
      r.slug,
      r.item_id,
      now,
    );
}
