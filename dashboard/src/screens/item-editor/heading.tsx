/** The editor's title with the item's status, the way back to its collection, and where it is live. */
import { href } from "../../router";
import type { Collection, Item, Site } from "../../types";
import { Heading, when } from "../../ui";
import { itemTitle } from "../../item-title";

export function EditorHeading(props: { site: Site; collection: Collection; item: Item | null }) {
  const { site: s, collection: c, item } = props;
  const published = item?.status === "published";
  const pendingChanges = item?.pendingChanges ?? null;
  return (
    <>
      <Heading>
        {item ? itemTitle(c, item) : `New item in ${c.name}`}{" "}
        {item && (
          <span class={`badge ${item.status}${pendingChanges ? " pending" : ""}`}>
            {published ? (pendingChanges ? "Published · unpublished changes" : "Published") : "Draft"}
          </span>
        )}
      </Heading>
      <p>
        <a href={href(s.id, "items", c.slug)}>Back to {c.name}</a>
        {item && (
          <span class="muted">
            {pendingChanges
              ? ` · Changes saved ${when(pendingChanges.updatedAt)} · live version edited ${when(item.updatedAt)}`
              : ` · Last edited ${when(item.updatedAt)}`}
          </span>
        )}
        {published && (
          <span class="muted">
            {" "}
            · Live in the content API at{" "}
            <code>
              /v1/{s.token}/collections/{c.slug}/items/{item!.slug}
            </code>
          </span>
        )}
      </p>
    </>
  );
}
