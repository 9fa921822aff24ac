import { useState } from "preact/hooks";
import { call, client } from "../api";
import { href } from "../router";
import { inSite, site } from "../site-state";
import type { MediaEntry } from "../types";
import { ErrorNotice, Field, Heading, Notice, Pager } from "../ui";
import { useForm } from "../use-form";
import { useLoad } from "../use-load";

export function Media() {
  const s = site.value!;
  const [page, setPage] = useState(1);
  const list = useLoad(() => call(client.GET("/sites/{siteId}/media", { params: { path: inSite(), query: { page, limit: 24 } } })), [page]);
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
  const form = useForm({ alt: m.alt }, (body) =>
    call(client.PATCH("/sites/{siteId}/media/{mediaId}", { params: { path: inSite({ mediaId: m.mediaId }) }, body })),
  );
  const alt = form.values.alt;
  const name = m.url.split("/").pop() || m.url;
  return (
    <li class="card media-card">
      {/\.(mp4|webm|mov)(\?|$)/i.test(m.url) ? (
        <video src={m.url} controls aria-label={alt || name} />
      ) : (
        <img src={m.url} alt={alt} loading="lazy" />
      )}
      <form onSubmit={form.onSubmit}>
        <Field label={`Alt text for ${name}`} error={form.errors.alt}>
          {(id, d) => (
            <input id={id} value={alt} maxLength={1000} aria-describedby={d} onInput={(e) => form.set("alt", e.currentTarget.value)} />
          )}
        </Field>
        <button type="submit" class="secondary small" disabled={form.pending}>
          Save alt text for {name}
        </button>
        {form.saved && <Notice kind="ok">Saved.</Notice>}
        <ErrorNotice error={form.error} />
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
