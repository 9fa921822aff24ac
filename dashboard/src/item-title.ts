import type { Collection, Item } from "./types";

/**
 * What an item is called in tables and pickers: the value of the field the service names its
 * items by (`titleField`, sent with each collection: one rule, src/contract/item-title.ts), else
 * its slug.
 */
export function itemTitle(c: Collection | undefined, item: Pick<Item, "slug" | "data">): string {
  const v = c?.titleField ? item.data[c.titleField] : undefined;
  return typeof v === "string" && v.trim() !== "" ? v : item.slug;
}
