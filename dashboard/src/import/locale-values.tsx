/**
 * The mapping screen's choice of a locale for each value of the file's locale column (Webflow's
 * `Locale ID` holds an id per locale, not a language): one select per value, the service's proposal
 * chosen, the site's locales as options. A value left without a locale fails its rows in the dry run.
 */
import { call, client } from "../api";
import { inSite, site } from "../site-state";
import { useLoad } from "../use-load";
import { languageName } from "../language-name";
import { ErrorNotice } from "../ui";
import type { components } from "../generated/api";

type Mapping = components["schemas"]["ListImportsResponse"]["imports"][number]["mapping"][number];

export function LocaleValues(props: { index: number; mapping: Mapping; onChange: (m: Mapping) => void }) {
  const loaded = useLoad(() => call(client.GET("/sites/{siteId}/locales", { params: { path: inSite() } })), [site.value?.id]);
  const values = Object.entries(props.mapping.locales ?? {});
  if (values.length === 0) return null;
  // Until the site's languages are read, a select would show its value as no choice at all.
  if (loaded.error) return <ErrorNotice error={loaded.error} />;
  if (!loaded.data) return <p class="hint">Reading this site's languages…</p>;
  const locales = loaded.data.locales;
  const choose = (value: string, code: string) => {
    const next = { ...(props.mapping.locales ?? {}) };
    if (code === "") delete next[value];
    else next[value] = code;
    props.onChange({ ...props.mapping, locales: next });
  };
  return (
    <fieldset class="locale-values">
      <legend>Which language is each value of {props.mapping.column}?</legend>
      {values.map(([value, code], j) => (
        <div key={value} class="locale-value">
          <label for={`locale-${props.index}-${j}`}>
            <code>{value}</code>
          </label>
          <select id={`locale-${props.index}-${j}`} value={code} onChange={(e) => choose(value, e.currentTarget.value)}>
            <option value="">Not chosen: its rows fail</option>
            {locales.map((l) => (
              <option key={l.code} value={l.code}>
                {languageName(l.code)} ({l.code}){l.primary ? ", primary" : ""}
              </option>
            ))}
          </select>
        </div>
      ))}
    </fieldset>
  );
}
