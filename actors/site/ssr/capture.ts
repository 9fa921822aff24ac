/**
 * Capture and refresh: fetch the customer's page, compile it, check it
 * carries what rendering needs, store it. A failure never touches the last
 * good template; it is recorded and reported.
 */
import { addresses } from "../../../src/net/doh";
import { ApiError } from "../../../src/contract/errors";
import { randomHex } from "../../../src/ids";
import type { SiteContext } from "../context";
import {
  type CaptureConfig,
  type RefreshResult,
  type StoredCapture,
  recordRefresh,
  writeCapture,
  writeRefreshedPage,
} from "./capture-store";
import { type CompiledPage, TemplateError, compilePage } from "./compile";
import { FETCH_LIMITS, FetchPageError, type FetchLimits, fetchPage } from "./fetch-page";
import { regenerateDocuments } from "../seo/documents";
import { log, errorText } from "../../../src/log";
import { basePathOfUrl } from "../hostnames/public-base";
import { buildListQuery } from "../reads/list-query";
import type { Collection } from "../storage/rows";

export function allowsPrivateFetch(env: Env): boolean {
  return env.SSR_ALLOW_PRIVATE_FETCH === "true";
}

/** The capture fetch's limits; SSR_FETCH_TIMEOUT_MS shortens the deadline (the tests' slow pages). */
function fetchLimits(env: Env): FetchLimits {
  const ms = Number(env.SSR_FETCH_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? { ...FETCH_LIMITS, timeoutMs: ms } : FETCH_LIMITS;
}

async function fetchAndCompile(s: SiteContext, pageUrl: string, collectionSlug: string): Promise<CompiledPage> {
  try {
    const fetched = await fetchPage(pageUrl, allowsPrivateFetch(s.env), fetchLimits(s.env), (host) => addresses(s.env, host));
    const page = await compilePage(fetched.html);
    checkPage(page, collectionSlug, s.site()!.token);
    return page;
  } catch (err) {
    if (err instanceof FetchPageError)
      throw new ApiError("capture_failed", `Cannot capture: ${err.message}.`, { reason: err.reason, pageUrl });
    if (err instanceof TemplateError)
      throw new ApiError("capture_failed", `Cannot capture: ${err.message}.`, { reason: "bad_template", pageUrl });
    throw err;
  }
}

function checkPage(page: CompiledPage, collection: string, token: string): void {
  const widgets = page.widgets.filter((w) => w.config.collection === collection);
  if (widgets.length === 0) {
    const found = page.widgets.map((w) => `"${w.config.collection}"`).join(", ");
    throw new TemplateError(`the page has no data-oc-list="${collection}" widget${found ? ` (it has ${found})` : ""}`);
  }
  if (!widgets.some((w) => w.template))
    throw new TemplateError(`the data-oc-list="${collection}" widget has no element child to use as the item template`);
  if (page.embedTokens.length === 0) {
    throw new TemplateError('the page does not include the embed script (<script src="…/embed.js" data-oc-token="…" defer>)');
  }
  if (!page.embedTokens.includes(token)) throw new TemplateError("the embed script on the page carries another site's token");
}

export async function capture(s: SiteContext, config: CaptureConfig, collectionSlug: string): Promise<{ created: boolean }> {
  const page = await fetchAndCompile(s, config.pageUrl, collectionSlug);
  const previous = s.capture();
  writeCapture(
    s.storage,
    config,
    page,
    previous?.webhookSecret ?? randomHex(24),
    new Date().toISOString(),
    previous?.webhookLegacyUrl ?? false,
  );
  s.captureChanged();
  // A new capture has its sitemap and feeds before the call returns.
  s.documentsBuilt(regenerateDocuments(s));
  s.cacheChanged();
  return { created: previous === null };
}

export async function refresh(s: SiteContext, trigger: RefreshResult["trigger"]): Promise<RefreshResult> {
  const before = s.capture();
  if (!before) throw new ApiError("not_found", "This site has no captured page; PUT /ssr/capture first.");
  const at = new Date().toISOString();
  const collection = s.collections().find((c) => c.id === before.collectionId);
  try {
    if (!collection)
      throw new ApiError("capture_failed", "The captured collection no longer exists; capture the page again.", {
        reason: "collection_deleted",
      });
    const page = await fetchAndCompile(s, before.pageUrl, collection.slug);
    const current = s.capture();
    // A new capture landed while this page was being fetched: it wins.
    if (current?.capturedAt !== before.capturedAt) return current?.lastRefresh ?? { at, ok: true, trigger };
    const result: RefreshResult = { at, ok: true, trigger };
    // Compared as stored: the compiled page without its HTML, which is kept in parts.
    const { html, ...compiled } = page;
    const unchanged = html === current.html && JSON.stringify(compiled) === JSON.stringify(current.page);
    writeRefreshedPage(s.storage, page, result);
    s.captureChanged();
    if (!unchanged) s.contentChanged();
    return result;
  } catch (err) {
    const message = err instanceof ApiError ? err.message : "internal error while refreshing";
    if (!(err instanceof ApiError)) log("capture_refresh_failed", { siteId: s.site()?.id, trigger, error: errorText(err) });
    recordRefresh(s.sql, { at, ok: false, trigger, error: message });
    s.captureChanged();
    throw err;
  }
}

export interface CaptureWarning {
  /** The widget as written in the page: `data-oc-list="<slug>"`. */
  widget: string;
  /** The field the widget sorts or filters by, when the warning is about one. */
  field?: string;
  message: string;
}

const ATTR_OF_PARAM = /^filter\[([^\]]*)\](?:\[([^\]]*)\])?$/;

