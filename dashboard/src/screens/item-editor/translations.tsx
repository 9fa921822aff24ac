/**
 * The editor's Translations section: pick a language, see the primary's text beside each
 * translated field, and save or delete the item's translation. An item not yet translated into a
 * language says so: it is not listed there and has no page there until it is.
 */
import { languageName } from "../../language-name";
import { useState } from "preact/hooks";
import { call, client } from "../../api";
import { inSite, site } from "../../site-state";
import { slugify } from "../../slugify";
import { type Collection, type Item, LOCALIZABLE, type MediaList } from "../../types";
import { Confirm, ErrorNotice, Field as Labelled, Notice } from "../../ui";
import { useForm } from "../../use-form";
import { useLoad } from "../../use-load";
import { FieldInput } from "./field-input";

/** A primary value as the translator reads it beside the input: rich text as its words. */
function shownText(v: unknown): string {
  if (typeof v !== "string" || v === "") return "(empty)";
  return new DOMParser().parseFromString(v, "text/html").body.textContent ?? v;
}

type Props = { item: Item; collection: Collection; mayEdit: boolean; media: MediaList["media"] };

/** Nothing (and no request) for a collection without translated fields. */
export function Translations(props: Props) {
  const fields = props.collection.fields.filter((f) => f.localized && LOCALIZABLE.has(f.type));
  return fields.length ? <TranslationsCard {...props} fields={fields} /> : null;
}

function TranslationsCard(props: Props & { fields: Collection["fields"] }) {
  const { item, collection: c, fields } = props;
  const path = inSite({ slug: c.slug, id: item.id });
  const locales = useLoad(() => call(client.GET("/sites/{siteId}/locales", { params: { path: inSite() } })), [site.value?.id]);
  const translations = useLoad(
    () => call(client.GET("/sites/{siteId}/collections/{slug}/items/{id}/locales", { params: { path } })),
    [item.id],
  );
  const secondaries = (locales.data?.locales ?? []).filter((l) => !l.primary);
  const [chosen, setChosen] = useState<string | null>(null);
  // Kept here: a save reloads the translations, and the form starts again from what was stored.
  const [said, setSaid] = useState<string | null>(null);
  if (locales.error || translations.error) return <ErrorNotice error={locales.error ?? translations.error} />;
  if (!locales.data || !translations.data) return <p class="loading">Loading translations…</p>;
  if (secondaries.length === 0) {
    return (
      <div class="card">
        <h2>Translations</h2>
        <p class="muted">
          This collection has translated fields. Add the site's other languages under Settings → Languages to translate them.
        </p>
      </div>
    );
  }
  const code = chosen ?? secondaries[0]!.code;
  const primary = locales.data.locales[0]!.code;
  const done = new Map(translations.data.translations.map((t) => [t.locale, t]));
  return (
    <div class="card translations">
      <h2>Translations</h2>
      <Labelled label="Language" hint="The item's own text, in the primary language, is shown under each field.">
        {(id, d) => (
          <select
            id={id}
            aria-describedby={d}
            value={code}
            onChange={(e) => {
              setSaid(null);
              setChosen(e.currentTarget.value);
            }}
          >
            {secondaries.map((l) => (
              <option key={l.code} value={l.code}>
                {languageName(l.code)} ({l.code}) · {done.has(l.code) ? "translated" : "missing translation"}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <TranslationForm
        key={`${code}-${done.get(code)?.updatedAt ?? "none"}`}
        {...props}
        fields={fields}
        code={code}
        primary={primary}
        existing={done.get(code) ?? null}
        said={said}
        onSaved={(words) => {
          setSaid(words);
          translations.reload();
        }}
      />
    </div>
  );
}

function TranslationForm(props: {
  item: Item;
  collection: Collection;
  fields: Collection["fields"];
  code: string;
  primary: string;
  existing: { slug: string; data: Record<string, unknown> } | null;
  mayEdit: boolean;
  media: MediaList["media"];
  said: string | null;
  onSaved: (said: string) => void;
}) {
  const { item, collection: c, code, existing } = props;
  const name = languageName(code);
  const path = inSite({ slug: c.slug, id: item.id, locale: code });
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const title = c.titleField ? item.data[c.titleField] : undefined;
  const form = useForm(
    { slug: existing?.slug ?? slugify(typeof title === "string" ? title : item.slug), data: existing?.data ?? {} },
    (v) => call(client.PUT("/sites/{siteId}/collections/{slug}/items/{id}/locales/{locale}", { params: { path }, body: v })),
    {
      fieldOf: (p) => p.replace(/^data\./, ""),
      valueAt: (v, p) => (p === "slug" ? v.slug : v.data[p]),
      onSaved: () => props.onSaved(`Saved the ${name} translation.`),
    },
  );
  const remove = async () => {
    setDeleteError(null);
    try {
      await call(client.DELETE("/sites/{siteId}/collections/{slug}/items/{id}/locales/{locale}", { params: { path } }));
      props.onSaved(`Deleted the ${name} translation: the item is no longer listed in ${name}.`);
    } catch (err) {
      setDeleteError(err);
    }
  };
  return (
    <form class="form" onSubmit={form.onSubmit} noValidate>
      {!existing && (
        <Notice kind="info">
          Missing translation: this item is not listed in {name} and has no {name} page until you save a translation. Fields you leave empty
          show the {languageName(props.primary)} text.
        </Notice>
      )}
      {props.said && <Notice kind="ok">{props.said}</Notice>}
      <ErrorNotice error={form.error ?? deleteError} />
      <fieldset class="role-read-only" disabled={!props.mayEdit}>
        {props.fields.map((f) => (
          <div class="translate-pair" key={f.key}>
            <FieldInput
              field={{ ...f, required: false, name: `${f.name?.trim() || f.key} in ${name}` }}
              value={form.values.data[f.key]}
              error={form.errors[f.key]}
              media={props.media}
              onChange={(v) => form.update((prev) => ({ ...prev, data: { ...prev.data, [f.key]: v === "" ? undefined : v } }))}
            />
            <p class="hint primary-text">
              <span class="muted">{languageName(props.primary)}:</span> {shownText(item.data[f.key])}
            </p>
          </div>
        ))}
        <Labelled label={`Slug in ${name}`} hint={`The item's address in ${name}: a-z, 0-9 and hyphens.`} error={form.errors.slug}>
          {(id, d) => (
            <input
              id={id}
              value={form.values.slug}
              aria-describedby={d}
              aria-invalid={form.errors.slug ? true : undefined}
              onInput={(e) => form.set("slug", e.currentTarget.value)}
            />
          )}
        </Labelled>
      </fieldset>
      {props.mayEdit && (
        <div class="actions">
          <button type="submit" disabled={form.pending}>
            {form.pending ? `Saving the ${name} translation…` : `Save ${name} translation`}
          </button>
          {existing && (
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              Delete {name} translation
            </button>
          )}
        </div>
      )}
      <Confirm
        open={deleting}
        title={`Delete the ${name} translation?`}
        confirmLabel="Delete translation"
        danger
        onClose={(ok) => {
          setDeleting(false);
          if (ok) void remove();
        }}
      >
        <p>
          The item leaves the {name} list and its {name} page goes. Its {languageName(props.primary)} version stays.
        </p>
      </Confirm>
    </form>
  );
}
