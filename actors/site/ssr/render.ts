/**
 * Rendered pages: the captured page streamed through HTMLRewriter, with each
 * list widget's items (rendered by the compiled template programs) and, on
 * item pages, the page's item bound into `data-oc-item` scopes, by the same
 * shared rules the embed script applies in the browser.
 */
import { type BindContext, type Op, ATTR, bindingOps, itemPath, readBindings, withStyle } from "../../../src/shared/binding/rules";
import type { BindableItem } from "../../../src/shared/binding/values";
import { decodeEntities, escapeAttr } from "../../../src/shared/escape";
import type { Collection } from "../storage/rows";
import type { SiteContext } from "../context";
import { hasReferences } from "../content/public-items";
import type { PublicItem } from "../../../src/contract/responses";
import { DEPENDS_HEADER } from "../../../src/contract/headers";
import { readPublishedItem, readPublishedPage, readItemForPreview } from "../reads/published-list";
import { labelsFor, schemaFor } from "../reads/schema-map";
import { seoFields } from "../seo/fields";
import { type ItemSeo, itemHead, resolveItemSeo } from "../seo/meta";
import { type Mapping, mappingOf } from "../seo/rich-results/mapping";
import { richResultOf, type RichResult } from "../seo/rich-results/build";
import type { StoredCapture } from "./capture-store";
import type { PublicBase } from "../hostnames/public-base";
import { SLOT_ATTR, type CompiledPage, type CompiledWidget, VOID } from "./compile";
import { type ProgramNode, renderEmptyState, renderProgram, renderRepeat } from "./program";
import { NO_STORE, PUBLIC_CACHE_CONTROL } from "../../../src/contract/cache-control";
import { log, errorText, type LogEvents } from "../../../src/log";
import { alternateTags, itemAlternates, listAlternates, localizedHref, type PageLocale } from "./locale-pages";
import { isDocumentName } from "../seo/documents";

export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": PUBLIC_CACHE_CONTROL,
} as const;

/** `previewId`: the dashboard's preview of an item in any status, by id (ssr/preview.ts). */
export type PageTarget = { kind: "list"; page: number } | { kind: "item"; slug: string; previewId?: string };

export interface RenderOptions {
  /** The routed base path, ending in `/` (item links are base + slug). */
  base: string;
  /** Where the pages canonically live (`https://example.com` + `/blog/`), for canonical URLs and breadcrumbs. */
  canonical: PublicBase;
  /** Say in DEPENDS_HEADER when the page shows its own item alone (the front Worker asked, to carry its copy across versions). */
  sayDependency?: boolean;
  /** The page's locale on a site with locales (ssr/locale-pages.ts); null or absent for a site without. */
  locale?: PageLocale | null;
}

/** Everything a page render needs from the database, gathered before the page starts streaming. */
export interface PageData {
  status: 200 | 404;
  /** The HTML of each list widget's items (or empty state), by slot. */
  widgetHtml: string[];
  /** The page's own item on item pages, for `data-oc-item` scopes. */
  item: PublicItem | null;
  ctx: BindContext;
  /** An item page's own head tags, replacing the captured ones; null keeps the captured head. */
  head: string | null;
  /** Which of the page's JSON-LD scripts describe the captured page (removed when `head` is set). */
  pageJsonLd: number[];
  /** The one item this page shows and depends on, when it reads nothing else (no list, no references); else null. */
  dependsOn?: string | null;
  /** The item scopes' compiled field contents (CompiledPage `repeats`), for galleries. */
  repeats?: CompiledPage["repeats"];
  /** Keep the page out of search results (an expired job, when the owner chose so). */
  noindex?: boolean;
  /** On a site with locales: the page's language (`<html lang>`), its alternates' tags and where its in-page links go. */
  locale?: { lang: string; head: string; list: boolean; href: (href: string) => string | null } | null;
}

export function renderPage(s: SiteContext, capture: StoredCapture, target: PageTarget, opts: RenderOptions): Response {
  return renderDocument(capture.html, gatherPageData(s, capture, target, opts));
}

