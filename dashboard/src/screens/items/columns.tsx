/**
 * The items table's columns: any field of the collection besides the title (which always leads),
 * plus Status, Slug and Last edited; chosen per collection and kept in this browser. Media fields
 * show a thumbnail (a gallery its first, and how many more), options their label, prices with their currency.
 */
import { useState } from "preact/hooks";
import type { Collection, Field, MediaEntry } from "../../types";

export type SystemColumn = "status" | "slug" | "updatedAt";
export const SYSTEM_COLUMNS: readonly (readonly [SystemColumn, string])[] = [
  ["status", "Status"],
  ["slug", "Slug"],
  ["updatedAt", "Last edited"],
];

const KEY = "open-content-edge:columns:";

/** Without a choice: the first image, up to two prices, numbers or options, then status, slug and last edited. */
export function defaultColumns(c: Collection): string[] {
  const others = c.fields.filter((f) => f.key !== c.titleField);
  const image = others.find((f) => f.type === "image") ?? others.find((f) => f.type === "gallery");
  const facts = others.filter((f) => f.type === "decimal" || f.type === "number" || f.type === "option").slice(0, 2);
  return [...(image ? [image.key] : []), ...facts.map((f) => f.key), "status", "slug", "updatedAt"];
}

function read(storeKey: string, c: Collection): string[] {
  try {
    const raw = localStorage.getItem(storeKey);
    const kept: unknown = raw === null ? null : JSON.parse(raw);
    if (Array.isArray(kept) && kept.every((k) => typeof k === "string")) return kept as string[];
  } catch {
    // Unreadable or refused storage: the default columns.
  }
  return defaultColumns(c);
}

/** The chosen columns of a collection's table, in the collection's own order, and a setter that keeps them. */
export function useColumns(siteId: string, c: Collection | undefined): [string[], (keys: string[]) => void] {
  const storeKey = `${KEY}${siteId}/${c?.slug ?? ""}`;
  const [keys, setKeys] = useState<string[]>(() => (c ? read(storeKey, c) : []));
  const set = (next: string[]) => {
    setKeys(next);
    try {
      localStorage.setItem(storeKey, JSON.stringify(next));
    } catch {
      // Storage refused (private mode): the choice lasts while the screen is open.
    }
  };
  // Fields since removed drop out; the order is the collection's, then the system columns'.
  const known = [...(c?.fields ?? []).map((f) => f.key), ...SYSTEM_COLUMNS.map(([k]) => k)];
  return [known.filter((k) => keys.includes(k) && k !== c?.titleField), set];
}

export function ColumnsPicker(props: { collection: Collection; chosen: string[]; onChange: (keys: string[]) => void }) {
  const c = props.collection;
  const choices: [string, string][] = [
    ...c.fields.filter((f) => f.key !== c.titleField).map((f) => [f.key, f.name ?? f.key] as [string, string]),
    ...SYSTEM_COLUMNS.map(([k, name]) => [k, name] as [string, string]),
  ];
  return (
    <details class="columns-picker">
      <summary>Columns</summary>
      <fieldset>
        <legend>Columns shown</legend>
        {choices.map(([key, name]) => (
          <label key={key} class="check">
            <input
              type="checkbox"
              checked={props.chosen.includes(key)}
              onChange={(e) => props.onChange(e.currentTarget.checked ? [...props.chosen, key] : props.chosen.filter((k) => k !== key))}
            />
            {name}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/** A column's heading: the field's name, or the system column's. */
export function columnName(c: Collection, key: string): string {
  const field = c.fields.find((f) => f.key === key);
  return field ? (field.name ?? field.key) : (SYSTEM_COLUMNS.find(([k]) => k === key)?.[1] ?? key);
}

/** How a field's value reads in a table cell. */
export function FieldCell(props: { field: Field; value: unknown; media: ReadonlyMap<string, MediaEntry> }) {
  const { field, value } = props;
  if (value === null || value === undefined || value === "") return <span class="muted">—</span>;
  switch (field.type) {
    case "image": {
      const m = typeof value === "string" ? props.media.get(value) : undefined;
      return m ? (
        <img class="thumb-cell" src={m.url} alt={m.alt ?? ""} loading="lazy" width={48} height={48} />
      ) : (
        <span class="muted">image</span>
      );
    }
    case "gallery": {
      const ids = Array.isArray(value) ? value : [];
      const m = typeof ids[0] === "string" ? props.media.get(ids[0]) : undefined;
      if (ids.length === 0) return <span class="muted">—</span>;
      return (
        <span class="gallery-cell">
          {m ? (
            <img class="thumb-cell" src={m.url} alt={m.alt ?? ""} loading="lazy" width={48} height={48} />
          ) : (
            <span class="muted">image</span>
          )}
          {ids.length > 1 && <span class="muted">{`+${ids.length - 1}`}</span>}
        </span>
      );
    }
    case "video":
      return <span>video</span>;
    case "option":
      return <span>{field.options?.find((o) => o.value === value)?.label ?? String(value)}</span>;
    case "decimal":
      return <span class="num">{money(String(value), field.currency)}</span>;
    case "number":
      return <span class="num">{typeof value === "number" ? value.toLocaleString() : String(value)}</span>;
    case "boolean":
      return <span>{value ? "Yes" : "No"}</span>;
    case "date":
      return <span>{dateText(String(value))}</span>;
    case "richText":
      return <span>{clip(String(value).replace(/<[^>]*>/g, " "))}</span>;
    case "reference":
    case "references":
      return <span class="muted">{Array.isArray(value) ? `${value.length} linked` : "linked"}</span>;
    default:
      return <span>{clip(String(value))}</span>;
  }
}

/** A date as people read it ("31 Dec 2026"); a day without a time is that day wherever the browser is. */
function dateText(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const dayOnly = !iso.includes("T");
  return new Date(t).toLocaleDateString(undefined, { dateStyle: "medium", ...(dayOnly ? { timeZone: "UTC" } : {}) });
}

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 80 ? `${t.slice(0, 79)}…` : t;
}

/** A decimal as the owner typed it, with its currency ("34.90 EUR"), never through a float. */
function money(value: string, currency: string | undefined): string {
  return currency ? `${value} ${currency}` : value;
}
