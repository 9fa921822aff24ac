/** Pieces of the Media screen's grid: the type/name filter and deleting an entry (409 names the items that show it). */
import { useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { inSite } from "../site-state";
import type { MediaEntry } from "../types";
import { ErrorNotice } from "../ui";

export function matchesFilter(m: MediaEntry, kind: string, q: string): boolean {
  const type = m.type ?? (/\.(mp4|webm|mov)(\?|$)/i.test(m.url) ? "video/" : "image/");
  if (kind && !type.startsWith(kind)) return false;
  const name = (m.name ?? m.url.split("/").pop() ?? "").toLowerCase();
  return q.trim() === "" || name.includes(q.trim().toLowerCase()) || m.alt.toLowerCase().includes(q.trim().toLowerCase());
}

export function DeleteMedia(props: { m: MediaEntry; name: string; onDeleted: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const [inUse, setInUse] = useState(false);
  const remove = async (detach: boolean) => {
    setError(null);
    try {
      await call(
        client.DELETE("/sites/{siteId}/media/{mediaId}", {
          params: { path: inSite({ mediaId: props.m.mediaId }), query: detach ? { detach: "true" } : {} },
        }),
      );
      props.onDeleted();
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 409) setInUse(true);
      setError(e);
    }
  };
  return (
    <div class="delete-media">
      <button type="button" class="secondary small" onClick={() => void remove(false)}>
        Delete {props.name}
      </button>
      {inUse && (
        <button type="button" class="danger small" onClick={() => void remove(true)}>
          Remove {props.name} from those items and delete it
        </button>
      )}
      <ErrorNotice error={error} />
    </div>
  );
}