export function gatherPageData(s: SiteContext, capture: StoredCapture, target: PageTarget, opts: RenderOptions): PageData {
  const collections = s.collections();
  const primary = collections.find((c) => c.id === capture.collectionId);
  const ctx: BindContext = { schema: {}, labels: {}, base: opts.base, routed: true };
  let status: 200 | 404 = 200;
  let item: PublicItem | null = null;
  let page = 1;
  // Whether a widget ran a list query: the page then depends on more than its own item.
  let listed = false;
  const localeParams = opts.locale ? new URLSearchParams({ locale: opts.locale.code }) : undefined;
  if (target.kind === "item") {
    if (primary)
      item = target.previewId
        ? readItemForPreview(s, primary.id, target.previewId)
        : readPublishedItem(s, primary, target.slug, localeParams);
    if (!item) status = 404;
  } else {
    page = target.page;
    if (!capture.showsList) status = 404;
  }
  if (status === 404) page = 1;

  const widgetItemsBySlot = capture.page.widgets.map((w) => {
    const c = collections.find((x) => x.slug === w.config.collection);
    if (!c) return [];
    const schema = schemaFor(c, collections);
    Object.assign(ctx.schema, schema);
    Object.assign(ctx.labels, labelsFor(schema, collections));
    if (item && !capture.page.hasItemScope && c.id === capture.collectionId) return [item];
    listed = true;
    return widgetItems(s, c, w, page, opts.locale);
  });
  // Past the last page of the connected list there is nothing to show: not found, not indexed.
  if (target.kind === "list" && page > 1 && primary) {
    const slot = capture.page.widgets.findIndex((w) => w.config.collection === primary.slug);
    if (slot >= 0 && widgetItemsBySlot[slot]!.length === 0) return gatherPageData(s, capture, { kind: "item", slug: "" }, opts);
  }
  if (item && primary) {
    const schema = schemaFor(primary, collections);
    Object.assign(ctx.schema, schema);
    Object.assign(ctx.labels, labelsFor(schema, collections));
  }
  const where: RenderWhere = { siteId: s.site()?.id, target: target.kind === "list" ? `list page ${target.page}` : `item ${target.slug}` };
  const widgetHtml = capture.page.widgets.map((w, i) => renderWidget(w, widgetItemsBySlot[i] ?? [], ctx, { ...where, widget: i }));
  let head: string | null = null;
  let noindex = false;
  if (status === 200 && item && primary) {
    try {
      const { seo, rich } = itemSeo(s, capture, primary, item, opts);
      // The item's structured data says its language on a site with locales.
      head = itemHead(seo, rich.jsonLd && opts.locale ? { ...rich.jsonLd, inLanguage: opts.locale.code } : rich.jsonLd);
      noindex = rich.expired && capture.extra.seo?.richResults?.expiredNoindex === true;
    } catch (err) {
      // The item's own tags could not be built: the page keeps the captured head rather than failing.
      renderFailed("item head", { ...where, itemId: item.id, itemSlug: item.slug }, err);
    }
  }
  const alone =
    opts.sayDependency &&
    status === 200 &&
    item &&
    primary &&
    !listed &&
    !(target.kind === "item" && target.previewId) &&
    !hasReferences(primary);
  return {
    status,
    widgetHtml,
    item: status === 200 ? item : null,
    ctx,
    head,
    pageJsonLd: capture.page.pageJsonLd ?? [],
    dependsOn: alone ? item!.id : null,
    repeats: capture.page.repeats,
    noindex,
    locale: opts.locale && status === 200 ? localeData(opts.locale, opts.canonical, target.kind === "list" ? null : item) : null,
  };
}

/** The locale facts of a page that renders: its alternates (an item's where it exists, the list's in every locale). */
function localeData(page: PageLocale, canonical: PublicBase, item: PublicItem | null): NonNullable<PageData["locale"]> {
  const alternates = item ? itemAlternates(page, item.alternates ?? []) : listAlternates(page);
  const tags = alternateTags(canonical.origin, page, alternates);
  // An item page's canonical is in its own head; a list page's is the locale's list.
  if (!item) tags.unshift(`<link rel="canonical" href="${escapeAttr(`${canonical.origin}${page.bases.get(page.code)!}`)}">`);
  return {
    lang: page.code,
    head: tags.join("\n"),
    list: !item,
    href: (href) => localizedHref(href, page, canonical.origin, isDocumentName),
  };
}

/** Where a part of a page was being rendered, for its log line. */
type RenderWhere = Omit<LogEvents["render_failed"], "part" | "error">;

/**
 * One part of a page that could not be rendered, logged with what it takes to
 * reproduce it (site, page, widget, item). The rest of the page renders without it.
 */
export function renderFailed(part: string, facts: RenderWhere, err: unknown): void {
  log("render_failed", { part, ...facts, error: errorText(err) });
}

/** Text handed to HTMLRewriter must encode as UTF-8: a lone surrogate (stored before writes were cleaned) becomes U+FFFD. */
function encodable(html: string): string {
  return html.isWellFormed() ? html : html.toWellFormed();
}

/**
 * An item page's head facts and its rich result, as the page renders them. The SEO Engine
 * screen's report reads the same for many items, and passes the collection's mapping it made once.
 */