/** A content API parameter as the widget attribute it was read from (see list-config.ts). */
function attributeOf(param: string, value: string): string {
  const f = ATTR_OF_PARAM.exec(param);
  const name = f ? `data-oc-filter-${f[1]}${f[2] ? `-${f[2]}` : ""}` : `data-oc-${param}`;
  return `${name}="${value}"`;
}

/**
 * The list widgets of a captured page that render no items as they are written: a collection the
 * site does not have, or a sort or filter the content API refuses (a field that is not indexed, or
 * no field at all). The renderer shows such a widget empty, as the embed script would; the capture
 * is still stored. Checked against the collections as they are now, so a fix shows at once.
 */
export function widgetWarnings(
  widgets: readonly { config: { collection: string; params: [string, string][] } }[],
  all: readonly Collection[],
) {
  const warnings: CaptureWarning[] = [];
  const seen = new Set<string>();
  for (const { config } of widgets) {
    const widget = `data-oc-list="${config.collection}"`;
    const c = all.find((x) => x.slug === config.collection);
    if (!c) {
      if (seen.has(widget)) continue;
      seen.add(widget);
      const slugs = all.map((x) => x.slug).join(", ");
      warnings.push({
        widget,
        message: `The list widget ${widget} names a collection this site does not have, so it shows no items. Change data-oc-list to one of your collections (${slugs || "none yet"}), or create a collection "${config.collection}", then capture again.`,
      });
      continue;
    }
    for (const [param, value] of config.params) {
      try {
        buildListQuery(new URLSearchParams([[param, value]]), c, all);
      } catch (err) {
        if (!(err instanceof ApiError)) continue;
        const attribute = attributeOf(param, value);
        if (seen.has(`${widget} ${attribute}`)) continue;
        seen.add(`${widget} ${attribute}`);
        const details = (err.details ?? {}) as { field?: unknown; suggestion?: unknown };
        const field = typeof details.field === "string" ? details.field : undefined;
        const uses = param === "sort" ? `sorts by "${field}"` : `filters on "${field}"`;
        const change = param === "sort" ? "change the sort" : "remove the filter";
        const known = field ? c.fields.find((f) => f.key === field) : undefined;
        let message: string;
        if (field && known && !known.indexed) {
          message = `The list widget ${widget} ${uses} (${attribute}), but "${field}" is not marked “can be sorted, filtered and searched” in ${c.name}, so the list shows no items. In Collections, edit ${c.name} and mark "${field}" “can be sorted, filtered and searched”, or ${change} in the page and capture again.`;
        } else if (field && !known) {
          const closest = typeof details.suggestion === "string" ? ` (did you mean "${details.suggestion}"?)` : "";
          message = `The list widget ${widget} ${uses} (${attribute}), but ${c.name} has no field "${field}"${closest}, so the list shows no items. Use a field of ${c.name} that can be sorted, filtered and searched, or ${change}, in the page and capture again.`;
        } else {
          message = `The list widget ${widget} has an attribute the content API refuses (${attribute}), so the list shows no items: ${err.message}`;
        }
        warnings.push({ widget, ...(field ? { field } : {}), message });
      }
    }
  }
  return warnings;
}

/** The webhook secret as Standard Webhooks writes it: `whsec_` and the base64 of the key's bytes. */
export const standardSecret = (secret: string): string => `whsec_${btoa(secret)}`;

/** The capture as the dashboard shows it. */
export function presentCapture(s: SiteContext, c: StoredCapture, origin: string, nextRefreshAt: number | null, withSecret: boolean) {
  return {
    pageUrl: c.pageUrl,
    publicUrl: c.publicUrl,
    basePath: basePathOfUrl(c.publicUrl),
    collection: s.collections().find((x) => x.id === c.collectionId)?.slug ?? null,
    showsList: c.showsList,
    seo: c.extra.seo ?? {},
    webhookSigning: c.extra.webhookSigningSecret ? "configured" : "off",
    capturedAt: c.capturedAt,
    refreshedAt: c.refreshedAt,
    lastRefresh: c.lastRefresh,
    nextRefreshAt: nextRefreshAt === null ? null : new Date(nextRefreshAt).toISOString(),
    // The secret stays out of the URL (logs keep URLs); hooks made before keep their old URL until a rotation.
    webhookUrl:
      c.webhookLegacyUrl && withSecret ? `${origin}/hooks/ssr/${s.site()!.id}/${c.webhookSecret}` : `${origin}/hooks/ssr/${s.site()!.id}`,
    ...(withSecret ? { webhookSecret: standardSecret(c.webhookSecret) } : {}),
    webhookLegacyUrl: c.webhookLegacyUrl,
    documents: {
      paths: ["sitemap.xml", "rss.xml", "feed.json"].map((n) => `${basePathOfUrl(c.publicUrl)}${n}`),
      lastBuild: s.documents(),
    },
    warnings: widgetWarnings(c.page.widgets, s.collections()),
    page: {
      title: c.page.title,
      description: c.page.description,
      widgets: c.page.widgets.map((w) => ({ collection: w.config.collection, query: Object.fromEntries(w.config.params) })),
      itemScopes: c.page.hasItemScope,
    },
  };
}

/** The routed base path of a public URL: its path up to and including the last `/`, or the path plus `/`. */
/** Tonight's refresh: 03:00 UTC plus a per-site offset within the hour, so sites do not all fetch at once. */
export function nextNightly(siteId: string, now = Date.now()): number {
  let h = 0;
  for (const ch of siteId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const day = new Date(now);
  const at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 3, 0, 0) + (h % 3600) * 1000;
  return at > now ? at : at + 24 * 3600 * 1000;
}
