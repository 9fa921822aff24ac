/**
 * An item's history: its revisions (who, when, what changed, in the viewer's time zone), the
 * selected one compared field by field with the current version, and Restore. Loaded lazily
 * with the editor's History button; the comparison module (jsdiff) never reaches the items list.
 */
import { useEffect, useId, useState } from "preact/hooks";
import { asOf, call, client } from "../api";
import { inSite } from "../site-state";
import type { Collection, Item } from "../types";
import { ErrorNotice, Notice, useModal } from "../ui";
import { compareItems, type FieldDiff, type Piece } from "./compare";
import { showInZone, viewerZone } from "../time-zone";
import type { components } from "../generated/api";
import { Person, revisionWho } from "../person";

type S = components["schemas"];
type Summary = S["ListItemRevisionsResponse"]["revisions"][number];
type Revision = S["GetItemRevisionResponse"]["revision"];

export const KIND_WORDS: Record<Summary["kind"], string> = {
  baseline: "Before history",
  create: "Created",
  edit: "Edited",
  publish: "Published",
  unpublish: "Unpublished",
  delete: "Deleted",
  undelete: "Delete undone",
  restore: "Restored",
  schema: "Field removed from the collection",
  schedule: "Scheduled",
  unschedule: "Schedule cancelled",
  scheduled_publish: "Published by the schedule",
  scheduled_unpublish: "Unpublished by the schedule",
  pending: "Saved as pending changes",
  discard: "Pending changes discarded",
};

function Pieces(props: { pieces: Piece[] }) {
  return (
    <>
      {props.pieces.map((p, i) =>
        p.added ? (
          <ins key={i}>
            <span class="visually-hidden">added: </span>
            {p.text}
          </ins>
        ) : p.removed ? (
          <del key={i}>
            <span class="visually-hidden">removed: </span>
            {p.text}
          </del>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

function Comparison(props: { diffs: FieldDiff[] }) {
  if (!props.diffs.length) return <p>This version has the same values as the current one.</p>;
  return (
    <dl class="comparison">
      {props.diffs.map((d) => (
        <div key={d.key}>
          <dt>{d.label}</dt>
          <dd>
            {d.kind === "text" && <Pieces pieces={d.pieces} />}
            {d.kind === "value" && (
              <>
                <del>
                  <span class="visually-hidden">removed: </span>
                  {d.before}
                </del>{" "}
                →{" "}
                <ins>
                  <span class="visually-hidden">added: </span>
                  {d.after}
                </ins>
              </>
            )}
            {d.kind === "rich" &&
              d.blocks
                .filter((b) => b.state !== "same")
                .map((b, i) => (
                  <p key={i} class={`block ${b.state}`}>
                    <span class="block-label">
                      {b.label}
                      {b.state === "format" ? " (formatting changed)" : ""}:{" "}
                    </span>
                    <Pieces pieces={b.pieces} />
                  </p>
                ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function HistoryPanel(props: {
  open: boolean;
  collection: Collection;
  item: Item;
  onClose: () => void;
  onRestored: (item: Item, dropped: string[]) => void;
}) {
  const { collection: c, item } = props;
  const ref = useModal(props.open);
  const titleId = useId();
  const [list, setList] = useState<Summary[]>([]);
  const [page, setPage] = useState(1);
  const [more, setMore] = useState(false);
  const [selected, setSelected] = useState<Revision | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const zone = viewerZone();
  const path = inSite({ slug: c.slug, id: item.id });

  const load = async (p: number) => {
    try {
      const r = await call(
        client.GET("/sites/{siteId}/collections/{slug}/items/{id}/revisions", { params: { path, query: { page: p, limit: 24 } } }),
      );
      setList((prev) => (p === 1 ? r.revisions : [...prev, ...r.revisions]));
      setPage(p);
      setMore(p < r.totalPages);
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    if (props.open) {
      setSelected(null);
      setConfirming(false);
      void load(1);
    }
  }, [props.open, item.updatedAt, item.pendingChanges?.updatedAt]);

  const open = async (id: string) => {
    setError(null);
    setConfirming(false);
    try {
      const r = await call(
        client.GET("/sites/{siteId}/collections/{slug}/items/{id}/revisions/{revisionId}", {
          params: { path: { ...path, revisionId: id } },
        }),
      );
      setSelected(r.revision);
    } catch (err) {
      setError(err);
    }
  };
  const restore = async () => {
    if (!selected) return;
    setBusy(true);
    setError(null);
    try {
      const r = await call(
        client.POST("/sites/{siteId}/collections/{slug}/items/{id}/revisions/{revisionId}/restore", {
          params: { path: { ...path, revisionId: selected.id }, header: asOf(props.item) },
        }),
      );
      props.onRestored(
        r.item,
        r.restore.dropped.map((d) => `${d.field} (${d.reason})`),
      );
      ref.current?.close();
      props.onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  // The current version: a published item's pending changes when it has them, else its values.
  const current = item.pendingChanges ?? { slug: item.slug, data: item.data };
  const published = item.status === "published";

  return (
    <dialog ref={ref} class="history" aria-labelledby={titleId} onCancel={props.onClose} onClose={props.onClose}>
      <h2 id={titleId}>History</h2>
      <p class="muted">Times in your time zone, {zone}.</p>
      <ErrorNotice error={error} />
      <div class="history-body">
        <ol class="revisions" aria-label="Versions, newest first">
          {list.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                class={selected?.id === r.id ? "link selected" : "link"}
                aria-pressed={selected?.id === r.id}
                onClick={() => void open(r.id)}
              >
                Version {r.number}: {KIND_WORDS[r.kind]}
              </button>
              <span class="muted">
                {" "}
                {showInZone(r.at, zone)} · <Person who={revisionWho(r.actor)} />
                {r.changed.length ? ` · changed ${r.changed.join(", ")}` : ""}
                {r.note ? ` · ${r.note}` : ""}
              </span>
            </li>
          ))}
        </ol>
        {more && (
          <button type="button" class="secondary" onClick={() => void load(page + 1)}>
            Load older versions
          </button>
        )}
        {selected && (
          <section aria-labelledby={`${titleId}-cmp`} class="compare">
            <h3 id={`${titleId}-cmp`}>Version {selected.number} compared with the current version</h3>
            <p class="muted">Struck-out text is in version {selected.number} and not now; underlined text is new since.</p>
            <Comparison diffs={compareItems(c.fields, { slug: selected.slug, data: selected.data }, current)} />
            {confirming ? (
              <Notice kind="info">
                <p>
                  {published
                    ? `Version ${selected.number} becomes this item's pending changes. The live version stays until you publish them.`
                    : `Version ${selected.number} becomes the current draft. Publish it when ready.`}
                </p>
                <div class="actions">
                  <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                    Cancel
                  </button>
                  <button type="button" disabled={busy} onClick={() => void restore()}>
                    Restore version {selected.number}
                  </button>
                </div>
              </Notice>
            ) : (
              <button type="button" onClick={() => setConfirming(true)}>
                Restore this version
              </button>
            )}
          </section>
        )}
      </div>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          onClick={() => {
            ref.current?.close();
            props.onClose();
          }}
        >
          Close history
        </button>
      </div>
    </dialog>
  );
}
