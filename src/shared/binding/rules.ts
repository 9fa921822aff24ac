/**
 * The binding rules, written once. Both the embed script (on the DOM) and the
 * server renderer (on HTMLRewriter and compiled templates) ask this module
 * what to do with an element and apply the answer, a list of `Op`s, with
 * their own means. Neither DOM nor Workers types are used here.
 * docs/binding-rules.md is the user-facing description of this file.
 */
import { type BindableItem, GALLERY_IMAGE, RAW_DATES, displayText, isEmpty, isMedia, lookup, withGalleryImage } from "./values";

export const ATTR = {
  list: "data-oc-list",
  limit: "data-oc-limit",
  sort: "data-oc-sort",
  filterPrefix: "data-oc-filter-",
  field: "data-oc-field",
  attrPrefix: "data-oc-attr-",
  link: "data-oc-link",
  item: "data-oc-item",
  slug: "data-oc-slug",
  empty: "data-oc-empty",
  if: "data-oc-if",
  ifNot: "data-oc-if-not",
  format: "data-oc-format",
  locale: "data-oc-locale",
  search: "data-oc-search",
  related: "data-oc-related",
  rendered: "data-oc-rendered",
} as const;

/** Field types as the content API names them in `schema`. */
export type Schema = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * Option labels as the content API gives them in `labels`: per collection slug, per option field,
 * each option's value to the label people see (the value itself when the option has no label).
 */
export type Labels = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>>;

/** `data-oc-format="label"`: an option field shows its option's label instead of its value. */
export const LABEL_FORMAT = "label";

export interface BindContext {
  /** Field types per collection slug, for the item's collection and those it references. */
  schema: Schema;
  /** Option labels per collection slug, for the same collections as `schema`. */
  labels: Labels;
  /** Path of the list page, ending in `/`; an item's page is `base + slug`. */
  base: string;
  /**
   * True where the service serves every item page at `base + slug` (the SEO Engine): links then
   * ignore a template's own item address (`data-oc-link="item.html?slug={slug}"`) and use that path.
   */
  routed?: boolean;
}

export type Op =
  | { op: "set"; name: string; value: string }
  | { op: "unset"; name: string }
  | { op: "text"; value: string }
  | { op: "html"; value: string }
  /** One declaration of the element's `style`, the rest of it kept (see `withStyle`). */
  | { op: "style"; property: string; value: string }
  /**
   * A gallery on a container: its first element child (the template) once per image, each copy
   * bound to `items[i]` (the item with that image as `@`); the container's other children go.
   * A container without an element child is left as written.
   */
  | { op: "repeat"; items: BindableItem[] }
  | { op: "remove" };

/** What an element asks for, read once from its attributes. */
export interface Bindings {
  field: string | null;
  attrs: [attribute: string, path: string][];
  link: boolean;
  /** `data-oc-link`'s value when it is an item address with `{slug}` in it (absent in pages compiled before it existed). */
  linkTo?: string | null;
  ifPath: string | null;
  ifNotPath: string | null;
  format: string | null;
  /** `data-oc-locale`: the locale numbers and money show in (absent in pages compiled before it existed). */
  locale?: string | null;
  empty: boolean;
}

/** Reads an element's binding attributes. `get` returns decoded values. Null: nothing to bind. */
export function readBindings(names: Iterable<string>, get: (name: string) => string | null): Bindings | null {
  let any = false;
  const attrs: [string, string][] = [];
  for (const name of names) {
    if (!name.startsWith("data-oc-")) continue;
    any = true;
    if (name.startsWith(ATTR.attrPrefix)) {
      const target = name.slice(ATTR.attrPrefix.length);
      const path = get(name);
      if (isBindableAttribute(target) && path) attrs.push([target, path.trim()]);
    }
  }
  if (!any) return null;
  const b: Bindings = {
    field: get(ATTR.field)?.trim() || null,
    attrs,
    link: get(ATTR.link) !== null,
    linkTo: linkTemplateOf(get(ATTR.link)),
    ifPath: get(ATTR.if)?.trim() || null,
    ifNotPath: get(ATTR.ifNot)?.trim() || null,
    format: get(ATTR.format),
    locale: get(ATTR.locale)?.trim() || null,
    empty: get(ATTR.empty) !== null,
  };
  return b.field || attrs.length || b.link || b.ifPath || b.ifNotPath || b.empty ? b : null;
}

// Content must never become script: event handlers and srcdoc are refused outright.
const ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/;
export function isBindableAttribute(name: string): boolean {
  return ATTRIBUTE_NAME.test(name) && !name.startsWith("on") && name !== "srcdoc" && name !== "style";
}

