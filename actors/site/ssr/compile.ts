/**
 * Capture-time compilation of a customer's page. The page is parsed once, by
 * HTMLRewriter, with marker characters inserted at the edges of the parts we
 * need; splitting on the markers gives the exact source of each part. Out
 * come: the page with every list widget emptied and tagged `data-oc-slot`,
 * and per widget its query and its item template compiled to a program.
 */
import { type ListConfig, readListConfig } from "../../../src/shared/binding/list-config";
import { ATTR, readBindings } from "../../../src/shared/binding/rules";
import { decodeEntities } from "../../../src/shared/escape";
import { isUtf8Label } from "./charset";
import type { BoundElement, ProgramNode } from "./program";

export interface CompiledWidget {
  config: ListConfig;
  /** Null when the widget has no element child to repeat. */
  template: ProgramNode[] | null;
  empty: ProgramNode | null;
}

export interface CompiledPage {
  html: string;
  widgets: CompiledWidget[];
  hasItemScope: boolean;
  title: string;
  description: string;
  /** og:site_name of the page, if it has one. */
  siteName: string;
  /**
   * The content of the item scopes' field elements (`[data-oc-item] [data-oc-field]`, numbered in
   * document order), compiled: a gallery bound on one repeats its first element child, which the
   * streaming renderer cannot copy from the page (render.ts). Absent in pages compiled before.
   */
  repeats?: Record<string, ProgramNode[]>;
  /** Document-order indices of JSON-LD scripts that describe the page itself; item pages replace them. */
  pageJsonLd: number[];
  embedTokens: string[];
}

// JSON-LD types that describe the page itself: on an item page they would be wrong,
// so they give way to the item's own Article and BreadcrumbList.
const PAGE_LD_TYPES = new Set([
  "Article",
  "BlogPosting",
  "NewsArticle",
  "BreadcrumbList",
  "WebPage",
  "CollectionPage",
  "ItemPage",
  "Blog",
  "ItemList",
]);

export const SLOT_ATTR = "data-oc-slot";
/** Elements that have no end tag. */
export const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const MARK_OPEN = "\uE000";
const MARK_CLOSE = "\uE001";
const mark = (kind: string, n: number) => `${MARK_OPEN}${kind}${n}${MARK_CLOSE}`;

type Attrs = [string, string][];
const decoded = (attrs: Attrs) => (name: string) => {
  const hit = attrs.find(([n]) => n === name);
  return hit ? decodeEntities(hit[1]) : null;
};

export class TemplateError extends Error {}

