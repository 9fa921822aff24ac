/**
 * The embed script: `<script src="{base}/embed.js" data-oc-token="pk_…" defer>`.
 * Renders every list and item widget of the page from the content API with
 * the shared binding rules, and runs search and related widgets. Widgets the
 * server already rendered carry `data-oc-rendered` and are left alone, with
 * no request made for them.
 */
import { ATTR, type BindContext, type Labels, type Schema, basePathOf } from "../shared/binding/rules";
import { listQuery, readListConfig } from "../shared/binding/list-config";
import { slugFromAddress } from "../shared/binding/item-address";
import type { BindableItem } from "../shared/binding/values";
import { bindTree, renderInto } from "./dom-bind";

interface ListBody {
  items: BindableItem[];
}

const script = (document.currentScript ?? document.querySelector(`script[data-oc-token]`)) as HTMLScriptElement | null;
const token = script?.getAttribute("data-oc-token") ?? "";
const api = script ? new URL(script.src, location.href).origin : location.origin;
const base = basePathOf(location.pathname);
const pageParam = new URLSearchParams(location.search).get("page");
const page = pageParam && /^\d+$/.test(pageParam) ? Number(pageParam) : 1;

// The locale reads are in: the script's `data-oc-locale`, else the page's `<html lang>` when it is
// one of the site's locales (the schema answer names them), else the items' own values.
const namedLocale = script?.getAttribute("data-oc-locale")?.trim() || null;
const pageLang = document.documentElement.getAttribute("lang")?.trim().toLowerCase() || null;

class Missing extends Error {}

async function get<T>(path: string): Promise<T> {
  const res = await fetch(`${api}/v1/${encodeURIComponent(token)}${path}`, { headers: { accept: "application/json" } });
  if (res.status === 404) throw new Missing(path);
  if (!res.ok) throw new Error(`${res.status} ${path}`);
  return (await res.json()) as T;
}

/** A collection's schema answer: field types and option labels, for it and the collections it references. */
interface Described {
  schema: Schema;
  labels: Labels;
  /** The site's locales, when it has them. */
  locales?: string[];
}

const ctxOf = (d: Described): BindContext => ({ schema: d.schema, labels: d.labels, base });

/**
 * Field types and option labels come from the collection's schema answer (cached like the
 * items), asked for once per collection and page, alongside the items rather than after them.
 */
const schemas = new Map<string, Promise<Described>>();
function schemaOf(collection: string): Promise<Described> {
  let described = schemas.get(collection);
  if (!described) {
    described = get<Described>(`/collections/${encodeURIComponent(collection)}/schema`).then((b) => ({
      locales: b.locales,
      schema: b.schema,
      labels: b.labels ?? {},
    }));
    schemas.set(collection, described);
  }
  return described;
}
async function schemaOfAll(collections: Iterable<string>): Promise<Described> {
  const all = await Promise.all([...new Set(collections)].map(schemaOf));
  return { schema: Object.assign({}, ...all.map((d) => d.schema)), labels: Object.assign({}, ...all.map((d) => d.labels)) };
}
const attrs = (el: Element) => [el.getAttributeNames(), (n: string) => el.getAttribute(n)] as const;
const done = (el: Element) => {
  el.setAttribute(ATTR.rendered, "1");
  reportSeen();
};

/**
 * Tells the service, once an hour per browser, that a widget rendered on this page: the owner's
 * checklist ticks "Put the widget on your page" from it. Only the page's origin and path are sent.
 */
let reported = false;
function reportSeen(): void {
  if (reported) return;
  reported = true;
  const key = `oc-seen:${token}`;
  try {
    const last = Number(localStorage.getItem(key));
    if (Date.now() - last < 3_600_000) return;
    localStorage.setItem(key, String(Date.now()));
  } catch {
    // Storage refused (a private window, a sandbox): report anyway, the service keeps one an hour.
  }
  navigator.sendBeacon?.(`${api}/v1/${encodeURIComponent(token)}/seen`, `${location.origin}${location.pathname}`);
}

/** The widget's template (its first element child that is not the empty state) and empty state, kept so it can render again. */
const templates = new WeakMap<Element, { template: Element; empty: Element | null }>();
function partsOf(container: Element) {
  let parts = templates.get(container);
  if (!parts) {
    const children = Array.from(container.children);
    const template = children.find((c) => !c.hasAttribute(ATTR.empty));
    const empty = children.find((c) => c.hasAttribute(ATTR.empty));
    if (!template) return null;
    parts = { template: template.cloneNode(true) as Element, empty: (empty?.cloneNode(true) as Element | undefined) ?? null };
    templates.set(container, parts);
  }
  return parts;
}

/**
 * A read of `path` in the page's locale. With no locale named, the read without one starts at
 * once beside the schema; it is the answer unless the schema says `<html lang>` is a locale of
 * the site, so a site without locales costs no request more than before.
 */
async function localized<T>(collection: string, path: string): Promise<T> {
  const withLocale = (code: string) => get<T>(`${path}${path.includes("?") ? "&" : "?"}locale=${encodeURIComponent(code)}`);
  if (namedLocale) return withLocale(namedLocale);
  const plain = get<T>(path);
  if (!pageLang) return plain;
  const code = (await schemaOf(collection)).locales?.find((l) => l.toLowerCase() === pageLang);
  if (!code) return plain;
  plain.catch(() => undefined);
  return withLocale(code);
}

