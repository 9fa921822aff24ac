import type { Collection, Item } from "./types";

/** What an item is called in tables and pickers: its first text field, else its slug. */
export function itemTitle(c: Collection | undefined, item: Pick<Item, "slug" | "data">): string {
  const f = c?.fields.find((x) => x.type === "text" && typeof item.data[x.key] === "string" && item.data[x.key] !== "");
  return f ? String(item.data[f.key]) : item.slug;
}
