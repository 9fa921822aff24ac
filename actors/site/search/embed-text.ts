import type { Collection } from "../storage/rows";
import type { ItemData } from "../content/item-data";
import { plainText } from "../content/plain-text";
import { titleFieldOf } from "../../../src/contract/item-title";

/**
 * The text an item is embedded from, in this order:
 * 1. its title, by the one rule of src/contract/item-title.ts (title, name or headline, else the
 *    first text field);
 * 2. its other indexed text fields, in schema order;
 * 3. its rich text fields, stripped to plain text.
 * Parts are joined with ". " and the whole is cut at a word boundary to the
 * model's input size, so the title and summary always make it in.
 * Links, numbers, dates, media and references carry no prose and are left out.
 */
export function embeddingText(collection: Collection, data: ItemData, maxChars: number): string {
  const textFields = collection.fields.filter((f) => f.type === "text");
  const title = titleFieldOf(collection.fields);
  const parts: string[] = [];
  const add = (v: unknown, strip = false) => {
    if (typeof v !== "string") return;
    const clean = (strip ? plainText(v) : v).replace(/\s+/g, " ").trim();
    if (clean) parts.push(clean);
  };
  if (title) add(data[title.key]);
  for (const f of textFields) if (f !== title && f.indexed) add(data[f.key]);
  for (const f of collection.fields) if (f.type === "richText") add(data[f.key], true);
  return truncate(parts.map((p) => p.replace(/[.!?:;,]+$/, "")).join(". "), maxChars);
}

function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(" ");
  return (space > maxChars * 0.8 ? cut.slice(0, space) : cut).trim();
}

/** A short stable fingerprint of the embedded text, to skip re-embedding unchanged text. */
export async function textHash(model: string, text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${model}\u0000${text}`));
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
