/**
 * The items table's selection: items ticked on any page of one list (its search, filters, status
 * and sort), every item of a page at once, or every item the list holds up to PUBLISH_MAX, read
 * in pages of the largest size the API gives. A new list starts with nothing selected. Publishing
 * the selected drafts is one call (publishItems).
 */
import { useEffect, useState } from "preact/hooks";
import { call, client } from "../../api";
import { inSite } from "../../site-state";
import type { Item } from "../../types";

/** The most items one publishItems call takes (and so one selection holds). */
export const PUBLISH_MAX = 1000;
/** The largest page the dashboard's list answers. */
const PAGE_MAX = 100;

export interface Selection {
  selected: ReadonlyMap<string, Item>;
  toggle: (item: Item, on: boolean) => void;
  setPage: (items: readonly Item[], on: boolean) => void;
  clear: () => void;
  /** Every item of the list, up to PUBLISH_MAX: `read(page, limit)` reads one page of it. */
  selectAll: (total: number, read: (page: number, limit: number) => Promise<Item[]>) => Promise<void>;
  /** What the selection is busy with ("Selecting 1,000 items…"), or null. */
  busy: string | null;
}

export function useSelection(list: string): Selection {
  const [selected, setSelected] = useState<ReadonlyMap<string, Item>>(new Map());
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => setSelected(new Map()), [list]);
  const change = (items: readonly Item[], on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const i of items) {
        if (on && next.size < PUBLISH_MAX) next.set(i.id, i);
        else if (!on) next.delete(i.id);
      }
      return next;
    });
  return {
    selected,
    busy,
    toggle: (item, on) => change([item], on),
    setPage: change,
    clear: () => setSelected(new Map()),
    selectAll: async (total, read) => {
      const wanted = Math.min(total, PUBLISH_MAX);
      setBusy(`Selecting ${wanted.toLocaleString("en")} items…`);
      try {
        const pages = await Promise.all(Array.from({ length: Math.ceil(wanted / PAGE_MAX) }, (_, p) => read(p + 1, PAGE_MAX)));
        setSelected(
          new Map(
            pages
              .flat()
              .slice(0, wanted)
              .map((i) => [i.id, i]),
          ),
        );
      } finally {
        setBusy(null);
      }
    },
  };
}

/** The offer to select the whole list once a page is selected, and what is selected. */
export function SelectAll(props: { selection: Selection; shown: readonly Item[]; total: number; onSelect: () => void }) {
  const { selected, busy } = props.selection;
  const pageSelected = props.shown.length > 0 && props.shown.every((i) => selected.has(i.id));
  if (busy) return <span role="status">{busy}</span>;
  if (selected.size === 0) return null;
  const n = selected.size.toLocaleString("en");
  const more = pageSelected && props.total > selected.size && selected.size < PUBLISH_MAX;
  return (
    <span role="status">
      <span>{n} selected.</span>{" "}
      {more && (
        <button type="button" class="link" onClick={props.onSelect}>
          {props.total > PUBLISH_MAX
            ? `Select the first ${PUBLISH_MAX.toLocaleString("en")} of ${props.total.toLocaleString("en")}`
            : `Select all ${props.total.toLocaleString("en")}`}
        </button>
      )}{" "}
      <button type="button" class="link" onClick={props.selection.clear}>
        Clear selection
      </button>
    </span>
  );
}

/** The selected drafts published in one call; the count of those that changed. */
export async function publishSelected(slug: string, drafts: readonly Item[]): Promise<number> {
  const r = await call(
    client.POST("/sites/{siteId}/collections/{slug}/items:publish", {
      params: { path: inSite({ slug }) },
      body: { ids: drafts.map((i) => i.id) },
    }),
  );
  return r.published;
}
