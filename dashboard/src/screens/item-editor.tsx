import { lazy, Suspense } from "preact/compat";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { asOf, call, client } from "../api";
import { DateInput } from "../fields/date-input";
import { MediaInput, type MediaValue } from "../fields/media-input";
import { ReferencePicker } from "../fields/reference-picker";
import { itemTitle } from "../item-title";
import { go, goSavedWith, guardUnsaved, href, takeFlash } from "../router";
import { session } from "../session";
import { can, collections, inSite, roleName, site } from "../site-state";
import { slugify } from "../slugify";
import type { Collection, Field, Item, ItemData, MediaList } from "../types";
import { Confirm, ErrorNotice, Field as Labelled, Heading, Notice, type Submit, when } from "../ui";
import { useForm } from "../use-form";

const RichText = lazy(() => import("../fields/rich-text").then((m) => ({ default: m.RichText })));
// History, schedule and pending changes (issue 27): dashboard/src/history/.
const HistoryPanel = lazy(() => import("../history/panel").then((m) => ({ default: m.HistoryPanel })));
const ScheduleForm = lazy(() => import("../history/schedule-form").then((m) => ({ default: m.ScheduleForm })));
const SharePanel = lazy(() => import("../history/share-panel").then((m) => ({ default: m.SharePanel })));
/** What the editor shows of an item: a published item's pending changes when it has them. */
const shownOf = (i: Item) => i.pendingChanges ?? { slug: i.slug, data: i.data };

const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/** The form's values as the API takes them: numbers parsed, emptied fields cleared with null on edit. */
function toPayload(c: Collection, values: ItemData, editing: boolean): ItemData {
  const out: ItemData = {};
  for (const f of c.fields) {
    let v = values[f.key];
    if (f.type === "number" && typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) v = Number(v);
    // An unticked switch shows "no" and is saved as false: left out, `filter[key]=false` would miss the item.
    if (f.type === "boolean") v = v === true;
    if (isEmpty(v)) {
      if (editing) out[f.key] = null;
      continue;
    }
    out[f.key] = v;
  }
  return out;
}

