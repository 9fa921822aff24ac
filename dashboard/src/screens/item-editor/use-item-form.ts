/**
 * The editor's form (useForm): the item's values and slug, saved through saveItem. A new item,
 * once saved, is opened at its own address; an existing one shows the saved version and says
 * what the save did.
 */
import { goSavedWith } from "../../router";
import type { Collection, Item, ItemData } from "../../types";
import { useForm } from "../../use-form";
import { shownOf } from "./payload";
import { type SaveHow, saveItem, savedMessage } from "./save";

export interface ItemFormHost {
  siteId: string;
  collection: Collection | undefined;
  /** The item shown; null for a new one. */
  item: Item | null;
  setItem: (item: Item) => void;
  setMessage: (message: string | null) => void;
  setLoadError: (error: unknown) => void;
}

export function useItemForm(host: ItemFormHost) {
  const { collection: c, item } = host;
  const form = useForm<{ values: ItemData; slug: string }, Item, SaveHow>(
    { values: {}, slug: "" },
    async ({ values, slug }, how) => {
      host.setMessage(null);
      host.setLoadError(null);
      if (!c) throw new Error("no collection");
      return saveItem(c, item, values, slug, how);
    },
    {
      // The envelope names item fields `data.<key>`; the form shows them at `<key>`.
      fieldOf: (path) => path.replace(/^data\./, ""),
      valueAt: (v, path) => (path === "slug" ? v.slug : v.values[path]),
      onSaved: (saved, how) => {
        if (!c) return;
        if (!item) {
          goSavedWith(how === true ? "Published." : "Saved as a draft.", host.siteId, "items", c.slug, saved.id);
          return;
        }
        host.setItem(saved);
        form.reset({ values: shownOf(saved).data, slug: shownOf(saved).slug });
        host.setMessage(savedMessage(how, saved));
      },
    },
  );
  return form;
}
