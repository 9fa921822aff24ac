/**
 * Filters by the collection's indexed fields, as the content API filters (`filter[key]=v`,
 * `filter[key][gte]=v`): an option or a switch by value, numbers, prices and dates by range.
 * The chosen filters are query parameters, kept with the rest of the table's view.
 */
import type { Collection, Field } from "../../types";
import { Field as Labelled } from "../../ui";

export type Filters = Readonly<Record<string, string>>;

const FILTERABLE = new Set<Field["type"]>(["option", "boolean", "number", "decimal", "date"]);

export function filterableFields(c: Collection): Field[] {
  return c.fields.filter((f) => f.indexed && FILTERABLE.has(f.type));
}

const param = (key: string, op?: "gte" | "lte") => (op ? `filter[${key}][${op}]` : `filter[${key}]`);

/** The filters as a query string's pairs, empty values left out. */
export function filterPairs(filters: Filters): [string, string][] {
  return Object.entries(filters).filter(([, v]) => v.trim() !== "");
}

export function FieldFilters(props: { collection: Collection; value: Filters; onChange: (next: Filters) => void }) {
  const fields = filterableFields(props.collection);
  if (fields.length === 0) return null;
  const set = (name: string, v: string) => {
    const next: Record<string, string> = { ...props.value, [name]: v };
    if (v === "") delete next[name];
    props.onChange(next);
  };
  const value = (name: string) => props.value[name] ?? "";
  return (
    <div class="toolbar filters" role="group" aria-label="Filter by">
      {fields.map((f) => {
        const name = f.name ?? f.key;
        switch (f.type) {
          case "option":
            return (
              <Labelled key={f.key} label={name}>
                {(id) => (
                  <select id={id} value={value(param(f.key))} onChange={(e) => set(param(f.key), e.currentTarget.value)}>
                    <option value="">Any</option>
                    {(f.options ?? []).map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label ?? o.value}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
            );
          case "boolean":
            return (
              <Labelled key={f.key} label={name}>
                {(id) => (
                  <select id={id} value={value(param(f.key))} onChange={(e) => set(param(f.key), e.currentTarget.value)}>
                    <option value="">Any</option>
                    <option value="true">Yes</option>
                    <option value="false">No</option>
                  </select>
                )}
              </Labelled>
            );
          default: {
            const date = f.type === "date";
            const range = (op: "gte" | "lte", words: string) => (
              <Labelled key={`${f.key}-${op}`} label={`${name} ${words}`}>
                {(id) => {
                  const v = value(param(f.key, op));
                  const change = (e: { currentTarget: HTMLInputElement }) => set(param(f.key, op), e.currentTarget.value.trim());
                  return date ? (
                    <input id={id} type="date" value={v} onChange={change} />
                  ) : (
                    <input id={id} type="text" inputMode="decimal" size={8} value={v} onChange={change} />
                  );
                }}
              </Labelled>
            );
            return [range("gte", date ? "from" : "at least"), range("lte", date ? "until" : "at most")];
          }
        }
      })}
    </div>
  );
}