export async function compilePage(source: string): Promise<CompiledPage> {
  // The markers are private-use characters; any already in the page are meaningless and go.
  const page = source.replaceAll(MARK_OPEN, "").replaceAll(MARK_CLOSE, "");
  const configs: ListConfig[] = [];
  const embedTokens: string[] = [];
  let inWidget = false;
  let hasItemScope = false;
  let title = "";
  let description = "";
  let siteName = "";
  let inTitle = false;
  let sawHead = false;
  const ldScripts: string[] = [];
  let fieldCount = 0;

  const rewriter = new HTMLRewriter()
    // Before the list handler: a widget's own element is counted, what it holds is not (it is emptied).
    .on(`[${ATTR.item}] [${ATTR.field}]`, {
      element(el) {
        if (inWidget) return;
        const n = fieldCount++;
        if (VOID.has(el.tagName) || el.hasAttribute(ATTR.list)) return;
        el.prepend(mark("R", n), { html: true });
        el.append(mark("r", n), { html: true });
      },
    })
    .on(`[${ATTR.list}]`, {
      element(el) {
        if (inWidget || VOID.has(el.tagName)) return; // lists inside a list's template are left as written
        const attrs = [...el.attributes] as Attrs;
        const config = readListConfig(
          attrs.map(([n]) => n),
          decoded(attrs),
        );
        if (!config) return;
        const i = configs.push(config) - 1;
        inWidget = true;
        el.setAttribute(SLOT_ATTR, String(i));
        el.prepend(mark("W", i), { html: true });
        el.append(mark("w", i), { html: true });
        el.onEndTag(() => {
          inWidget = false;
        });
      },
    })
    .on(`[${ATTR.item}]`, {
      element() {
        hasItemScope = true;
      },
    })
    .on("script[data-oc-token]", {
      element(el) {
        const src = el.getAttribute("src") ?? "";
        if (/\/embed\.js(?:[?#]|$)/.test(decodeEntities(src))) embedTokens.push(decodeEntities(el.getAttribute("data-oc-token") ?? ""));
      },
    })
    .on("head", {
      element() {
        sawHead = true;
      },
    })
    // The page was decoded from whatever it declared (charset.ts) and is served as UTF-8: its declaration must say so.
    .on("meta[charset]", {
      element(el) {
        if (!isUtf8Label(el.getAttribute("charset") ?? "")) el.setAttribute("charset", "utf-8");
      },
    })
    .on("meta[http-equiv]", {
      element(el) {
        const content = el.getAttribute("content") ?? "";
        const label = /charset\s*=\s*([^\s;]+)/i.exec(content)?.[1];
        if (el.getAttribute("http-equiv")?.trim().toLowerCase() === "content-type" && label !== undefined && !isUtf8Label(label)) {
          el.setAttribute("content", "text/html; charset=utf-8");
        }
      },
    })
    .on("head title", {
      element() {
        inTitle = title === "";
      },
      text(t) {
        if (inTitle) title += t.text;
        if (t.lastInTextNode) inTitle = false;
      },
    })
    .on("meta[name]", {
      element(el) {
        if (!description && el.getAttribute("name")?.toLowerCase() === "description")
          description = decodeEntities(el.getAttribute("content") ?? "");
      },
    })
    .on('meta[property="og:site_name"]', {
      element(el) {
        siteName ||= decodeEntities(el.getAttribute("content") ?? "");
      },
    })
    .on('script[type="application/ld+json"]', {
      element() {
        ldScripts.push("");
      },
      text(t) {
        ldScripts[ldScripts.length - 1] += t.text;
      },
    });
  const marked = await rewriter.transform(new Response(page)).text();

  const inner: string[] = [];
  const html = (sawHead ? marked : withHead(marked)).replace(
    /\uE000W(\d+)\uE001([\s\S]*?)\uE000w\1\uE001/g,
    (_m, i: string, content: string) => {
      inner[Number(i)] = content;
      return "";
    },
  );
  const { html: unmarked, contents } = takeFieldContents(html);
  const widgets: CompiledWidget[] = [];
  for (const [i, config] of configs.entries()) widgets.push({ config, ...(await compileWidget(inner[i] ?? "")) });
  const repeats: Record<string, ProgramNode[]> = {};
  for (const [n, content] of contents) {
    const program = await compileRepeat(content);
    if (program) repeats[n] = program;
  }
  const pageJsonLd = ldScripts.flatMap((text, i) => (describesPage(text) ? [i] : []));
  return {
    html: unmarked,
    widgets,
    hasItemScope,
    ...(Object.keys(repeats).length ? { repeats } : {}),
    title: decodeEntities(title).trim(),
    description: description.trim(),
    siteName: siteName.trim(),
    pageJsonLd,
    embedTokens,
  };
}

/**
 * HTML lets a page leave out <head>, but the item pages' tags and a 404's noindex
 * go into it: a page without one gets an empty one where the parser would imply it.
 */
function withHead(html: string): string {
  const open = /<html\b[^>]*>/i.exec(html) ?? /^\s*<!doctype[^>]*>/i.exec(html);
  if (!open) return `<head></head>${html}`;
  const at = open.index + open[0].length;
  return `${html.slice(0, at)}<head></head>${html.slice(at)}`;
}

function describesPage(json: string): boolean {
  const types: string[] = [];
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(collect);
    if (typeof v !== "object" || v === null) return;
    const t = (v as Record<string, unknown>)["@type"];
    for (const x of Array.isArray(t) ? t : [t]) if (typeof x === "string") types.push(x);
    collect((v as Record<string, unknown>)["@graph"]);
  };
  try {
    collect(JSON.parse(json));
  } catch {
    return false;
  }
  return types.some((t) => PAGE_LD_TYPES.has(t));
}

const FIELD_MARKS = /\uE000R(\d+)\uE001([\s\S]*?)\uE000r\1\uE001/g;

/** The page without the field elements' markers, and each marked element's content (without the markers of those inside it). */
function takeFieldContents(html: string): { html: string; contents: Map<string, string> } {
  const contents = new Map<string, string>();
  let out = html;
  // Outer marks are taken first; the content they keep still holds the inner ones, for the next round.
  for (let before = ""; before !== out;) {
    before = out;
    out = out.replace(FIELD_MARKS, (_m, n: string, content: string) => {
      contents.set(n, content.replace(/\uE000[Rr]\d+\uE001/g, ""));
      return content;
    });
  }
  // A mark left without its pair (an element the parser closed without an end tag) goes too.
  return { html: out.replace(/\uE000[Rr]\d+\uE001/g, ""), contents };
}

/** A field element's content compiled as a gallery's container's (its first element child kept as an element); null without one. */
async function compileRepeat(content: string): Promise<ProgramNode[] | null> {
  const [root] = await compileFragment(`<oc-root ${ATTR.field}="">${content}</oc-root>`, false);
  const nodes = root && typeof root !== "string" ? root.content : null;
  return nodes && nodes.some((n) => typeof n !== "string") ? nodes : null;
}

/** Splits a widget's content into its element children and compiles the template and the empty state. */
async function compileWidget(content: string): Promise<Omit<CompiledWidget, "config">> {
  const children: { empty: boolean }[] = [];
  const marked = await new HTMLRewriter()
    .on("oc-root > *", {
      element(el) {
        const k = children.push({ empty: el.hasAttribute(ATTR.empty) }) - 1;
        el.before(mark("K", k), { html: true });
        el.after(mark("k", k), { html: true });
      },
    })
    .transform(new Response(`<oc-root>${content}</oc-root>`))
    .text();
  const sourceOf = (k: number) => new RegExp(`\\uE000K${k}\\uE001([\\s\\S]*?)\\uE000k${k}\\uE001`).exec(marked)?.[1] ?? "";
  const templateAt = children.findIndex((c) => !c.empty);
  const emptyAt = children.findIndex((c) => c.empty);
  const template = templateAt < 0 ? null : await compileFragment(sourceOf(templateAt), false);
  const empty = emptyAt < 0 ? null : ((await compileFragment(sourceOf(emptyAt), true))[0] ?? null);
  return { template, empty };
}

/**
 * Compiles one element's source: the root and every element that carries bindings become
 * BoundElements, and so does the first element child of an element with `data-oc-field` (a
 * gallery's template, which program.ts repeats once per image; see renderRepeat).
 */
async function compileFragment(source: string, rootOnly: boolean): Promise<ProgramNode[]> {
  const records: { tag: string; attrs: Attrs; void: boolean }[] = [];
  // Open elements: whether each binds a field, and whether its first element child was seen.
  const open: { field: boolean; sawChild: boolean }[] = [];
  const marked = await new HTMLRewriter()
    .on("*", {
      element(el) {
        const attrs = [...el.attributes] as Attrs;
        const parent = open[open.length - 1];
        const firstOfField = parent?.field === true && !parent.sawChild;
        if (parent) parent.sawChild = true;
        if (!VOID.has(el.tagName)) {
          open.push({ field: el.hasAttribute(ATTR.field), sawChild: false });
          el.onEndTag(() => {
            open.pop();
          });
        }
        if (
          records.length > 0 &&
          (rootOnly ||
            (!firstOfField &&
              !readBindings(
                attrs.map(([n]) => n),
                decoded(attrs),
              )))
        )
          return;
        const isVoid = VOID.has(el.tagName);
        const n = records.push({ tag: el.tagName, attrs, void: isVoid }) - 1;
        el.before(mark("S", n), { html: true });
        if (!isVoid) {
          el.prepend(mark("C", n), { html: true });
          el.append(mark("c", n), { html: true });
        }
        el.after(mark("s", n), { html: true });
      },
    })
    .transform(new Response(source))
    .text();
  return parseMarked(marked, records);
}

type Phase = "start" | "content" | "end";

function parseMarked(marked: string, records: readonly { tag: string; attrs: Attrs; void: boolean }[]): ProgramNode[] {
  const root: ProgramNode[] = [];
  const stack: { el: BoundElement; phase: Phase }[] = [];
  const container = (): ProgramNode[] => (stack.length ? (stack[stack.length - 1]!.el.content ?? []) : root);
  const parts = marked.split(/\uE000([SCcs])(\d+)\uE001/);
  for (let i = 0; i < parts.length; i += 3) {
    const text = parts[i] as string;
    const top = stack[stack.length - 1];
    if (text) {
      if (top?.phase === "end") top.el.end += text;
      else if (top?.phase !== "start") pushText(container(), text);
    }
    const kind = parts[i + 1];
    if (kind === undefined) break;
    const rec = records[Number(parts[i + 2])]!;
    if (kind === "S") {
      const attrs = rec.attrs;
      const el: BoundElement = {
        tag: rec.tag,
        attrs,
        bindings: readBindings(
          attrs.map(([n]) => n),
          decoded(attrs),
        ),
        content: rec.void ? null : [],
        end: "",
      };
      container().push(el);
      stack.push({ el, phase: "start" });
    } else if (kind === "C" && top) top.phase = "content";
    else if (kind === "c" && top) top.phase = "end";
    else if (kind === "s") stack.pop();
  }
  if (stack.length) throw new TemplateError(`the <${stack[stack.length - 1]!.el.tag}> element in the list template is never closed`);
  return root;
}

function pushText(nodes: ProgramNode[], text: string): void {
  const last = nodes[nodes.length - 1];
  if (typeof last === "string") nodes[nodes.length - 1] = last + text;
  else nodes.push(text);
}
