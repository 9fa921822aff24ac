import { useState } from "preact/hooks";
import { api, get } from "../api";
import { href } from "../router";
import { site, sitePath } from "../site-state";
import type { MediaEntry, MediaList } from "../types";
import { ErrorNotice, Field, Heading, Notice, Pager, type Submit } from "../ui";
import { useLoad } from "../use-load";

export function Media() {
  const s = site.value!;
  const [page, setPage] = useState(1);
  const list = useLoad(() => get<MediaList>(sitePath("media") + `?page=${page}&limit=24`), [page]);
  return (
    <section>
      <Heading>Media</Heading>
      <p class="muted">
        Images and videos your items show. Add new ones from an item's image field; edit alt text here for every item that uses it.
      </p>
      <ErrorNotice error={list.error} />
      {list.data?.media.length === 0 && <p>No media yet.</p>}
      <ul class="media-grid">
        {list.data?.media.map((m) => (
          <MediaCard key={m.mediaId} m={m} siteId={s.id} />
        ))}
      </ul>
      {list.data && <Pager page={list.data.page} totalPages={list.data.totalPages} onPage={setPage} />}
    </section>
  );
}

function MediaCard(props: { m: MediaEntry; siteId: string }) {
  const { m } = props;
  const [alt, setAlt] = useState(m.alt);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const name = m.url.split("/").pop() || m.url;
  const save = async (e: Submit) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      await api("PATCH", sitePath("media", m.mediaId), { alt });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <li class="card media-card">
      {/\.(mp4|webm|mov)(\?|$)/i.test(m.url) ? (
        <video src={m.url} controls aria-label={alt || name} />
      ) : (
        <img src={m.url} alt={alt} loading="lazy" />
      )}
      <form onSubmit={save}>
        <Field label={`Alt text for ${name}`}>
          {(id) => <input id={id} value={alt} maxLength={1000} onInput={(e) => setAlt(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="secondary small">
          Save alt text for {name}
        </button>
        {saved && <Notice kind="ok">Saved.</Notice>}
        <ErrorNotice error={error} />
      </form>
      <p class="muted small-text">
        {m.width && m.height ? `${m.width}×${m.height} · ` : ""}
        {m.usedBy.length === 0 ? "Not used by any item." : "Used by: "}
        {m.usedBy.map((u, i) => (
          <span key={u.itemId + u.field}>
            {i > 0 && ", "}
            <a href={href(props.siteId, "items", u.collection, u.itemId)}>
              {u.collection}/{u.slug}
            </a>{" "}
            ({u.field})
          </span>
        ))}
      </p>
    </li>
  );
}
