/**
 * Settings → Languages: the site's primary language and the others, each with the one its missing
 * translations come from. Removing a language that holds translations says how many go and asks.
 */
import { languageName } from "../language-name";
import { useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { inSite, planChange, site } from "../site-state";
import { Confirm, ErrorNotice, Field, Notice } from "../ui";
import { useLoad } from "../use-load";
import type { components } from "../generated/api";

type Locales = components["schemas"]["GetLocalesResponse"]["locales"];
interface Row {
  code: string;
  fallback: string;
}
interface Draft {
  primary: string;
  secondary: Row[];
}

const draftOf = (locales: Locales): Draft => ({
  primary: locales[0]?.code ?? "en",
  secondary: locales.slice(1).map((l) => ({ code: l.code, fallback: l.fallback ?? "" })),
});

export function LocalesSettings() {
  const loaded = useLoad(() => call(client.GET("/sites/{siteId}/locales", { params: { path: inSite() } })), [site.value?.id]);
  // Kept here: a save reloads the locales, and the form starts again from what was stored.
  const [saved, setSaved] = useState(false);
  if (loaded.error) return <ErrorNotice error={loaded.error} />;
  if (!loaded.data) return <p class="loading">Loading languages…</p>;
  return (
    <LocalesForm
      key={JSON.stringify(loaded.data.locales)}
      locales={loaded.data.locales}
      saved={saved}
      onSaved={(ok) => {
        setSaved(ok);
        if (ok) loaded.reload();
      }}
    />
  );
}

function LocalesForm(props: { locales: Locales; saved: boolean; onSaved: (saved: boolean) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.locales));
  const [adding, setAdding] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [asking, setAsking] = useState<{ locale: string; translations: number }[] | null>(null);
  const counts = new Map(props.locales.map((l) => [l.code, l.translations]));
  const max = planChange.value?.plans.find((p) => p.plan === site.value?.plan)?.limits.locales ?? null;
  const codes = [draft.primary, ...draft.secondary.map((r) => r.code)];

  const save = async (remove: string[] = []) => {
    setError(null);
    props.onSaved(false);
    setPending(true);
    try {
      const body = {
        primary: draft.primary,
        secondary: draft.secondary.map((r) => ({
          code: r.code,
          ...(r.fallback && r.fallback !== draft.primary ? { fallback: r.fallback } : {}),
        })),
        ...(remove.length ? { remove } : {}),
      };
      await call(client.PUT("/sites/{siteId}/locales", { params: { path: inSite() }, body }));
      props.onSaved(true);
    } catch (err) {
      const removes = err instanceof ApiFailure && err.status === 409 ? (err.error.details as { removes?: unknown })?.removes : undefined;
      if (Array.isArray(removes)) setAsking(removes as { locale: string; translations: number }[]);
      else setError(err);
    } finally {
      setPending(false);
    }
  };
  const add = () => {
    const code = adding.trim();
    if (!code) return;
    if (codes.some((c) => c.toLowerCase() === code.toLowerCase())) {
      setError(new Error(`${code} is already one of the site's languages.`));
      return;
    }
    setDraft({ ...draft, secondary: [...draft.secondary, { code, fallback: draft.primary }] });
    setAdding("");
    setError(null);
  };
  const setRow = (i: number, row: Row | null) =>
    setDraft({ ...draft, secondary: draft.secondary.flatMap((r, j) => (j !== i ? [r] : row ? [row] : [])) });

  return (
    <form
      class="card form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>Languages</h2>
      <p>
        Items are written in the primary language. Add others to translate the fields marked <em>Translated</em> in a collection: each
        language's pages live under its code (<code>/fr/blog/</code>) and every page names its translations for search engines.
        {max !== null && ` Your plan allows ${max === 1 ? "one language" : `${max} languages`}, the primary included.`}
      </p>
      <ErrorNotice error={error} />
      <Field label="Primary language" hint="A language code (BCP 47): en, fr, es-MX. The items' own values are in it.">
        {(id, d) => (
          <input
            id={id}
            value={draft.primary}
            aria-describedby={d}
            required
            maxLength={35}
            onInput={(e) => setDraft({ ...draft, primary: e.currentTarget.value })}
          />
        )}
      </Field>
      {draft.secondary.length > 0 && (
        <table class="locales">
          <caption>Other languages</caption>
          <thead>
            <tr>
              <th scope="col">Language</th>
              <th scope="col">Missing translations come from</th>
              <th scope="col">Translated items</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {draft.secondary.map((r, i) => (
              <tr key={r.code}>
                <th scope="row">
                  {languageName(r.code)} <code>{r.code}</code>
                </th>
                <td>
                  <select
                    aria-label={`Where ${r.code}'s missing translations come from`}
                    value={r.fallback || draft.primary}
                    onChange={(e) => setRow(i, { ...r, fallback: e.currentTarget.value })}
                  >
                    {codes
                      .filter((c) => c !== r.code)
                      .map((c) => (
                        <option key={c} value={c}>
                          {languageName(c)} ({c})
                        </option>
                      ))}
                  </select>
                </td>
                <td>{counts.get(r.code) ?? 0}</td>
                <td>
                  <button type="button" class="secondary" aria-label={`Remove ${r.code}`} onClick={() => setRow(i, null)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Field label="Add a language" hint="Its code: fr, de, es-MX. Added when you save.">
        {(id, d) => (
          <span class="inline">
            <input
              id={id}
              value={adding}
              aria-describedby={d}
              maxLength={35}
              onInput={(e) => setAdding(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  add();
                }
              }}
            />
            <button type="button" class="secondary" onClick={add}>
              Add
            </button>
          </span>
        )}
      </Field>
      <button type="submit" disabled={pending}>
        {pending ? "Saving languages…" : "Save languages"}
      </button>
      {props.saved && <Notice kind="ok">Saved. Pages, sitemap and feeds follow at once.</Notice>}
      <Confirm
        open={asking !== null}
        title="Remove languages and their translations?"
        confirmLabel="Remove with translations"
        danger
        onClose={(ok) => {
          const removes = asking ?? [];
          setAsking(null);
          if (ok) void save(removes.map((r) => r.locale));
        }}
      >
        <ul>
          {(asking ?? []).map((r) => (
            <li key={r.locale}>
              {languageName(r.locale)} ({r.locale}): {r.translations} translated item{r.translations === 1 ? "" : "s"}, their pages and
              their feeds go.
            </li>
          ))}
        </ul>
        <p>This cannot be undone.</p>
      </Confirm>
    </form>
  );
}
