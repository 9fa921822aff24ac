export { slugify } from "../../src/contract/slug";

/** A field key the API accepts: a letter, then letters, digits or `_`. */
export function fieldKeyOf(label: string): string {
  const words = label
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9 ]+/g, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const key = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join("");
  return /^[a-zA-Z]/.test(key) ? key.slice(0, 64) : "";
}
