/** Applies the shared binding rules to DOM elements (the browser's half of the renderer). */
import { type BindContext, type Op, ATTR, bindingOps, emptyStateOps, readBindings, withStyle } from "../shared/binding/rules";
import type { BindableItem } from "../shared/binding/values";

const WIDGETS = `[${ATTR.list}],[${ATTR.search}],[${ATTR.related}]`;

export function applyOps(el: Element, ops: readonly Op[], ctx: BindContext): boolean {
  for (const op of ops) {
    if (op.op === "remove") {
      el.remove();
      return false;
    }
    if (op.op === "set") el.setAttribute(op.name, op.value);
    else if (op.op === "unset") el.removeAttribute(op.name);
    else if (op.op === "text") el.textContent = op.value;
    else if (op.op === "style") el.setAttribute("style", withStyle(el.getAttribute("style"), op.property, op.value));
    else if (op.op === "repeat") repeat(el, op.items, ctx);
    else el.innerHTML = op.value;
  }
  return true;
}

/**
 * Binds `root` and everything in it to `item`, except what lies inside a
 * nested widget (`skipWidgets`, for item scopes). Returns false when the root
 * itself was removed by `data-oc-if`.
 */
export function bindTree(root: Element, item: BindableItem, ctx: BindContext, skipWidgets: boolean): boolean {
  const elements = [root, ...Array.from(root.querySelectorAll("*"))];
  for (const el of elements) {
    // Removed or replaced by an ancestor's binding: nothing left to bind.
    if (el !== root && !root.contains(el)) continue;
    if (skipWidgets && el !== root && insideWidget(el, root)) continue;
    const b = readBindings(el.getAttributeNames(), (n) => el.getAttribute(n));
    if (!b || b.empty) continue;
    if (!applyOps(el, bindingOps(el.tagName.toLowerCase(), b, item, ctx), ctx) && el === root) return false;
  }
  return true;
}

/** Fills a list container from its template (first element child) and optional empty state. */
export function renderInto(
  container: Element,
  template: Element,
  empty: Element | null,
  items: readonly BindableItem[],
  ctx: BindContext,
): void {
  const nodes: Element[] = [];
  for (const item of items) {
    const clone = template.cloneNode(true) as Element;
    if (bindTree(clone, item, ctx, false)) nodes.push(clone);
  }
  if (items.length === 0 && empty) {
    const shown = empty.cloneNode(true) as Element;
    applyOps(shown, emptyStateOps(), ctx);
    nodes.push(shown);
  }
  container.replaceChildren(...nodes);
}

/** A gallery's container: its first element child once per image (as the server's program.ts does). */
function repeat(container: Element, items: readonly BindableItem[], ctx: BindContext): void {
  const template = container.firstElementChild;
  if (!template) return;
  const copies: Element[] = [];
  for (const item of items) {
    const copy = template.cloneNode(true) as Element;
    if (bindTree(copy, item, ctx, false)) copies.push(copy);
  }
  container.replaceChildren(...copies);
}

/** A nested list, search or related widget binds its own items, never the scope's. */
function insideWidget(el: Element, root: Element): boolean {
  const widget = el.closest(WIDGETS);
  return widget !== null && widget !== root && root.contains(widget);
}