// Content never becomes script, styles, or a document base: these elements take no bindings at all.
const NEVER_BOUND = new Set(["script", "style", "base", "iframe", "frame", "object", "embed", "template", "noscript"]);

const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "poster", "cite", "data", "background", "ping"]);
const SAFE_URL = /^(?:https?:\/\/|mailto:|tel:|\/|#|\?|\.{0,2}\/)|^[^:/?#]*(?:[/?#]|$)/i;

/** A URL that cannot run script: known schemes or relative references only. */
export function isSafeUrl(value: string): boolean {
  const v = value.replace(/[\u0000-\u0020\u007f]/g, "");
  return SAFE_URL.test(v) && !/^(?:javascript|data|vbscript):/i.test(v);
}

/** True when the element is kept; `data-oc-if` / `data-oc-if-not` decide. */
function visible(b: Bindings, item: BindableItem): boolean {
  if (b.ifPath && isEmpty(lookup(item, b.ifPath))) return false;
  if (b.ifNotPath && !isEmpty(lookup(item, b.ifNotPath))) return false;
  return true;
}

/** The item that holds the field at `path` (following references) and the field's key in it. */
function fieldOwner(item: BindableItem, path: string): { owner: BindableItem; key: string } | null {
  const keys = path.split(".");
  let current: unknown = item;
  for (let i = 0; i < keys.length - 1; i++) {
    const v: unknown = (current as BindableItem).data[keys[i] as string];
    current = Array.isArray(v) ? v[0] : v;
    if (typeof current !== "object" || current === null || !("data" in current)) return null;
  }
  return { owner: current as BindableItem, key: keys[keys.length - 1] as string };
}

/** The type of the field at `path`, following references to their collection. */
export function fieldType(item: BindableItem, path: string, schema: Schema): string | undefined {
  const at = fieldOwner(item, path);
  return at ? schema[at.owner.collection]?.[at.key] : undefined;
}

/** The labels of the option field at `path` (value to label), or null when it is no option field. */
function optionLabels(item: BindableItem, path: string, labels: Labels): Readonly<Record<string, string>> | null {
  const at = fieldOwner(item, path);
  return (at && labels[at.owner.collection]?.[at.key]) || null;
}

/**
 * What to do with one element for one item. `tag` is the lower-case tag name.
 * Ops apply in order; `remove` ends the element and everything in it.
 */
export function bindingOps(tag: string, b: Bindings, item: BindableItem, ctx: BindContext): Op[] {
  if (!visible(b, item)) return [{ op: "remove" }];
  if (NEVER_BOUND.has(tag)) return [];
  const ops: Op[] = [];
  if (b.link && tag === "a") ops.push(linkOp(b.linkTo ?? null, item.slug, ctx));
  // `@` outside a gallery's template names nothing: what binds it stays as written.
  const inGallery = Object.hasOwn(item.data, GALLERY_IMAGE);
  for (const [name, path] of b.attrs) if (inGallery || !isGalleryPath(path)) ops.push(attributeOp(name, lookup(item, path)));
  if (b.field) {
    if (isGalleryPath(b.field) && !inGallery) return ops;
    const value = lookup(item, b.field);
    const type = fieldType(item, b.field, ctx.schema);
    if (type === "gallery" && !FIRST_IMAGE_TAGS.has(tag)) {
      const images = Array.isArray(value) ? value.filter(isMedia) : [];
      ops.push({ op: "repeat", items: images.map((m) => withGalleryImage(item, m)) });
      return ops;
    }
    const labels = b.format?.trim() === LABEL_FORMAT ? optionLabels(item, b.field, ctx.labels) : null;
    if (labels) ops.push({ op: "text", value: labelText(value, labels) });
    else ops.push(...fieldOps(tag, value, type, b.format, b.locale ?? null));
  }
  return ops;
}

/** An option value as its label; a value the field no longer offers shows as it is stored. */
function labelText(value: unknown, labels: Readonly<Record<string, string>>): string {
  if (typeof value !== "string") return displayText(value, null);
  return Object.hasOwn(labels, value) ? (labels[value] as string) : value;
}

/** The empty-state element of a list with no items is shown: its `hidden` attribute goes. */
export function emptyStateOps(): Op[] {
  return [{ op: "unset", name: "hidden" }];
}

/** Attributes are for machines (datetime, data-*, href): dates stay ISO 8601 there; `data-oc-format` is for text. */
function attributeOp(name: string, value: unknown): Op {
  const text = displayText(value, RAW_DATES);
  if (text === "" || (URL_ATTRIBUTES.has(name) && !isSafeUrl(text))) return { op: "unset", name };
  return { op: "set", name, value: text };
}

const isGalleryPath = (path: string) => path === GALLERY_IMAGE || path.startsWith(`${GALLERY_IMAGE}.`);

/** Elements that show one image: bound to a gallery, they show its first; any other element repeats its template. */
const FIRST_IMAGE_TAGS = new Set(["img", "a", "video", "audio", "source"]);

function fieldOps(tag: string, stored: unknown, type: string | undefined, format: string | null, locale: string | null): Op[] {
  const value = type === "gallery" ? (Array.isArray(stored) ? stored[0] : undefined) : stored;
  if (tag === "img" && (type === "image" || type === "gallery" || isMedia(value))) {
    if (!isMedia(value))
      return [
        { op: "unset", name: "src" },
        { op: "unset", name: "srcset" },
        { op: "set", name: "alt", value: "" },
      ];
    const ops: Op[] = [{ op: "set", name: "src", value: value.url }];
    ops.push(value.srcset ? { op: "set", name: "srcset", value: value.srcset } : { op: "unset", name: "srcset" });
    ops.push({ op: "set", name: "alt", value: value.alt ?? "" });
    const position = focalPosition(value.focal);
    if (position) ops.push({ op: "style", property: "object-position", value: position });
    return ops;
  }
  if (MEDIA_TAGS.has(tag) && (type === "video" || type === "image" || isMedia(value))) {
    return [isMedia(value) && isSafeUrl(value.url) ? { op: "set", name: "src", value: value.url } : { op: "unset", name: "src" }];
  }
  if (tag === "a" && (type === "link" || isMedia(value))) {
    const href = isMedia(value) ? value.url : typeof value === "string" ? value : "";
    return [href && isSafeUrl(href) ? { op: "set", name: "href", value: href } : { op: "unset", name: "href" }];
  }
  if (type === "richText") return [{ op: "html", value: typeof value === "string" ? value : "" }];
  return [{ op: "text", value: displayText(value, format, locale) }];
}

const MEDIA_TAGS = new Set(["video", "audio", "source"]);

/** A focal point as CSS `object-position` (`30% 70%`); only numbers in 0–1 make one, so nothing else reaches the style. */
function focalPosition(focal: unknown): string | null {
  if (typeof focal !== "object" || focal === null) return null;
  const { x, y } = focal as { x?: unknown; y?: unknown };
  const ok = (n: unknown): n is number => typeof n === "number" && n >= 0 && n <= 1;
  if (!ok(x) || !ok(y)) return null;
  const pct = (n: number) => `${Math.round(n * 1000) / 10}%`;
  return `${pct(x)} ${pct(y)}`;
}

/**
 * A `style` attribute's text with one declaration set: any earlier declaration of `property` goes,
 * the template's others stay as written. `style` is the attribute's source text (or null).
 */
export function withStyle(style: string | null, property: string, value: string): string {
  const kept = (style ?? "")
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d !== "" && d.slice(0, d.indexOf(":")).trim().toLowerCase() !== property);
  return [...kept, `${property}: ${value}`].join("; ");
}

