import { useEffect, useId, useState } from "preact/hooks";
import { call, client } from "../api";
import { itemTitle } from "../item-title";
import { collections, inSite } from "../site-state";
import type { Item } from "../types";

/** Picks one or several items of `target` by searching it; the value is item ids. */
export function ReferencePicker(props: {
  label: string;
  hint?: string | undefined;
  target: string;
  multiple: boolean;
  value: string[];
  error?: string | undefined;
  onChange: (ids: string[]) => void;
}) {
  const id = useId();
  const c = collections.value?.find((x) => x.slug === props.target);
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<Item[]>([]);
  const [names, setNames] = useState<Record<string, string>>({});

  useEffect(() => {
    const missing = props.value.filter((v) => !(v in names));
    for (const itemId of missing) {
      call(
        client.GET("/sites/{siteId}/collections/{slug}/items/{id}", { params: { path: inSite({ slug: props.target, id: itemId }) } }),
      ).then(
        (r) => setNames((n) => ({ ...n, [itemId]: itemTitle(c, r.item) })),
        () => setNames((n) => ({ ...n, [itemId]: itemId })),
      );
    }
  }, [props.value.join(",")]);

  useEffect(() => {
    const t = setTimeout(() => {
      const q = { limit: 8, ...(query.trim() ? { search: query.trim() } : {}) };
      call(client.GET("/sites/{siteId}/collections/{slug}/items", { params: { path: inSite({ slug: props.target }), query: q } })).then(
        (r) => setResults(r.items),
        () => setResults([]),
      );
    }, 200);
    return () => clearTimeout(t);
  }, [query, props.target]);

  const add = (item: Item) => {
    setNames((n) => ({ ...n, [item.id]: itemTitle(c, item) }));
    props.onChange(props.multiple ? [...props.value.filter((v) => v !== item.id), item.id] : [item.id]);
  };
  return (
    <fieldset
      class="reference"
      aria-describedby={[props.hint ? `${id}-hint` : "", props.error ? `${id}-err` : ""].filter(Boolean).join(" ") || undefined}
    >
      <legend>{props.label}</legend>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.value.length === 0 ? (
        <p class="muted">Nothing chosen.</p>
      ) : (
        <ul class="chosen">
          {props.value.map((v) => (
            <li key={v}>
              {names[v] ?? "…"}
              <button type="button" class="secondary small" onClick={() => props.onChange(props.value.filter((x) => x !== v))}>
                Remove {names[v] ?? v}
              </button>
            </li>
          ))}
        </ul>
      )}
      <label for={`${id}-q`}>
        Search {c?.name ?? props.target} for {props.label}
      </label>
      <input id={`${id}-q`} type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
      <ul class="results" aria-label={`Matches in ${c?.name ?? props.target}`}>
        {results.map((r) => (
          <li key={r.id}>
            <button type="button" class="link" onClick={() => add(r)} aria-pressed={props.value.includes(r.id)}>
              {props.value.includes(r.id) ? "Chosen:" : "Choose"} {itemTitle(c, r)}
            </button>{" "}
            {r.status === "draft" && <span class="badge draft">Draft</span>}
          </li>
        ))}
      </ul>
      {props.error && (
        <p class="error" id={`${id}-err`}>
          {props.error}
        </p>
      )}
    </fieldset>
  );
}
