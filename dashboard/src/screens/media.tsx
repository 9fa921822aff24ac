import { useState } from "preact/hooks";
import { call, client } from "../api";
import { href } from "../router";
import { inSite, site } from "../site-state";
import type { MediaEntry } from "../types";
import { ErrorNotice, Field, Heading, Pager } from "../ui";
import { Uploader } from "../media/uploader";
import { DeleteMedia, matchesFilter } from "../media/library";
import { CopyIntoLibrary, FocalPicker, ReplaceFile } from "../media/card-actions";
import { formatBytes } from "../media/upload";
import { AltTextField, useAltText } from "../media/alt-text";
import { useLoad } from "../use-load";

export function Media() {
  const s = site.value!;
  const [page, setPage] = useState(1);
  const [reloads, setReloads] = useState(0);
  const [kind, setKind] = useState("");
  const [q, setQ] = useState("");
  const list = useLoad(
    () => call(client.GET("/sites/{siteId}/media", { params: { path: inSite(), query: { page, limit: 24 } } })),
    [page, reloads],
  );
  const shown = (list.data?.media ?? []).filter((m) => matchesFilter(m, kind, q));
  return (
    <section>
      <Heading>Media</Heading>
      <p class="muted">
        Images, videos and PDFs your items show. Drop files here (or choose them, or paste); edit alt text here for every item that uses it.
      </p>
      <Uploader siteId={s.id} pasteTarget="document" onUploaded={() => setReloads((n) => n + 1)} />
      <div class="pair media-filters">
        <Field label="Show">
          {(id) => (
            <select id={id} value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
              <option value="">All types</option>
              <option value="image">Images</option>
              <option value="video">Videos</option>
              <option value="application/pdf">PDFs</option>
            </select>
          )}
        </Field>
        <Field label="Search by name">
          {(id) => <input id={id} type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />}
        </Field>
      </div>
      <ErrorNotice error={list.error} />
      {!list.data && !list.error && <p class="muted">Loading media…</p>}
      {list.data?.media.length === 0 && (
        <p class="empty">No media yet. Files you drop, choose or paste above appear here, ready for any item's image field.</p>
      )}
      {list.data && list.data.media.length > 0 && shown.length === 0 && <p>No media on this page matches.</p>}
      <ul class="media-grid">
        {shown.map((m) => (
          <MediaCard key={m.mediaId} m={m} siteId={s.id} onDeleted={() => setReloads((n) => n + 1)} />
        ))}
      </ul>
      {list.data && <Pager page={list.data.page} totalPages={list.data.totalPages} onPage={setPage} />}
    </section>
  );
}

/** `onDeleted`: the list is read again (after a delete, a replace or a copy). */
function MediaCard(props: { m: MediaEntry; siteId: string; onDeleted: () => void }) {
  const { m } = props;
  const form = useAltText(m);
  const alt = form.values.alt;
  const name = m.name ?? (m.url.split("/").pop() || m.url);
  return (
    <li class="card media-card">
      {m.type === "application/pdf" ? (
        <a href={m.url} class="pdf-thumb">
          PDF: {name}
        </a>
      ) : m.type?.startsWith("video/") || /\.(mp4|webm|mov)(\?|$)/i.test(m.url) ? (
        <video src={m.url} controls aria-label={alt || name} />
      ) : (
        <FocalPicker m={m} name={name} alt={alt} />
      )}
      <p class="small-text">
        <strong>{name}</strong>
        {m.width && m.height ? ` · ${m.width}×${m.height}` : ""}
        {m.bytes !== undefined ? ` · ${formatBytes(m.bytes)}` : ""}
      </p>
      {!alt && m.type?.startsWith("image/") && <p class="muted small-text">No alt text yet: describe the image below.</p>}
      <AltTextField form={form} label={`Alt text for ${name}`} name={name} />
      {m.type ? (
        <ReplaceFile m={m} name={name} onReplaced={props.onDeleted} />
      ) : (
        <CopyIntoLibrary m={m} name={name} onCopied={props.onDeleted} />
      )}
      <DeleteMedia m={m} name={name} onDeleted={props.onDeleted} />
      <p class="muted small-text">
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
