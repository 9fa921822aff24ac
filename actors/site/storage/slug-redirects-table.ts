/**
 * The old slugs of published items (site migration 27): the table's one reader. Its rows are
 * written only by the triggers of that migration, inside the statement that renames, creates or
 * deletes an item, so no write path can forget one.
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
