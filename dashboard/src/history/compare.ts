/**
 * Field-by-field comparison of two versions of an item, for the history panel. Plain values are
 * compared by words; rich text by its blocks' text (paragraphs, headings, list items…), paired
 * when similar and compared by words inside, so a person sees what was added and removed rather
 * than raw HTML. The stored HTML is parsed with DOMParser (scripts never run, images never load)
 * and only text comes out: the panel renders it with text nodes in <ins>/<del>.
 */
import { diffArrays, diffWords } from "diff";
import type { Field } from "../types";

export type Piece = { text: string; added?: boolean; removed?: boolean };
export type BlockDiff = { label: string; state: "same" | "changed" | "added" | "removed" | "format"; pieces: Piece[] };
export type FieldDiff =
  | { key: string; label: string; kind: "text"; pieces: Piece[] }
  | { key: string; label: string; kind: "rich"; blocks: BlockDiff[] }
  | { key: string; label: string; kind: "value"; before: string; after: string };

const BLOCKS = "p,h1,h2,h3,h4,h5,h6,li,blockquote,pre,figcaption,td,th,dt,dd";
const BLOCK_NAMES: Record<string, string> = {
  p: "Paragraph",
  li: "List item",
  blockquote: "Quote",
  pre: "Code",
  figcaption: "Caption",
  td: "Table cell",
  th: "Table heading",
  dt: "Term",
  dd: "Definition",
};
type Block = { tag: string; text: string; html: string };

/** The innermost blocks of stored rich text, with their text (an image counts as "[image: alt]"). */
export function blocksOf(html: string): Block[] {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  const out: Block[] = [];
  for (const el of Array.from(doc.body.querySelectorAll(BLOCKS))) {
    if (el.querySelector(BLOCKS)) continue;
    let text = "";
    const walk = (n: Node) => {
      if (n.nodeType === 3) text += n.textContent ?? "";
      else if (n instanceof Element && n.tagName === "IMG") text += ` [image: ${n.getAttribute("alt") ?? ""}] `;
      else n.childNodes.forEach(walk);
    };
    walk(el);
    out.push({ tag: el.tagName.toLowerCase(), text: text.replace(/\s+/g, " ").trim(), html: el.innerHTML });
  }
  if (!out.length && doc.body.textContent?.trim()) out.push({ tag: "p", text: doc.body.textContent.trim(), html: doc.body.innerHTML });
  return out;
}

const label = (tag: string) => BLOCK_NAMES[tag] ?? (/^h[1-6]$/.test(tag) ? `Heading ${tag[1]}` : tag);

function similarity(a: Block, b: Block): number {
  if (a.tag !== b.tag) return 0;
  let shared = 0;
  for (const p of diffWords(a.text, b.text)) if (!p.added && !p.removed) shared += p.value.length;
  return (2 * shared) / Math.max(1, a.text.length + b.text.length);
}

export function compareRichText(before: string, after: string): BlockDiff[] {
  const a = blocksOf(before);
  const b = blocksOf(after);
  const key = (x: Block) => `${x.tag}\u0000${x.text}`;
  const parts = diffArrays(a.map(key), b.map(key));
  const out: BlockDiff[] = [];
  let ia = 0;
  let ib = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (!p.added && !p.removed) {
      for (let k = 0; k < p.count!; k++) {
        const x = a[ia++]!;
        const y = b[ib++]!;
        out.push({ label: label(y.tag), state: x.html === y.html ? "same" : "format", pieces: [{ text: y.text }] });
      }
      continue;
    }
    const removed = p.removed ? a.slice(ia, (ia += p.count!)) : [];
    const next = p.removed ? parts[i + 1] : undefined;
    const addedPart = p.added ? p : next?.added ? (i++, next) : undefined;
    const added = addedPart ? b.slice(ib, (ib += addedPart.count!)) : [];
    // Removed and added runs are paired in order when similar, and compared word by word.
    let r = 0;
    for (const y of added) {
      while (r < removed.length && similarity(removed[r]!, y) < 0.5) {
        out.push({ label: label(removed[r]!.tag), state: "removed", pieces: [{ text: removed[r]!.text, removed: true }] });
        r++;
      }
      if (r < removed.length) {
        const x = removed[r++]!;
        out.push({
          label: label(y.tag),
          state: "changed",
          pieces: diffWords(x.text, y.text).map((d) => ({ text: d.value, added: d.added, removed: d.removed })),
        });
      } else out.push({ label: label(y.tag), state: "added", pieces: [{ text: y.text, added: true }] });
    }
    for (; r < removed.length; r++)
      out.push({ label: label(removed[r]!.tag), state: "removed", pieces: [{ text: removed[r]!.text, removed: true }] });
  }
  return out;
}

const asText = (v: unknown): string =>
  v === undefined || v === null
    ? ""
    : typeof v === "string"
      ? v
      : typeof v === "number" || typeof v === "boolean"
        ? String(v)
        : JSON.stringify(v);

/** Every field whose value differs between `before` (the version) and `after` (the current one), plus the slug. */
export function compareItems(
  fields: readonly Field[],
  before: { slug: string; data: Record<string, unknown> },
  after: { slug: string; data: Record<string, unknown> },
): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const f of fields) {
    const a = before.data[f.key];
    const b = after.data[f.key];
    if (JSON.stringify(a ?? null) === JSON.stringify(b ?? null)) continue;
    const name = f.name?.trim() || f.key;
    if (f.type === "richText") out.push({ key: f.key, label: name, kind: "rich", blocks: compareRichText(asText(a), asText(b)) });
    else if (f.type === "text" || f.type === "link")
      out.push({
        key: f.key,
        label: name,
        kind: "text",
        pieces: diffWords(asText(a), asText(b)).map((d) => ({ text: d.value, added: d.added, removed: d.removed })),
      });
    else out.push({ key: f.key, label: name, kind: "value", before: asText(a) || "(empty)", after: asText(b) || "(empty)" });
  }
  for (const k of Object.keys(before.data)) {
    if (!fields.some((f) => f.key === k))
      out.push({ key: k, label: `${k} (field removed)`, kind: "value", before: asText(before.data[k]), after: "(no such field now)" });
  }
  if (before.slug !== after.slug) out.push({ key: "slug", label: "Slug", kind: "value", before: before.slug, after: after.slug });
  return out;
}
