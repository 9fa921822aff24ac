/**
 * The API calls of the editor's Save buttons, and what the editor says after each. `how` says what
 * the save does to the item's status: true publishes, false keeps or makes it a draft, null (Save
 * on an existing item) leaves it as it is; "pending" keeps a published item's changes out of
 * public view until they are published.
 */
import { asOf, call, client } from "../../api";
import { inSite } from "../../site-state";
import type { Collection, Item, ItemData } from "../../types";
import { toPayload } from "./payload";

export type SaveHow = boolean | null | "pending";

/** Creates the item (`item` null) or saves it, then publishes or unpublishes it as `how` asks. */
export async function saveItem(c: Collection, item: Item | null, values: ItemData, slug: string, how: SaveHow | undefined): Promise<Item> {
  const publish = how === "pending" ? null : (how ?? null);
  if (!item) {
    const body = { slug, data: toPayload(c, values, false), publish: publish === true };
    return (await call(client.POST("/sites/{siteId}/collections/{slug}/items", { params: { path: inSite({ slug: c.slug }) }, body }))).item;
  }
  const path = inSite({ slug: c.slug, id: item.id });
  if (item.status === "published" && (how === "pending" || (how === null && item.pendingChanges))) {
    // Pending changes go through PUT …/pending; "Save and publish changes" then publishes them.
    const body = { slug, data: toPayload(c, values, true) };
    const kept = (
      await call(client.PUT("/sites/{siteId}/collections/{slug}/items/{id}/pending", { params: { path, header: asOf(item) }, body }))
    ).item;
    if (how === "pending") return kept;
    return (await call(client.POST("/sites/{siteId}/collections/{slug}/items/{id}/publish", { params: { path, header: asOf(kept) } })))
      .item;
  }
  let saved = (
    await call(
      client.PATCH("/sites/{siteId}/collections/{slug}/items/{id}", {
        params: { path, header: asOf(item) },
        body: { slug, data: toPayload(c, values, true) },
      }),
    )
  ).item;
  if (publish !== null && (publish ? "published" : "draft") !== saved.status) {
    const params = { path, header: asOf(saved) };
    saved = publish
      ? (await call(client.POST("/sites/{siteId}/collections/{slug}/items/{id}/publish", { params }))).item
      : (await call(client.POST("/sites/{siteId}/collections/{slug}/items/{id}/unpublish", { params }))).item;
  }
  return saved;
}

/** What the editor says after saving an existing item. */
export function savedMessage(how: SaveHow | undefined, saved: Item): string {
  return how === "pending"
    ? "Saved as pending changes: the live version stays until you publish them."
    : how === true
      ? "Published."
      : how === false
        ? "Unpublished: the item is a draft again."
        : saved.status === "published"
          ? "Saved and published."
          : "Saved.";
}

/** What the editor says after a version from the history was restored (`dropped`: fields left out). */
export function restoredMessage(restored: Item, dropped: string[]): string {
  return (
    (restored.status !== "published"
      ? "Restored: this version is the current draft."
      : restored.pendingChanges
        ? "Restored as pending changes: the live version stays until you publish them."
        : "That version is the live one: the editor shows it, with no pending changes.") +
    (dropped.length ? ` Left out: ${dropped.join("; ")}.` : "")
  );
}
