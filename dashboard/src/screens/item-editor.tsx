/**
 * An item's editor: its fields, slug and Save buttons (item-editor/), with its schedule, share
 * links and history beside it. New items are saved and then opened at their own address.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { asOf, call, client } from "../api";
import { itemTitle } from "../item-title";
import { go, goSavedWith, goWith, guardUnsaved, takeFlash } from "../router";
import { can, collections, inSite, site } from "../site-state";
import { slugify } from "../slugify";
import type { Collection, Item, MediaList } from "../types";
import { ErrorNotice, Notice, type Submit } from "../ui";
import { type Confirming, EditorActions, permissionsOn, RoleNote } from "./item-editor/actions";
import { EditorConfirms } from "./item-editor/confirms";
import { ItemFields } from "./item-editor/fields";
import { EditorHeading } from "./item-editor/heading";
import { History, Schedule, Share } from "./item-editor/panels";
import { shownOf } from "./item-editor/payload";
import { restoredMessage, type SaveHow } from "./item-editor/save";
import { useItemForm } from "./item-editor/use-item-form";
import { useItemLoad } from "./item-editor/use-item-load";
import { duplicateItem } from "./item-editor/duplicate";
import { Translations } from "./item-editor/translations";

export function ItemEditor(props: { collectionSlug: string; itemId: string | null }) {
  const s = site.value!;
  const c = collections.value?.find((x) => x.slug === props.collectionSlug);
  const [item, setItem] = useState<Item | null>(null);
  const [slugTouched, setSlugTouched] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(takeFlash);
  // After a save, focus stays with the form's outcome (a disabled Save button would drop it to <body>).
  const messageBox = useRef<HTMLDivElement>(null);
  const [confirm, setConfirm] = useState<Confirming | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  // Bumped when the values come from the service rather than the keyboard (restore, discard), so
  // inputs that keep their own state (the rich-text editor) start again from the new values.
  const [generation, setGeneration] = useState(0);
  const [media, setMedia] = useState<MediaList["media"]>([]);
  const form = useItemForm({ siteId: s.id, collection: c, item, setItem, setMessage, setLoadError });
  const { values, slug } = form.values;
  const { errors, dirty, pending: busy } = form;
  const error = loadError ?? form.error;
  /** Shows `next` as the service has it now, its values replacing what the form holds. */
  const showItem = (next: Item, shown: { data: Item["data"]; slug: string }, said: string) => {
    setItem(next);
    form.reset({ values: shown.data, slug: shown.slug });
    setGeneration((g) => g + 1);
    setMessage(said);
  };

  useEffect(() => guardUnsaved(() => dirty), [dirty]);
  useEffect(() => {
    if (message || error) messageBox.current?.focus();
  }, [message, error, item]);
  useItemLoad({
    collectionSlug: props.collectionSlug,
    itemId: props.itemId,
    collection: c,
    onMedia: setMedia,
    onItem: (loaded) => {
      setItem(loaded);
      form.reset({ values: shownOf(loaded).data, slug: shownOf(loaded).slug });
      setSlugTouched(true);
    },
    onError: setLoadError,
  });

  if (!c) return <Notice kind="error">No collection “{props.collectionSlug}”.</Notice>;
  if (props.itemId && !item) return error ? <ErrorNotice error={error} /> : <p class="loading">Loading…</p>;

  // The slug follows the field the service names items by, until the owner types one.
  const titleField = c.titleField;
  const set = (key: string, v: unknown) =>
    form.update((prev) => ({
      values: { ...prev.values, [key]: v },
      slug: !slugTouched && key === titleField && typeof v === "string" ? slugify(v) : prev.slug,
    }));
  const save = (publish: SaveHow) => form.submit(publish);
  const changes = itemChanges(c, item, s.id, showItem, setLoadError);

  const { mayEdit, mayDelete, mayPublish, mayShare } = permissionsOn(item);
  return (
    <section>
      <EditorHeading site={s} collection={c} item={item} />
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
        <ItemFields
          collection={c}
          values={values}
          slug={slug}
          errors={errors}
          generation={generation}
          media={media}
          mayEdit={mayEdit}
          onChange={set}
          onSlug={(v) => {
            setSlugTouched(true);
            form.set("slug", v);
          }}
        />
        <RoleNote mayEdit={mayEdit} mayPublish={mayPublish} />
        <EditorActions
          item={item}
          mayEdit={mayEdit}
          mayPublish={mayPublish}
          mayDelete={mayDelete}
          mayShare={mayShare}
          busy={busy}
          save={(how) => void save(how)}
          confirm={setConfirm}
          openHistory={() => setHistoryOpen(true)}
          openShare={() => setShareOpen(true)}
          cancel={() => go(s.id, "items", c.slug)}
          dirty={dirty}
          duplicate={
            item && can("items.create")
              ? () =>
                  void duplicateItem(c, item).then(
                    // The copy opens at its own address; Back returns to the original.
                    (made) => goWith(`Duplicated: this copy is a draft, “${itemTitle(c, made)}”.`, s.id, "items", c.slug, made.id),
                    setLoadError,
                  )
              : null
          }
        />
      </form>
      {item && mayPublish && mayEdit && <Schedule item={item} collection={c} onChanged={setItem} />}
      {item && <Translations item={item} collection={c} mayEdit={mayEdit} media={media} />}
      {item && shareOpen && <Share item={item} collection={c} onClose={() => setShareOpen(false)} />}
      {item && historyOpen && (
        <History
          item={item}
          collection={c}
          onClose={() => setHistoryOpen(false)}
          onRestored={(restored, dropped) => showItem(restored, shownOf(restored), restoredMessage(restored, dropped))}
        />
      )}
      <EditorConfirms
        confirming={confirm}
        item={item}
        dirty={dirty}
        onClose={(what, ok) => {
          setConfirm(null);
          if (!ok) return;
          if (what === "discard") void changes.discard();
          else if (what === "delete") void changes.remove();
          else void save(false);
        }}
      />
    </section>
  );
}

/** Discarding an item's pending changes and deleting it; a refusal is shown as the editor's error. */
function itemChanges(
  c: Collection,
  item: Item | null,
  siteId: string,
  showItem: (next: Item, shown: { data: Item["data"]; slug: string }, said: string) => void,
  failed: (error: unknown) => void,
) {
  const params = () => ({ path: inSite({ slug: c.slug, id: item!.id }), header: asOf(item!) });
  return {
    discard: async () => {
      try {
        const r = await call(client.DELETE("/sites/{siteId}/collections/{slug}/items/{id}/pending", { params: params() }));
        showItem(r.item, r.item, "Pending changes discarded: the editor shows the live version.");
      } catch (err) {
        failed(err);
      }
    },
    remove: async () => {
      try {
        await call(client.DELETE("/sites/{siteId}/collections/{slug}/items/{id}", { params: params() }));
        goSavedWith(`Deleted “${itemTitle(c, item!)}”. Undo delete under “Recently deleted”.`, siteId, "items", c.slug);
      } catch (err) {
        failed(err);
      }
    },
  };
}