export function itemSeo(
  s: SiteContext,
  capture: StoredCapture,
  collection: Collection,
  item: PublicItem,
  opts: Pick<RenderOptions, "canonical">,
  mapping?: Mapping,
): { seo: ItemSeo; rich: RichResult } {
  const settings = capture.extra.seo ?? {};
  const siteName = settings.siteName ?? (capture.page.siteName || s.site()!.name);
  const fields = seoFields(collection, settings);
  const seo = resolveItemSeo(item, fields, settings, {
    canonical: `${opts.canonical.origin}${itemPath(opts.canonical.base, item.slug)}`,
    home: `${opts.canonical.origin}/`,
    siteName,
    list: capture.showsList ? { name: capture.page.title || collection.name, url: `${opts.canonical.origin}${opts.canonical.base}` } : null,
  });
  return { seo, rich: richResultOf(item, mapping ?? mappingOf(collection.fields, fields, settings), seo) };
}

/** Streams the captured page with the gathered data injected. No database access happens here. */
export function renderDocument(html: string, data: PageData): Response {
  let rewriter = new HTMLRewriter().on(`[${SLOT_ATTR}]`, {
    element(el) {
      const inner = data.widgetHtml[Number(el.getAttribute(SLOT_ATTR))] ?? "";
      el.removeAttribute(SLOT_ATTR);
      el.setInnerContent(encodable(inner), { html: true });
      el.setAttribute(ATTR.rendered, "1");
    },
  });
  if (data.item) rewriter = bindItemScopes(rewriter, data.item, data.ctx, data.repeats);
  if (data.head !== null) rewriter = replaceHead(rewriter, encodable(data.head), data.pageJsonLd);
  if (data.locale) rewriter = localeHead(rewriter, data.locale);
  const headers = new Headers(PAGE_HEADERS);
  if (data.dependsOn) headers.set(DEPENDS_HEADER, data.dependsOn);
  if (data.status !== 200 || data.noindex) {
    headers.set("x-robots-tag", "noindex");
    // A not-found page must not outlive the publish that fills it.
    if (data.status !== 200) headers.set("cache-control", NO_STORE);
    rewriter = rewriter.on("head", {
      element(el) {
        el.append('<meta name="robots" content="noindex">', { html: true });
      },
    });
  }
  return rewriter.transform(new Response(html, { status: data.status, headers }));
}

function widgetItems(s: SiteContext, c: Collection, w: CompiledWidget, page: number, locale?: PageLocale | null): PublicItem[] {
  const params = new URLSearchParams(w.config.params);
  if (page > 1) params.set("page", String(page));
  if (locale && !locale.primary) params.set("locale", locale.code);
  try {
    return readPublishedPage(s, c, params).items;
  } catch (err) {
    // A widget whose attributes the API refuses renders as empty, as it would in the browser.
    log("widget_query_refused", { siteId: s.site()?.id, collection: c.slug, params: params.toString(), error: errorText(err) });
    return [];
  }
}

/** A widget's items; an item that cannot be rendered is left out (and logged), never the whole page. */
export function renderWidget(w: CompiledWidget, items: readonly BindableItem[], ctx: BindContext, where: RenderWhere = {}): string {
  if (items.length === 0) return w.empty ? renderEmptyState(w.empty) : "";
  if (!w.template) return "";
  let out = "";
  for (const item of items) {
    try {
      out += encodable(renderProgram(w.template, item, ctx));
    } catch (err) {
      renderFailed("list item", { ...where, itemId: item.id, itemSlug: item.slug }, err);
    }
  }
  return out;
}

/**
 * Item scopes are bound while the page streams. Elements inside a nested
 * list, search or related widget belong to that widget, as in the browser.
 */
function bindItemScopes(rewriter: HTMLRewriter, item: PublicItem, ctx: BindContext, repeats: CompiledPage["repeats"]): HTMLRewriter {
  // Inside a nested widget, or inside a scope for another item (another collection or
  // data-oc-slug), elements are not this page's item's: the browser renders those.
  let skipDepth = 0;
  const attr = (el: Element, name: string) => {
    const raw = el.getAttribute(name);
    return raw === null ? null : decodeEntities(raw);
  };
  const skipUntilEnd = (el: Element) => {
    if (VOID.has(el.tagName)) return;
    skipDepth++;
    el.onEndTag(() => {
      skipDepth--;
    });
  };
  // The number compile.ts gave the field element being bound (`repeats`: a gallery's template).
  let fieldAt = -1;
  const bind = (el: Element) => {
    try {
      const b = readBindings(
        [...el.attributes].map(([n]) => n as string),
        (name) => attr(el, name),
      );
      const repeat = el.hasAttribute(ATTR.field) ? repeats?.[String(fieldAt)] : undefined;
      if (b && !b.empty) applyOps(el, bindingOps(el.tagName, b, item, ctx), repeat, ctx);
    } catch (err) {
      // This element stays as captured; the rest of the page is bound.
      renderFailed("item binding", { itemId: item.id, itemSlug: item.slug, element: el.tagName }, err);
    }
  };
  let fieldCount = 0;
  return (
    rewriter
      // Counted as compile.ts counted them, and before the handlers below bind the same element.
      .on(`[${ATTR.item}] [${ATTR.field}]`, {
        element() {
          fieldAt = fieldCount++;
        },
      })
      .on(`[${ATTR.item}]`, {
        element(el) {
          const slug = attr(el, ATTR.slug);
          const ours = skipDepth === 0 && attr(el, ATTR.item)?.trim() === item.collection && (slug === null || slug === item.slug);
          if (!ours) return skipUntilEnd(el);
          bind(el);
          if (!el.removed) el.setAttribute(ATTR.rendered, "1");
        },
      })
      .on(`[${ATTR.item}] [${ATTR.search}], [${ATTR.item}] [${ATTR.related}], [${ATTR.item}] [${ATTR.list}]`, {
        element(el) {
          skipUntilEnd(el);
        },
      })
      .on(`[${ATTR.item}] *`, {
        element(el) {
          if (skipDepth === 0 && !el.hasAttribute(ATTR.item)) bind(el);
        },
      })
  );
}