export function ItemEditor(props: { collectionSlug: string; itemId: string | null }) {
  const s = site.value!;
  const c = collections.value?.find((x) => x.slug === props.collectionSlug);
  const [item, setItem] = useState<Item | null>(null);
  const [slugTouched, setSlugTouched] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(takeFlash);
  // After a save, focus stays with the form's outcome (a disabled Save button would drop it to <body>).
  const messageBox = useRef<HTMLDivElement>(null);
  const [confirm, setConfirm] = useState<"delete" | "unpublish" | "discard" | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  // Bumped when the values come from the service rather than the keyboard (restore, discard), so
  // inputs that keep their own state (the rich-text editor) start again from the new values.
  const [generation, setGeneration] = useState(0);
  const [media, setMedia] = useState<MediaList["media"]>([]);
  // `how` says what the save does to the item's status: true publishes, false keeps or makes it a
  // draft, null (Save on an existing item) leaves it as it is; "pending" keeps a published item's
  // changes out of public view until they are published.
  const form = useForm<{ values: ItemData; slug: string }, Item, boolean | null | "pending">(
    { values: {}, slug: "" },
    async ({ values, slug }, how) => {
      setMessage(null);
      setLoadError(null);
      const publish = how === "pending" ? null : (how ?? null);
      if (!c) throw new Error("no collection");
      if (!item) {
        const body = { slug, data: toPayload(c, values, false), publish: publish === true };
        return (await call(client.POST("/sites/{siteId}/collections/{slug}/items", { params: { path: inSite({ slug: c.slug }) }, body })))
          .item;
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
    },
    {
      // The envelope names item fields `data.<key>`; the form shows them at `<key>`.
      fieldOf: (path) => path.replace(/^data\./, ""),
      valueAt: (v, path) => (path === "slug" ? v.slug : v.values[path]),
      onSaved: (saved, how) => {
        if (!c) return;
        if (!item) {
          goSavedWith(how === true ? "Published." : "Saved as a draft.", s.id, "items", c.slug, saved.id);
          return;
        }
        setItem(saved);
        form.reset({ values: shownOf(saved).data, slug: shownOf(saved).slug });
        setMessage(
          how === "pending"
            ? "Saved as pending changes: the live version stays until you publish them."
            : how === true
              ? "Published."
              : how === false
                ? "Unpublished: the item is a draft again."
                : saved.status === "published"
                  ? "Saved and published."
                  : "Saved.",
        );
      },
    },
  );
  const { values, slug } = form.values;
  const { errors, dirty, pending: busy } = form;
  const error = loadError ?? form.error;

  useEffect(() => guardUnsaved(() => dirty), [dirty]);
  useEffect(() => {
    if (message || error) messageBox.current?.focus();
  }, [message, error, item]);
  useEffect(() => {
    if (c?.fields.some((f) => f.type === "image" || f.type === "video")) {
      call(client.GET("/sites/{siteId}/media", { params: { path: inSite(), query: { limit: 100 } } })).then(
        (r) => setMedia(r.media),
        () => undefined,
      );
    }
    if (!props.itemId) return;
    call(
      client.GET("/sites/{siteId}/collections/{slug}/items/{id}", {
        params: { path: inSite({ slug: props.collectionSlug, id: props.itemId }) },
      }),
    ).then((r) => {
      setItem(r.item);
      form.reset({ values: shownOf(r.item).data, slug: shownOf(r.item).slug });
      setSlugTouched(true);
    }, setLoadError);
  }, [props.collectionSlug, props.itemId]);

  if (!c) return <Notice kind="error">No collection “{props.collectionSlug}”.</Notice>;
  if (props.itemId && !item) return error ? <ErrorNotice error={error} /> : <p class="loading">Loading…</p>;

  // The slug follows the field the service names items by, until the owner types one.
  const titleField = c.titleField;
  const set = (key: string, v: unknown) =>
    form.update((prev) => ({
      values: { ...prev.values, [key]: v },
      slug: !slugTouched && key === titleField && typeof v === "string" ? slugify(v) : prev.slug,
    }));
  const save = (publish: boolean | null | "pending") => form.submit(publish);
  const discard = async () => {
    try {
      const r = await call(
        client.DELETE("/sites/{siteId}/collections/{slug}/items/{id}/pending", {
          params: { path: inSite({ slug: c.slug, id: item!.id }), header: asOf(item!) },
        }),
      );
      setItem(r.item);
      form.reset({ values: r.item.data, slug: r.item.slug });
      setGeneration((g) => g + 1);
      setMessage("Pending changes discarded: the editor shows the live version.");
    } catch (err) {
      setLoadError(err);
    }
  };

  const remove = async () => {
    try {
      await call(
        client.DELETE("/sites/{siteId}/collections/{slug}/items/{id}", {
          params: { path: inSite({ slug: c.slug, id: item!.id }), header: asOf(item!) },
        }),
      );
      goSavedWith(`Deleted “${itemTitle(c, item!)}”. Undo delete under “Recently deleted”.`, s.id, "items", c.slug);
    } catch (err) {
      setLoadError(err);
    }
  };

  const published = item?.status === "published";
  const pendingChanges = item?.pendingChanges ?? null;
  // A role limited to its own items (Contributor, Author) is offered only what the API would let it
  // do to this one: someone else's item is shown, not offered for change (a 403 otherwise).
  const mine = !item || (item.createdBy !== null && item.createdBy === session.value?.account?.id);
  const mayEdit = can("items.edit.any") || (mine && can("items.edit.own"));
  const mayDelete = can("items.delete.any") || (mine && can("items.delete.own"));
  // A role that cannot publish (Contributor) sees no Publish at all; the API would refuse it (403).
  const mayPublish = can("items.publish.any") || (mine && can("items.publish.own"));
  return (
    <section>
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
      <form
        class="card form"
        noValidate
        onSubmit={(e: Submit) => {
          e.preventDefault();
          void save(item ? null : false);
        }}
      >
        <div ref={messageBox} tabIndex={-1} class="outcome">
          <ErrorNotice error={error} />
          {message && <Notice kind="ok">{message}</Notice>}
        </div>
        <fieldset class="role-read-only" disabled={!mayEdit}>
          {c.fields.map((f) => (
            <FieldInput
              key={`${f.key}-${generation}`}
              field={f}
              value={values[f.key]}
              error={errors[f.key]}
              media={media}
              onChange={(v) => set(f.key, v)}
            />
          ))}
          <Labelled label="Slug" hint="The item's address: a-z, 0-9 and hyphens." error={errors.slug}>
            {(id, d) => (
              <input
                id={id}
                value={slug}
                aria-describedby={d}
                aria-invalid={errors.slug ? true : undefined}
                onInput={(e) => {
                  setSlugTouched(true);
                  form.set("slug", e.currentTarget.value);
                }}
              />
            )}
          </Labelled>
        </fieldset>
        {!mayEdit ? (
          <p class="muted">
            Someone else created this item: your role ({roleName()}) can change only items you created. An Editor or Administrator can
            change it.
          </p>
        ) : (
          !mayPublish && <p class="muted">Your role ({roleName()}) saves drafts; an Editor or Administrator publishes them.</p>
        )}
        <div class="actions">
          {item && !mayEdit ? (
            <button type="button" class="secondary" onClick={() => setHistoryOpen(true)}>
              History
            </button>
          ) : item ? (
            <>
              {published ? (
                <>
                  {/* Saving a published item's changes publishes them: only for a role that may publish. */}
                  {mayPublish && (
                    <button type="submit" disabled={busy}>
                      Save and publish changes
                    </button>
                  )}
                  <button type="button" class="secondary" disabled={busy} onClick={() => void save("pending")}>
                    Save as pending changes
                  </button>
                  {pendingChanges && (
                    <button type="button" class="secondary" disabled={busy} onClick={() => setConfirm("discard")}>
                      Discard pending changes
                    </button>
                  )}
                </>
              ) : (
                <button type="submit" disabled={busy}>
                  Save
                </button>
              )}
              <button type="button" class="secondary" disabled={busy} onClick={() => setHistoryOpen(true)}>
                History
              </button>
              {can("items.edit.any", "items.edit.own") && (
                <button type="button" class="secondary" disabled={busy} onClick={() => setShareOpen(true)}>
                  Share
                </button>
              )}
              {mayPublish &&
                (published ? (
                  <button type="button" class="secondary" disabled={busy} onClick={() => setConfirm("unpublish")}>
                    Unpublish
                  </button>
                ) : (
                  <button type="button" class="secondary" disabled={busy} onClick={() => void save(true)}>
                    Save and publish
                  </button>
                ))}
              {mayDelete && (
                <button type="button" class="danger" disabled={busy} onClick={() => setConfirm("delete")}>
                  Delete
                </button>
              )}
            </>
          ) : (
            <>
              <button type="submit" class={mayPublish ? "secondary" : undefined} disabled={busy}>
                Save as draft
              </button>
              {mayPublish && (
                <button type="button" disabled={busy} onClick={() => void save(true)}>
                  Save and publish
                </button>
              )}
              <button type="button" class="secondary" onClick={() => go(s.id, "items", c.slug)}>
                Cancel
              </button>
            </>
          )}
        </div>
      </form>
      {item && mayPublish && mayEdit && (
        <Suspense fallback={<p class="muted">Loading the schedule…</p>}>
          <ScheduleForm key={`${item.id}-${item.updatedAt}`} item={item} collectionSlug={c.slug} onChanged={setItem} />
        </Suspense>
      )}
      {item && shareOpen && (
        <Suspense fallback={<p class="muted">Loading sharing…</p>}>
          <SharePanel open={shareOpen} collection={c} item={item} onClose={() => setShareOpen(false)} />
        </Suspense>
      )}
      {item && historyOpen && (
        <Suspense fallback={<p class="muted">Loading the history…</p>}>
          <HistoryPanel
            open={historyOpen}
            collection={c}
            item={item}
            onClose={() => setHistoryOpen(false)}
            onRestored={(restored, dropped) => {
              setItem(restored);
              form.reset({ values: shownOf(restored).data, slug: shownOf(restored).slug });
              setGeneration((g) => g + 1);
              setMessage(
                (restored.status !== "published"
                  ? "Restored: this version is the current draft."
                  : restored.pendingChanges
                    ? "Restored as pending changes: the live version stays until you publish them."
                    : "That version is the live one: the editor shows it, with no pending changes.") +
                  (dropped.length ? ` Left out: ${dropped.join("; ")}.` : ""),
              );
            }}
          />
        </Suspense>
      )}
      <Confirm
        open={confirm === "discard"}
        title="Discard the pending changes?"
        confirmLabel="Discard pending changes"
        danger
        onClose={(ok) => {
          setConfirm(null);
          if (ok) void discard();
        }}
      >
        <p>The editor goes back to the live version. The discarded changes stay in the item's history.</p>
      </Confirm>
      <Confirm
        open={confirm === "delete"}
        title="Delete this item?"
        confirmLabel="Delete item"
        danger
        onClose={(ok) => {
          setConfirm(null);
          if (ok) void remove();
        }}
      >
        <p>The item is removed from your site and the content API at once. For 30 days you can undo the delete from the items list.</p>
      </Confirm>
      <Confirm
        open={confirm === "unpublish"}
        title="Unpublish this item?"
        confirmLabel="Unpublish"
        onClose={(ok) => {
          setConfirm(null);
          if (ok) void save(false);
        }}
      >
        <p>Visitors stop seeing it within seconds; it stays here as a draft{dirty ? ", with your unsaved changes saved" : ""}.</p>
        {item?.schedule && <p>Unpublishing by hand cancels the item's schedule.</p>}
      </Confirm>
    </section>
  );
}

function FieldInput(props: {
  field: Field;
  value: unknown;
  error: string | undefined;
  media: MediaList["media"];
  onChange: (v: unknown) => void;
}) {
  const { field: f, value, error } = props;
  const labelId = useId();
  const shown = f.name?.trim() || f.key;
  const label = f.required ? `${shown} (required)` : shown;
  const help = f.help?.trim() || undefined;
  switch (f.type) {
    case "option":
      return (
        <Labelled label={label} error={error} hint={help}>
          {(id, d) => (
            <select
              id={id}
              value={typeof value === "string" ? value : ""}
              aria-describedby={d}
              aria-invalid={error ? true : undefined}
              onChange={(e) => props.onChange(e.currentTarget.value || null)}
            >
              <option value="">{f.required ? "Choose one" : "None"}</option>
              {(f.options ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label ?? o.value}
                </option>
              ))}
              {typeof value === "string" && value !== "" && !(f.options ?? []).some((o) => o.value === value) && (
                <option value={value}>{value} (no longer offered)</option>
              )}
            </select>
          )}
        </Labelled>
      );
    case "richText":
      return (
        <div class={error ? "field has-error" : "field"}>
          <span class="label" id={labelId}>
            {label}
          </span>
          {help && (
            <p class="hint" id={`${labelId}-hint`}>
              {help}
            </p>
          )}
          <Suspense fallback={<p class="muted">Loading the editor…</p>}>
            <RichText
              labelId={labelId}
              value={typeof value === "string" ? value : ""}
              error={error}
              errorId={[help ? `${labelId}-hint` : "", error ? `${labelId}-err` : ""].filter(Boolean).join(" ") || undefined}
              onChange={props.onChange}
            />
          </Suspense>
          {error && (
            <p class="error" id={`${labelId}-err`}>
              {error}
            </p>
          )}
        </div>
      );
    case "boolean":
      return (
        <div class={error ? "field has-error" : "field"}>
          <label class="check">
            <input
              type="checkbox"
              checked={value === true}
              aria-describedby={help ? `${labelId}-hint` : undefined}
              onChange={(e) => props.onChange(e.currentTarget.checked)}
            />
            {label}
          </label>
          {help && (
            <p class="hint" id={`${labelId}-hint`}>
              {help}
            </p>
          )}
          {error && <p class="error">{error}</p>}
        </div>
      );
    case "date":
      return <DateInput label={label} hint={help} value={typeof value === "string" ? value : ""} error={error} onChange={props.onChange} />;
    case "image":
    case "video":
      return (
        <MediaInput
          label={label}
          hint={help}
          kind={f.type}
          value={(value ?? null) as MediaValue}
          library={props.media}
          error={error}
          onChange={props.onChange}
        />
      );
    case "reference":
    case "references":
      return (
        <ReferencePicker
          label={label}
          hint={help}
          target={f.collection ?? ""}
          multiple={f.type === "references"}
          value={Array.isArray(value) ? (value as string[]) : typeof value === "string" ? [value] : []}
          error={error}
          onChange={(ids) => props.onChange(f.type === "references" ? ids : (ids[0] ?? null))}
        />
      );
    default:
      return (
        <Labelled
          label={label}
          error={error}
          hint={
            [help, f.type === "link" ? "A web address (https://…), a path (/about), mailto: or tel:." : ""].filter(Boolean).join(" ") ||
            undefined
          }
        >
          {(id, d) =>
            f.type === "number" ? (
              <input
                id={id}
                type="number"
                step="any"
                value={value === undefined || value === null ? "" : String(value)}
                aria-describedby={d}
                aria-invalid={error ? true : undefined}
                onInput={(e) => props.onChange(e.currentTarget.value)}
              />
            ) : (
              <input
                id={id}
                type="text"
                inputMode={f.type === "link" ? "url" : undefined}
                value={value === undefined || value === null ? "" : String(value)}
                aria-describedby={d}
                aria-invalid={error ? true : undefined}
                onInput={(e) => props.onChange(e.currentTarget.value)}
              />
            )
          }
        </Labelled>
      );
  }
}