/** The `{slug}` placeholder of an item address written in `data-oc-link`. */
export const SLUG_PLACEHOLDER = "{slug}";

/** A `data-oc-link` value that names an item address (`item.html?slug={slug}`); anything else means the default path. */
function linkTemplateOf(value: string | null): string | null {
  const v = value?.trim() ?? "";
  return v.includes(SLUG_PLACEHOLDER) && isSafeUrl(v.replaceAll(SLUG_PLACEHOLDER, "x")) ? v : null;
}

/**
 * An item link's `href`: the template's address with the slug in it, for hosts that cannot answer
 * `base + slug` (a static host without rewrites, Webflow's static pages); that path otherwise.
 */
function linkOp(template: string | null, slug: string, ctx: BindContext): Op {
  const href = template && !ctx.routed ? template.replaceAll(SLUG_PLACEHOLDER, encodeURIComponent(slug)) : itemPath(ctx.base, slug);
  return { op: "set", name: "href", value: href };
}

/** The item page path: the list's base path (always ending in `/`) plus the slug. */
export function itemPath(base: string, slug: string): string {
  return `${base.endsWith("/") ? base : `${base}/`}${encodeURIComponent(slug)}`;
}

/** The base path a list's item links use, from a page path: everything up to the last `/`. */
export function basePathOf(pathname: string): string {
  const i = pathname.lastIndexOf("/");
  return i < 0 ? "/" : pathname.slice(0, i + 1);
}
