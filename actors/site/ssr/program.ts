/**
 * A compiled item template: the template's HTML cut into static text and the
 * elements that carry bindings. Rendering an item is string concatenation
 * plus the shared binding rules; no parsing happens per request.
 */
import { type BindContext, type Bindings, type Op, bindingOps, emptyStateOps, withStyle } from "../../../src/shared/binding/rules";
import type { BindableItem } from "../../../src/shared/binding/values";
import { escapeAttr, escapeHtml, requoteRawAttr } from "../../../src/shared/escape";

export type ProgramNode = string | BoundElement;

export interface BoundElement {
  tag: string;
  /** Attributes as written in the page: name and raw (still entity-encoded) value. */
  attrs: [string, string][];
  bindings: Bindings | null;
  /** Children; null for void elements. */
  content: ProgramNode[] | null;
  /** The end tag exactly as written (empty for void elements). */
  end: string;
}

export function renderProgram(nodes: readonly ProgramNode[], item: BindableItem, ctx: BindContext): string {
  let out = "";
  for (const node of nodes) out += typeof node === "string" ? node : renderElement(node, item, ctx);
  return out;
}

/** The empty state: the element with its `hidden` attribute dropped, contents as written. */
export function renderEmptyState(node: ProgramNode): string {
  if (typeof node === "string") return node;
  return startTag(node.tag, node.attrs, emptyStateOps()) + staticContent(node.content) + node.end;
}

function renderElement(el: BoundElement, item: BindableItem, ctx: BindContext): string {
  const ops = el.bindings ? bindingOps(el.tag, el.bindings, item, ctx) : [];
  if (ops.some((o) => o.op === "remove")) return "";
  const content = ops.findLast((o) => o.op === "text" || o.op === "html" || o.op === "repeat");
  let inner: string;
  if (el.content === null) inner = "";
  else if (content?.op === "text") inner = escapeHtml(content.value);
  else if (content?.op === "html") inner = content.value;
  else if (content?.op === "repeat") inner = renderRepeat(el.content, content.items, ctx) ?? renderProgram(el.content, item, ctx);
  else inner = renderProgram(el.content, item, ctx);
  return startTag(el.tag, el.attrs, ops) + inner + el.end;
}

/**
 * A gallery's container content: its template (the first element child, which compile.ts always
 * keeps as an element) once per image, the text around it dropped, as the embed's DOM does. Null
 * when there is no element child: the content stays as written.
 */
export function renderRepeat(content: readonly ProgramNode[], items: readonly BindableItem[], ctx: BindContext): string | null {
  const template = content.find((n): n is BoundElement => typeof n !== "string");
  if (!template) return null;
  let out = "";
  for (const item of items) out += renderElement(template, item, ctx);
  return out;
}

function staticContent(content: ProgramNode[] | null): string {
  if (!content) return "";
  return content.map((n) => (typeof n === "string" ? n : startTag(n.tag, n.attrs, []) + staticContent(n.content) + n.end)).join("");
}

/** A start tag with the attribute ops applied: a set keeps the attribute's place, a new one goes last (as in the DOM). */
function startTag(tag: string, attrs: readonly [string, string][], ops: readonly Op[]): string {
  const list: [string, string][] = attrs.map(([n, v]) => [n, `"${requoteRawAttr(v)}"`]);
  for (const op of ops) {
    if (op.op === "set") {
      const value = `"${escapeAttr(op.value)}"`;
      const at = list.findIndex(([n]) => n === op.name);
      if (at >= 0) list[at] = [op.name, value];
      else list.push([op.name, value]);
    } else if (op.op === "unset") {
      const at = list.findIndex(([n]) => n === op.name);
      if (at >= 0) list.splice(at, 1);
    } else if (op.op === "style") {
      const raw = attrs.find(([n]) => n === "style")?.[1] ?? null;
      const value = `"${requoteRawAttr(withStyle(raw, op.property, op.value))}"`;
      const at = list.findIndex(([n]) => n === "style");
      if (at >= 0) list[at] = ["style", value];
      else list.push(["style", value]);
    }
  }
  return `<${tag}${list.map(([n, v]) => ` ${n}=${v}`).join("")}>`;
}