function itemSlugOf(el: Element): string | null {
  return el.getAttribute(ATTR.slug) ?? slugFromAddress(location);
}

/** An item scope as the page wrote it, kept so another `#slug` can render into it again. */
const scopes = new WeakMap<Element, Element>();

/**
 * An item page whose address names no item, or an item that is not published: the scope's own
 * `data-oc-empty` element is shown in place of its content, or a sentence when it has none, so a
 * visitor never sees the template's placeholders.
 */
function showMissing(scope: Element, pristine: Element): void {
  const empty = Array.from(pristine.children).find((c) => c.hasAttribute(ATTR.empty));
  if (empty) {
    const shown = empty.cloneNode(true) as Element;
    shown.removeAttribute("hidden");
    scope.replaceChildren(shown);
  } else {
    const p = document.createElement("p");
    p.textContent = "This item is not available.";
    scope.replaceChildren(p);
  }
  scope.setAttribute("data-oc-missing", "");
  done(scope);
}

async function renderList(widget: Element): Promise<void> {
  const config = readListConfig(...attrs(widget));
  const parts = partsOf(widget);
  if (!config || !parts) return;
  const [body, schema] = await Promise.all([
    localized<ListBody>(config.collection, `/collections/${encodeURIComponent(config.collection)}/items?${listQuery(config, page)}`),
    schemaOf(config.collection),
  ]);
  renderInto(widget, parts.template, parts.empty, body.items, ctxOf(schema));
  done(widget);
}

async function renderItem(scope: Element): Promise<void> {
  const collection = scope.getAttribute(ATTR.item);
  if (!collection) return;
  let pristine = scopes.get(scope);
  if (!pristine) scopes.set(scope, (pristine = scope.cloneNode(true) as Element));
  else scope.replaceChildren(...Array.from(pristine.cloneNode(true).childNodes));
  scope.removeAttribute("data-oc-missing");
  const slug = itemSlugOf(scope);
  if (!slug) return showMissing(scope, pristine);
  try {
    const [body, schema] = await Promise.all([
      localized<{ item: BindableItem }>(collection, `/collections/${encodeURIComponent(collection)}/items/${encodeURIComponent(slug)}`),
      schemaOf(collection),
    ]);
    bindTree(scope, body.item, ctxOf(schema), true);
    done(scope);
  } catch (err) {
    if (!(err instanceof Missing)) throw err;
    showMissing(scope, pristine);
  }
}

async function renderRelated(widget: Element): Promise<void> {
  const collection = widget.getAttribute(ATTR.related);
  const slug = itemSlugOf(widget);
  const parts = partsOf(widget);
  if (!collection || !slug || !parts) return;
  const limit = widget.getAttribute(ATTR.limit);
  const [body, schema] = await Promise.all([
    get<ListBody>(
      `/collections/${encodeURIComponent(collection)}/items/${encodeURIComponent(slug)}/related${limit ? `?limit=${encodeURIComponent(limit)}` : ""}`,
    ),
    schemaOf(collection),
  ]);
  renderInto(widget, parts.template, parts.empty, body.items, ctxOf(schema));
  done(widget);
}

/** `data-oc-search` holds an input and a `data-oc-results` container whose first child is the result template. */
function wireSearch(widget: Element): void {
  const input = widget.querySelector("input");
  const results = widget.querySelector("[data-oc-results]");
  const parts = results && partsOf(results);
  if (!input || !results || !parts) return;
  results.replaceChildren();
  const collection = widget.getAttribute(ATTR.search);
  const limit = widget.getAttribute(ATTR.limit);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;
  const run = async (q: string) => {
    const ticket = ++latest;
    if (q.trim() === "") return results.replaceChildren();
    const query = new URLSearchParams({ q });
    if (collection) query.set("collection", collection);
    if (limit) query.set("limit", limit);
    const known = collection ? schemaOf(collection) : null;
    const body = await get<{ results: { item: BindableItem & { collection: string } }[] }>(`/search?${query}`);
    const items = body.results.map((r) => r.item);
    // Without a collection, results may come from several: the types of each one present.
    const schema = await (known ?? schemaOfAll(items.map((i) => i.collection)));
    if (ticket !== latest) return;
    renderInto(results, parts.template, parts.empty, items, ctxOf(schema));
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(input.value).catch(warn), 250);
  });
  input.closest("form")?.addEventListener("submit", (e) => {
    e.preventDefault();
    void run(input.value).catch(warn);
  });
  done(widget);
}

function warn(err: unknown): void {
  console.warn("[open-content] widget not rendered:", err);
}

function start(): void {
  if (!token) return warn(new Error("the embed script needs data-oc-token"));
  const pending = `:not([${ATTR.rendered}])`;
  for (const el of document.querySelectorAll(`[${ATTR.list}]${pending}`)) void renderList(el).catch(warn);
  for (const el of document.querySelectorAll(`[${ATTR.item}]${pending}`)) void renderItem(el).catch(warn);
  for (const el of document.querySelectorAll(`[${ATTR.related}]${pending}`)) void renderRelated(el).catch(warn);
  for (const el of document.querySelectorAll(`[${ATTR.search}]${pending}`)) wireSearch(el);
  // An item page addressed by `#slug` changes item without loading again.
  window.addEventListener("hashchange", () => {
    for (const el of document.querySelectorAll(`[${ATTR.item}]:not([${ATTR.slug}])`)) void renderItem(el).catch(warn);
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
