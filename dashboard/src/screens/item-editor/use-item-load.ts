/**
 * Loads what the editor shows when it opens an item (nothing for a new one) and, for a collection
 * with image, video or gallery fields, the media library to pick from. Again when the item or collection changes.
 */
import { useEffect } from "preact/hooks";
import { call, client } from "../../api";
import { inSite } from "../../site-state";
import type { Collection, Item, MediaList } from "../../types";

export function useItemLoad(load: {
  collectionSlug: string;
  itemId: string | null;
  collection: Collection | undefined;
  onMedia: (media: MediaList["media"]) => void;
  onItem: (item: Item) => void;
  onError: (error: unknown) => void;
}) {
  useEffect(() => {
    if (load.collection?.fields.some((f) => f.type === "image" || f.type === "video" || f.type === "gallery")) {
      call(client.GET("/sites/{siteId}/media", { params: { path: inSite(), query: { limit: 100 } } })).then(
        (r) => load.onMedia(r.media),
        () => undefined,
      );
    }
    if (!load.itemId) return;
    call(
      client.GET("/sites/{siteId}/collections/{slug}/items/{id}", {
        params: { path: inSite({ slug: load.collectionSlug, id: load.itemId }) },
      }),
    ).then((r) => load.onItem(r.item), load.onError);
  }, [load.collectionSlug, load.itemId]);
}
