import { useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { go, goSaved, guardUnsaved, href } from "../router";
import { can, collections, inSite, reloadCollections, site } from "../site-state";
import { fieldKeyOf, slugify } from "../slugify";
import { FIELD_TYPES, INDEXABLE, LOCALIZABLE, TYPE_NAMES, type Collection, type Field, type FieldType } from "../types";
import { Confirm, ErrorNotice, Field as Labelled, Heading, Notice, type Submit } from "../ui";
import { useForm } from "../use-form";
import { RoleGate } from "../role-gate";
import { FieldOrder, dropTarget, moved } from "./collection-editor/field-order";

type Option = NonNullable<Field["options"]>[number];

interface Row extends Field {
  uid: number;
  /** The key follows the label until the owner types a key of their own. */
  keyTouched: boolean;
  /** Saved already: its key is fixed once the collection has items (a new key would start empty). */
  saved: boolean;
  /** An option field's choices as typed, one label per line. */
  optionText: string;
}

let uids = 0;
// A saved field's key is its own; the new collection's first field (unsaved) still follows its label.
const toRows = (fields: Field[], saved: boolean): Row[] =>
  fields.map((f) => ({ ...f, uid: ++uids, keyTouched: saved, saved, optionText: (f.options ?? []).map(labelOf).join("\n") }));
const labelOf = (o: Option): string => o.label ?? o.value;

/** Options from the lines typed: an existing option keeps its value (items hold it), a new one gets one from its label. */
function optionsOf(text: string, before: readonly Option[]): Option[] {
  const out: Option[] = [];
  for (const line of text.split("\n")) {
    const label = line.trim();
    if (!label) continue;
    const value = before.find((o) => labelOf(o) === label)?.value ?? (slugify(label) || label);
    if (!out.some((o) => o.value === value)) out.push(value === label ? { value } : { value, label });
  }
  return out;
}

const clean = (rows: Row[], before: readonly Field[]): Field[] =>
  rows.map(({ key, name, help, type, indexed, required, localized, collection, currency, optionText }) => ({
    key,
    ...(name?.trim() ? { name: name.trim() } : {}),
    ...(help?.trim() ? { help: help.trim() } : {}),
    type,
    ...(indexed && INDEXABLE.has(type) ? { indexed: true } : {}),
    ...(required ? { required: true } : {}),
    ...(localized && LOCALIZABLE.has(type) ? { localized: true } : {}),
    ...(type === "reference" || type === "references" ? { collection: collection ?? "" } : {}),
    ...(type === "decimal" && currency?.trim() ? { currency: currency.trim().toUpperCase() } : {}),
    ...(type === "option" ? { options: optionsOf(optionText, before.find((f) => f.key === key)?.options ?? []) } : {}),
  }));

/** What saving these fields will do to existing items, in words, before the owner confirms. */
function consequences(before: Field[], after: Field[]): string[] {
  const out: string[] = [];
  for (const old of before) {
    const next = after.find((f) => f.key === old.key);
    if (!next)
      out.push(`Removing “${old.key}” deletes its values from every item of this collection. Adding the key again later starts empty.`);
    else if (next.type !== old.type || next.collection !== old.collection)
      out.push(
        `Changing “${old.key}” from ${TYPE_NAMES[old.type]} to ${TYPE_NAMES[next.type]} is refused while any item holds a value for it: clear those values first, or add a new field instead.`,
      );
    if (next && old.type === "option" && next.type === "option") {
      const kept = new Set((next.options ?? []).map((o) => o.value));
      for (const o of old.options ?? []) {
        if (!kept.has(o.value))
          out.push(
            `Taking the option “${labelOf(o)}” off “${old.name ?? old.key}” is refused while any item uses it: move those items to another option first. Unused, it simply goes.`,
          );
      }
    }
    if (next?.required && !old.required)
      out.push(
        `Making “${old.key}” required works only if every item has a value for it; if some do not, the save is refused and names them.`,
      );
  }
  return out;
}

export function CollectionEditor(props: { slug: string | null }) {
  const s = site.value!;
  const existing: Collection | undefined = props.slug ? collections.value?.find((c) => c.slug === props.slug) : undefined;
  const [slugTouched, setSlugTouched] = useState(Boolean(existing));
  // Keys of saved fields stay editable until the collection has items.
  const [hasItems, setHasItems] = useState<boolean | null>(existing ? null : false);
  const [rendersPages, setRendersPages] = useState(false);
  const [pending, setPending] = useState<string[] | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const slugInput = useRef<HTMLInputElement>(null);
  const form = useForm(
    {
      name: existing?.name ?? "",
      slug: existing?.slug ?? "",
      rows: existing
        ? toRows(existing.fields, true)
        : toRows([{ key: "title", name: "Title", type: "text", indexed: true, required: true }], false),
    },
    // A new collection is created only (If-None-Match: *): the service refuses a slug taken meanwhile.
    ({ name, slug, rows }) =>
      call(
        client.PUT("/sites/{siteId}/collections/{slug}", {
          params: { path: inSite({ slug }), header: existing ? {} : { "if-none-match": "*" } },
          body: { name, fields: clean(rows, existing?.fields ?? []) },
        }),
      ),
    {
      onSaved: async (res) => {
        await reloadCollections();
        form.reset({ ...form.values, rows: form.values.rows.map((r) => ({ ...r, saved: true })) });
        if (!existing) goSaved(s.id, "items", res.collection.slug);
      },
      failed: async (err) => {
        if (!existing && err instanceof ApiFailure && err.status === 409 && err.error.details?.["slug"] === form.values.slug) {
          // Created elsewhere since this screen loaded: the list learns of it, and the Slug field says so.
          await reloadCollections();
          slugInput.current?.focus();
          return true;
        }
        return false;
      },
    },
  );
  const { name, slug, rows } = form.values;
  const { errors, dirty } = form;
  const setRows = (change: (rows: Row[]) => Row[]) => form.update((v) => ({ ...v, rows: change(v.rows) }));
  const [orderNote, setOrderNote] = useState("");
  const moveRow = (from: number, to: number) => {
    setRows((rs) => moved(rs, from, to));
    setOrderNote(`Field ${from + 1} moved to position ${to + 1}.`);
  };
  useEffect(() => guardUnsaved(() => dirty), [dirty]);
  useEffect(() => {
    if (!existing) return;
    call(
      client.GET("/sites/{siteId}/collections/{slug}/items", { params: { path: inSite({ slug: existing.slug }), query: { limit: 1 } } }),
    ).then(
      (r) => setHasItems(r.total > 0),
      () => setHasItems(true),
    );
  }, []);

  if (props.slug && !existing) return <Notice kind="error">No collection “{props.slug}”.</Notice>;

  const update = (uid: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.uid === uid ? { ...r, ...patch } : r)));
  const others = (collections.value ?? []).filter((c) => c.slug !== existing?.slug);
  // A new collection never takes the slug of one that exists: saving would replace its fields.
  const taken = !existing && (collections.value ?? []).some((c) => c.slug === slug);
  const slugError = taken ? "A collection with this slug exists:" : errors.slug;

  const submit = (e: Submit) => {
    e.preventDefault();
    if (taken) {
      slugInput.current?.focus();
      return;
    }
    const words = existing ? consequences(existing.fields, clean(rows, existing.fields)) : [];
    if (words.length) setPending(words);
    else void form.submit();
  };

  return (
    <section>
      <Heading
        actions={
          existing &&
          can("collections.manage") && (
            <button
              type="button"
              class="danger"
              onClick={() => {
                setDeleting(true);
                void capturedCollection().then((slug) => setRendersPages(slug === existing.slug));
              }}
            >
              Delete collection
            </button>
          )
        }
      >
        {existing ? `Fields of ${existing.name}` : "New collection"}
      </Heading>
      <RoleGate permission="collections.manage" what={existing ? "this collection's fields" : "collections"}>
        <form onSubmit={submit} class="card form">
          <ErrorNotice error={error ?? form.error} />
          {form.saved && <Notice kind="ok">Saved.</Notice>}
          <div class="row">
            <Labelled label="Collection name" error={errors.name}>
              {(id, d) => (
                <input
                  id={id}
                  required
                  value={name}
                  aria-describedby={d}
                  onInput={(e) => {
                    const typed = e.currentTarget.value;
                    form.update((v) => ({ ...v, name: typed, ...(slugTouched ? {} : { slug: slugify(typed) }) }));
                  }}
                />
              )}
            </Labelled>
            <Labelled
              label="Collection slug"
              hint="Used in URLs and the API; cannot change later."
              error={slugError}
              errorAction={taken && <a href={href(s.id, "collection", slug)}>open it</a>}
            >
              {(id, d) => (
                <input
                  id={id}
                  ref={slugInput}
                  aria-invalid={taken || undefined}
                  required
                  readOnly={Boolean(existing)}
                  pattern="[a-z0-9]+(-[a-z0-9]+)*"
                  value={slug}
                  aria-describedby={d}
                  onInput={(e) => {
                    setSlugTouched(true);
                    form.set("slug", e.currentTarget.value);
                  }}
                />
              )}
            </Labelled>
          </div>
          <fieldset>
            <legend>Fields</legend>
            <p class="visually-hidden" aria-live="polite">
              {orderNote}
            </p>
            {rows.map((r, i) => (
              <div class="field-row" key={r.uid} {...dropTarget(i, moveRow)}>
                <Labelled label={`Field ${i + 1} label`} hint="What people see in the item form." error={errors[`fields.${i}.name`]}>
                  {(id, d) => (
                    <input
                      id={id}
                      value={r.name ?? ""}
                      aria-describedby={d}
                      onInput={(e) => {
                        const label = e.currentTarget.value;
                        const keyFree = !r.keyTouched && !(r.saved && hasItems !== false);
                        update(r.uid, keyFree ? { name: label, key: fieldKeyOf(label) } : { name: label });
                      }}
                    />
                  )}
                </Labelled>
                <Labelled
                  label={`Field ${i + 1} key`}
                  hint={
                    r.saved && hasItems !== false
                      ? "Used by the API; fixed now that items exist."
                      : "Used by the API and your pages: a letter, then letters, digits or _."
                  }
                  error={errors[`fields.${i}.key`] ?? errors[`fields.${i}`]}
                >
                  {(id, d) => (
                    <input
                      id={id}
                      required
                      readOnly={r.saved && hasItems !== false}
                      value={r.key}
                      aria-describedby={d}
                      onInput={(e) => update(r.uid, { key: e.currentTarget.value, keyTouched: true })}
                    />
                  )}
                </Labelled>
                <Labelled label={`Field ${i + 1} type`}>
                  {(id) => (
                    <select id={id} value={r.type} onChange={(e) => update(r.uid, { type: e.currentTarget.value as FieldType })}>
                      {FIELD_TYPES.map((t) => (
                        <option key={t} value={t}>
                          {TYPE_NAMES[t]}
                        </option>
                      ))}
                    </select>
                  )}
                </Labelled>
                {(r.type === "reference" || r.type === "references") && (
                  <Labelled label={`Field ${i + 1} refers to`} error={errors[`fields.${i}.collection`]}>
                    {(id, d) => (
                      <select
                        id={id}
                        required
                        value={r.collection ?? ""}
                        aria-describedby={d}
                        onChange={(e) => update(r.uid, { collection: e.currentTarget.value })}
                      >
                        <option value="">Choose a collection</option>
                        {others.map((c) => (
                          <option key={c.slug} value={c.slug}>
                            {c.name}
                          </option>
                        ))}
                      </select>
                    )}
                  </Labelled>
                )}
                <div class="field-row-wide">
                  {r.type === "decimal" && (
                    <Labelled
                      label={`Field ${i + 1} currency`}
                      hint="Optional: the ISO 4217 code (EUR, USD, GBP…) when the values are prices. Values keep every digit you type, such as 34.90."
                      error={errors[`fields.${i}.currency`]}
                    >
                      {(id, d) => (
                        <input
                          id={id}
                          value={r.currency ?? ""}
                          maxLength={3}
                          autocapitalize="characters"
                          aria-describedby={d}
                          onInput={(e) => update(r.uid, { currency: e.currentTarget.value })}
                        />
                      )}
                    </Labelled>
                  )}
                  {r.type === "option" && (
                    <Labelled
                      label={`Field ${i + 1} options`}
                      hint="One per line, in the order people choose from. The API returns each option's value (its label in lower case with hyphens)."
                      error={
                        errors[`fields.${i}.options`] ?? Object.entries(errors).find(([k]) => k.startsWith(`fields.${i}.options.`))?.[1]
                      }
                    >
                      {(id, d) => (
                        <textarea
                          id={id}
                          rows={4}
                          value={r.optionText}
                          aria-describedby={d}
                          onInput={(e) => update(r.uid, { optionText: e.currentTarget.value })}
                        />
                      )}
                    </Labelled>
                  )}
                  <Labelled
                    label={`Field ${i + 1} help text`}
                    hint="Optional; shown under the field in the item form."
                    error={errors[`fields.${i}.help`]}
                  >
                    {(id, d) => (
                      <input
                        id={id}
                        value={r.help ?? ""}
                        aria-describedby={d}
                        onInput={(e) => update(r.uid, { help: e.currentTarget.value })}
                      />
                    )}
                  </Labelled>
                </div>
                <div class="field-row-actions">
                  <FieldOrder index={i} count={rows.length} onMove={moveRow} name={r.name || r.key || "new field"} />
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={Boolean(r.indexed) && INDEXABLE.has(r.type)}
                      disabled={!INDEXABLE.has(r.type)}
                      onChange={(e) => update(r.uid, { indexed: e.currentTarget.checked })}
                    />
                    Field {i + 1} can be sorted, filtered and searched
                  </label>
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={Boolean(r.required)}
                      onChange={(e) => update(r.uid, { required: e.currentTarget.checked })}
                    />
                    Field {i + 1} is required
                  </label>
                  {LOCALIZABLE.has(r.type) && (
                    <label class="check">
                      <input
                        type="checkbox"
                        checked={Boolean(r.localized)}
                        onChange={(e) => update(r.uid, { localized: e.currentTarget.checked })}
                      />
                      Field {i + 1} is translated (a value per language)
                    </label>
                  )}
                  <button type="button" class="secondary small" onClick={() => setRows((rs) => rs.filter((x) => x.uid !== r.uid))}>
                    Remove field {i + 1}
                  </button>
                </div>
              </div>
            ))}
            <button
              type="button"
              class="secondary"
              onClick={() =>
                setRows((rs) => [...rs, { uid: ++uids, key: "", type: "text", keyTouched: false, saved: false, optionText: "" }])
              }
            >
              Add a field
            </button>
          </fieldset>
          <div class="actions">
            <button type="submit" disabled={form.pending}>
              {existing ? "Save fields" : "Create collection"}
            </button>
            <button type="button" class="secondary" onClick={() => go(s.id, "collections")}>
              Cancel
            </button>
          </div>
        </form>
      </RoleGate>
      <Confirm
        open={pending !== null}
        title="Before you save"
        confirmLabel="Save anyway"
        danger
        onClose={(ok) => {
          setPending(null);
          if (ok) void form.submit();
        }}
      >
        <ul>
          {pending?.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </Confirm>
      {existing && (
        <Confirm
          open={deleting}
          title={`Delete ${existing.name}?`}
          confirmLabel="Delete collection and its items"
          danger
          onClose={async (ok) => {
            setDeleting(false);
            if (!ok) return;
            try {
              await call(client.DELETE("/sites/{siteId}/collections/{slug}", { params: { path: inSite({ slug: existing.slug }) } }));
              await reloadCollections();
              goSaved(s.id, "collections");
            } catch (err) {
              setError(err);
            }
          }}
        >
          <p>
            This deletes the collection and <strong>every item in it</strong>, published or not. It cannot be undone. If another collection
            has a reference field pointing here, deleting is refused until that field is removed.
          </p>
          {rendersPages && (
            <p>
              <strong>Your SEO Engine pages are rendered from this collection.</strong> After deleting it the rendered list shows no items
              and every item page answers “not found”, on your reverse proxy and on a connected domain. To keep them, capture a page that
              shows another collection first.
            </p>
          )}
        </Confirm>
      )}
    </section>
  );
}

/** The collection the site's SEO Engine capture renders, if the site has one (its pages go with it). */
async function capturedCollection(): Promise<string | null> {
  if (!site.value?.features.serverRendering) return null;
  try {
    return (await call(client.GET("/sites/{siteId}/ssr/capture/status", { params: { path: inSite() } }))).capture?.collection ?? null;
  } catch {
    // No reading it: nothing more to say than the dialog already does.
    return null;
  }
}