/** Drops the captured page's own title, description, canonical, social and page JSON-LD tags, then appends the item's. */
function replaceHead(rewriter: HTMLRewriter, head: string, pageJsonLd: readonly number[]): HTMLRewriter {
  let ld = 0;
  let svgDepth = 0;
  const lower = (el: Element, name: string) => el.getAttribute(name)?.trim().toLowerCase() ?? "";
  return (
    rewriter
      // Any <title> of the document (a page without <head> has it loose), but not an SVG's.
      .on("svg", {
        element(el) {
          svgDepth++;
          el.onEndTag(() => {
            svgDepth--;
          });
        },
      })
      .on("title", {
        element(el) {
          if (svgDepth === 0) el.remove();
        },
      })
      .on("meta[name]", {
        element(el) {
          const name = lower(el, "name");
          if (name === "description" || name.startsWith("twitter:")) el.remove();
        },
      })
      .on("meta[property]", {
        element(el) {
          const p = lower(el, "property");
          if (p.startsWith("og:") || p.startsWith("article:") || p.startsWith("twitter:")) el.remove();
        },
      })
      .on("link[rel]", {
        element(el) {
          if (lower(el, "rel").split(/\s+/).includes("canonical")) el.remove();
        },
      })
      .on('script[type="application/ld+json"]', {
        element(el) {
          if (pageJsonLd.includes(ld++)) el.remove();
        },
      })
      .on("head", { element: (el) => void el.append(head, { html: true }) })
  );
}

/**
 * A page of a site with locales: `<html lang>`, the captured page's own alternates and
 * `og:locale` (and a list page's canonical) replaced by the page's, and in-page links into the
 * routed base sent to the page's locale.
 */
function localeHead(rewriter: HTMLRewriter, locale: NonNullable<PageData["locale"]>): HTMLRewriter {
  const lower = (el: Element, name: string) => el.getAttribute(name)?.trim().toLowerCase() ?? "";
  return rewriter
    .on("html", { element: (el) => void el.setAttribute("lang", locale.lang) })
    .on("link[rel]", {
      element(el) {
        const rel = lower(el, "rel").split(/\s+/);
        if ((rel.includes("alternate") && el.hasAttribute("hreflang")) || (locale.list && rel.includes("canonical"))) el.remove();
      },
    })
    .on("meta[property]", {
      element(el) {
        if (lower(el, "property").startsWith("og:locale")) el.remove();
      },
    })
    .on("a[href]", {
      element(el) {
        const href = el.getAttribute("href");
        const to = href === null ? null : locale.href(decodeEntities(href));
        if (to !== null) el.setAttribute("href", escapeAttr(to));
      },
    })
    .on("head", { element: (el) => void el.append(encodable(locale.head), { html: true }) });
}

function applyOps(el: Element, ops: readonly Op[], repeat: readonly ProgramNode[] | undefined, ctx: BindContext): void {
  for (const op of ops) {
    if (op.op === "remove") {
      el.remove();
      return;
    }
    // HTMLRewriter writes attribute values as given (it only escapes `"`), so they are escaped here.
    if (op.op === "set") el.setAttribute(op.name, escapeAttr(encodable(op.value)));
    else if (op.op === "unset") el.removeAttribute(op.name);
    else if (op.op === "text") el.setInnerContent(encodable(op.value));
    // The attribute's source text stays as written; the declaration added is digits and `%` only.
    else if (op.op === "style") el.setAttribute("style", withStyle(el.getAttribute("style"), op.property, op.value));
    else if (op.op === "repeat") {
      // The page's own content cannot be copied while it streams: its compiled copy is repeated.
      const html = repeat ? renderRepeat(repeat, op.items, ctx) : null;
      if (html !== null) el.setInnerContent(encodable(html), { html: true });
    } else el.setInnerContent(encodable(op.value), { html: true });
  }
}
