/** Plain text from rich text (for embeddings, descriptions and feeds), and excerpts cut at a word boundary. */
import { decodeEntities } from "../../src/shared/escape";

const BLOCK_END = /<\/(p|div|h[1-6]|li|blockquote|pre|tr|section|article)>|<br\s*\/?>/gi;

export function plainText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, " ")
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(BLOCK_END, " ")
      .replace(/<[^>]*>/g, ""),
  )
    .replace(/\s+/g, " ")
    .trim();
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
