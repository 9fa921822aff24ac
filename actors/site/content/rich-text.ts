/**
 * Rich text is cleaned when it is written, so every reader (the content API,
 * the embed script, the server renderer, the feeds) gets the same safe HTML:
 * an allowlist of tags and attributes, URLs that cannot run script, no
 * comments, and tags balanced so a value can never leak out of the element it
 * is bound to. Unknown tags are unwrapped (their text stays); script-like
 * elements go with their content.
 */
import { isSafeUrl } from "../../../src/shared/binding/rules";
import { decodeEntities, escapeAttr } from "../../../src/shared/escape";

const GLOBAL_ATTRS = new Set(["class", "id", "title", "lang", "dir"]);
const TAG_ATTRS: Record<string, readonly string[]> = {
  a: ["href", "target", "rel"],
  img: ["src", "srcset", "alt", "width", "height", "loading", "sizes"],
  td: ["colspan", "rowspan"],
  th: ["colspan", "rowspan", "scope"],
  ol: ["start", "reversed", "type"],
  li: ["value"],
  time: ["datetime"],
  blockquote: ["cite"],
  q: ["cite"],
  del: ["cite", "datetime"],
  ins: ["cite", "datetime"],
  col: ["span"],
  colgroup: ["span"],
  details: ["open"],
};
const ALLOWED = new Set([
  ...Object.keys(TAG_ATTRS),
  ...[
    "abbr",
    "b",
    "br",
    "caption",
    "cite",
    "code",
    "dd",
    "dfn",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
  ],
  ...[
    "hr",
    "i",
    "kbd",
    "mark",
    "p",
    "pre",
    "s",
    "samp",
    "small",
    "span",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "tfoot",
    "thead",
    "tr",
    "u",
    "ul",
  ],
]);
const VOID = new Set(["br", "hr", "img", "col", "wbr"]);
// Elements whose content is not text to keep: dropped whole, content included.
const DROP_WHOLE = new Set([
  "script",
  "style",
  "textarea",
  "title",
  "xmp",
  "noembed",
  "noframes",
  "iframe",
  "noscript",
  "template",
  "object",
  "svg",
  "math",
  "select",
]);
const URL_ATTRS = new Set(["href", "src", "cite"]);
const MAX_DEPTH = 64;
const TABLE_PARTS = new Set(["caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th"]);

interface Tag {
  name: string;
  end: boolean;
  attrs: [string, string][];
  /** Index just past the tag's `>`. */
  next: number;
}

export function sanitizeRichText(html: string): string {
  let out = "";
  const open: string[] = [];
  const emit = (name: string) => {
    out += `<${name}>`;
    return name;
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      out += text(html.slice(i));
      break;
    }
    out += text(html.slice(i, lt));
    if (html.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4);
      i = close < 0 ? html.length : close + 3;
      continue;
    }
    if (html[lt + 1] === "!" || html[lt + 1] === "?") {
      const close = html.indexOf(">", lt);
      i = close < 0 ? html.length : close + 1;
      continue;
    }
    const tag = readTag(html, lt);
    if (!tag) {
      out += "&lt;";
      i = lt + 1;
      continue;
    }
    i = tag.next;
    if (!tag.end && DROP_WHOLE.has(tag.name)) {
      const close = new RegExp(`</${tag.name}\\s*>`, "i").exec(html.slice(i));
      i = close ? i + close.index + close[0].length : html.length;
      continue;
    }
    if (!ALLOWED.has(tag.name)) continue;
    if (tag.end) {
      const at = open.lastIndexOf(tag.name);
      if (at < 0) continue;
      while (open.length > at) out += `</${open.pop()}>`;
      continue;
    }
    // Elements that only make sense inside a parent would be moved out of the container
    // by the HTML parser: give them their parent, or drop the tag.
    if (tag.name === "li" && !open.some((t) => t === "ul" || t === "ol")) open.push(emit("ul"));
    if ((tag.name === "dt" || tag.name === "dd") && !open.includes("dl")) open.push(emit("dl"));
    if (TABLE_PARTS.has(tag.name) && !open.includes("table")) continue;
    if (tag.name === "a" && open.includes("a")) continue;
    // Real documents nest a few levels; a deeper pile is unwrapped, which also keeps the work linear.
    if (open.length >= MAX_DEPTH && !VOID.has(tag.name)) continue;
    out += startTag(tag);
    if (!VOID.has(tag.name)) open.push(tag.name);
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}

// Text passes through as written (entities and all); a `<` that starts no tag was escaped above.
function text(s: string): string {
  return s.replace(/>/g, "&gt;");
}

function readTag(html: string, lt: number): Tag | null {
  const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(lt, lt + 64));
  if (!m) return null;
  const tag: Tag = { name: (m[2] as string).toLowerCase(), end: m[1] === "/", attrs: [], next: html.length };
  let i = lt + m[0].length;
  while (i < html.length) {
    while (i < html.length && /[\s/]/.test(html[i] as string)) i++;
    if (html[i] === ">") {
      tag.next = i + 1;
      return tag;
    }
    const name = /^[^\s/>=]+/.exec(html.slice(i))?.[0];
    if (!name) {
      i++;
      continue;
    }
    i += name.length;
    while (/\s/.test(html[i] ?? "")) i++;
    let value = "";
    if (html[i] === "=") {
      i++;
      while (/\s/.test(html[i] ?? "")) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        value = html.slice(i + 1, close < 0 ? html.length : close);
        i = close < 0 ? html.length : close + 1;
      } else {
        value = /^[^\s>]*/.exec(html.slice(i))?.[0] ?? "";
        i += value.length;
      }
    }
    tag.attrs.push([name.toLowerCase(), decodeEntities(value)]);
  }
  return tag;
}

function startTag(tag: Tag): string {
  const allowed = TAG_ATTRS[tag.name] ?? [];
  const kept: [string, string][] = [];
  for (const [name, value] of tag.attrs) {
    if (!GLOBAL_ATTRS.has(name) && !allowed.includes(name)) continue;
    if (kept.some(([n]) => n === name)) continue;
    if (URL_ATTRS.has(name) && !isSafeUrl(value)) continue;
    if (name === "srcset" && !value.split(",").every((c) => isSafeUrl(c.trim().split(/\s+/)[0] ?? ""))) continue;
    if (name === "target" && value !== "_blank" && value !== "_self") continue;
    kept.push([name, value]);
  }
  // A new tab must not get a handle on the page that opened it.
  if (tag.name === "a" && kept.some(([n, v]) => n === "target" && v === "_blank")) {
    const rel = kept.find(([n]) => n === "rel");
    if (rel) rel[1] = [...new Set([...rel[1].split(/\s+/).filter(Boolean), "noopener", "noreferrer"])].join(" ");
    else kept.push(["rel", "noopener noreferrer"]);
  }
  return `<${tag.name}${kept.map(([n, v]) => ` ${n}="${escapeAttr(v)}"`).join("")}>`;
}
