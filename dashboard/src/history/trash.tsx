/**
 * "Recently deleted" under a collection's items: what was deleted in the last 30 days, with
 * Undo delete (the item comes back with its id, slug, status and publish date).
 */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { href } from "../router";
import { inSite } from "../site-state";
import type { Collection } from "../types";
import { ErrorNotice, Notice } from "../ui";
import { useLoad } from "../use-load";
import { showInZone } from "../time-zone";
import { Person, revisionWho } from "../person";

export function RecentlyDeleted(props: { siteId: string; collection: Collection; onRestored: () => void }) {
  const c = props.collection;
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<{ text: string; id: string } | null>(null);
  const trash = useLoad(() => call(client.GET("/sites/{siteId}/trash", { params: { path: inSite(), query: { limit: 100 } } })), []);
  const mine = (trash.data?.items ?? []).filter((t) => t.collection === c.slug);
  const undo = async (id: string, name: string) => {
    setError(null);
    try {
      await call(client.POST("/sites/{siteId}/trash/{itemId}/restore", { params: { path: inSite({ itemId: id }) } }));
      setMessage({ text: `“${name}” is back.`, id });
      trash.reload();
      props.onRestored();
    } catch (err) {
      setError(err);
    }
  };
  if (!mine.length && !message && !error) return null;
  return (
    <section class="card trash" aria-labelledby="recently-deleted">
      <h2 id="recently-deleted">Recently deleted</h2>
      <ErrorNotice error={error} />
      {message && (
        <Notice kind="ok">
          {message.text} <a href={href(props.siteId, "items", c.slug, message.id)}>Open it</a>
        </Notice>
      )}
      <ul>
        {mine.map((t) => {
          // Named as the delete's own message named it (its title), with the slug it comes back under.
          const name = t.title ?? t.slug;
          return (
            <li key={t.id}>
              “{name}” (<code>{t.slug}</code>, {t.status === "published" ? "was published" : "draft"}), deleted {showInZone(t.deletedAt)} by{" "}
              <Person who={revisionWho(t.deletedBy)} />{" "}
              <button type="button" class="secondary" aria-label={`Undo delete of ${name}`} onClick={() => void undo(t.id, name)}>
                Undo delete
              </button>
            </li>
          );
        })}
      </ul>
      <p class="hint">Deleted items stay here 30 days.</p>
    </section>
  );
}

/** The items table's status words: "Published · unpublished changes", "Scheduled · Mon 30 Nov…". */
export function statusWords(i: {
  status: string;
  pendingChanges: unknown;
  schedule: { publishAt: string | null; unpublishAt: string | null } | null;
}): string {
  const base = i.status === "published" ? (i.pendingChanges ? "Published · unpublished changes" : "Published") : "Draft";
  if (i.schedule?.publishAt) return `${base} · Scheduled ${showInZone(i.schedule.publishAt)}`;
  if (i.schedule?.unpublishAt) return `${base} · Unpublishes ${showInZone(i.schedule.unpublishAt)}`;
  return base;
}
