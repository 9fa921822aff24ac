/** Plain text from rich text (for embeddings, descriptions and feeds), and excerpts cut at a word boundary. */
import { decodeEntities } from "../../../src/shared/escape";

const BLOCK_END = /<\/(p|div|h[1-6]|li|dt|dd|blockquote|pre|tr|section|article|figcaption)>|<br\s*\/?>/gi;
/** Marks a block's end while tags are stripped (a newline in the source is only a space). */
const BLOCK = "\u0001";
/** A block that already ends a sentence needs no separator of its own. */
const ENDS_SENTENCE = /[.!?:;…]["'”’)\]]*$/u;

/**
 * Blocks keep a separator: "Ingredients. 6 ripe tomatoes. 1 onion. Roast…", never
 * "Ingredients 6 ripe tomatoes 1 onion Roast…" (a heading, list items and a paragraph run
 * together read as one sentence in a meta description or a search snippet).
 */
export function plainText(html: string): string {
  const lines = decodeEntities(
    html
      .replaceAll(BLOCK, " ")
      .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, " ")
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(BLOCK_END, BLOCK)
      .replace(/<[^>]*>/g, ""),
  )
    .split(BLOCK)
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  return lines.map((l, i) => (i < lines.length - 1 && !ENDS_SENTENCE.test(l) ? `${l}.` : l)).join(" ");
}

/** At most `max` characters, cut at the last word boundary before it, with an ellipsis when cut. */
export function excerpt(text: string, max = 155): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(" ");
  const base = space > max * 0.6 ? cut.slice(0, space) : cut;
  return `${base.replace(/[\s,;:.!?\-–—]+$/u, "")}…`;
}
