/**
 * Server-side rendering endpoints of the site object: the dashboard's
 * capture configuration, the builder's webhook and the rendered pages.
 */
import { type IRequest, IttyRouter } from "itty-router";
import { ittyRouter, type Router } from "../../shared/router";
import { WEBHOOK_MAX_BYTES } from "../../../src/contract/limits";
import { ApiError } from "../../../src/contract/errors";
import { json, readJsonObject } from "../../../src/http/json";
import { readCapped } from "../../../src/http/read-capped";
import { parseBody } from "../../../src/http/validation";
import { randomHex, safeEqual } from "../../../src/ids";
import { entitlements, planRequired } from "../../../src/contract/plans";
import { parsePage } from "../../../src/shared/list-params";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { cancelJob, hasPendingJob, pendingJob, scheduleJob } from "../../shared/jobs";
import { basePathOfUrl, publicBase } from "../hostnames/public-base";
import { capture, nextNightly, presentCapture, refresh } from "../ssr/capture";
import { proxyKey } from "../../../src/limits/proxy-key";
import { type PageTarget, renderPage } from "../ssr/render";
import { contentTypeOf, isDocumentName, readDocument, SEO_DOCUMENTS_JOB } from "../seo/documents";
import { checkSignature, isPublishEvent, MAX_SKEW_MS, verifyDelivery } from "../ssr/webhook";
import { firstDelivery, rotateWebhookSecret, writeCaptureExtra } from "../ssr/capture-store";
import { checkRichResults, richResultsReport } from "../ssr/rich-results-report";
import { previewPage } from "../ssr/preview";
import { activeHostname } from "../hostnames/store";
import { currentRecords, presentHostname, providerOf, registerHostname, removeHostnames } from "../hostnames/service";
import { MOVED_CACHE_CONTROL, NO_STORE, PUBLIC_CACHE_CONTROL } from "../../../src/contract/cache-control";
import { goneWithin } from "../storage/slug-redirects-table";
import { movedItems, resolveRedirect } from "../storage/redirects-table";
import { DEPENDS_HEADER } from "../../../src/contract/headers";
import { itemPath } from "../../../src/shared/binding/rules";
import { localeOfPath, localePrefix, type PageLocale } from "../ssr/locale-pages";
import { slugInLocale } from "../storage/locales-table";

export const SSR_JOBS = { nightly: "ssr-nightly", webhook: "ssr-webhook" } as const;

export function ssrRoutes(s: SiteContext): Router<[SiteAccess]> {
  const requirePlan = () => {
    if (!entitlements(s.site()!.plan).features.serverRendering) {
      throw planRequired("serverRendering");
    }
  };
  // The webhook's secret signs the calls that refresh the template: only a caller who may change
  // the capture (seo.manage) is shown it. A Viewer or a read-only key sees everything else.
  // The custom hostname's answer, or null when the site has none (throws 501 without a provider).
  const hostnames = () => {
    const provider = providerOf(s);
    const { current, active } = currentRecords(s);
    if (!current) return null;
    return {
      customHostname: presentHostname(current, provider.cnameTarget),
      ...(active && active.hostname !== current.hostname ? { replacing: presentHostname(active, provider.cnameTarget) } : {}),
    };
  };
  const captured = () => {
    const c = s.capture();
    if (!c) throw new ApiError("not_found", "This site has no captured page yet; PUT /sites/:siteId/ssr/capture.");
    return c;
  };
  const present = (req: IRequest, access: SiteAccess) => {
    const c = captured();
    const next = pendingJob(s.sql, SSR_JOBS.nightly, "page")?.runAt ?? null;
    return presentCapture(s, c, new URL(req.url).origin, next, access.grant.permissions.has("seo.manage"));
  };

  return ittyRouter<[SiteAccess]>(
    IttyRouter({ base: "/sites/:siteId/ssr" })
      .put("/capture", async (req, access: SiteAccess) => {
        requirePlan();
        // The schemas (zod) load on the first write: the rendered pages this object also serves never evaluate them.
        const { captureSchema } = await import("../../../src/contract/ssr");
        const input = parseBody(captureSchema, await readJsonObject(req), "capture");
        const collection = s.collections().find((c) => c.slug === input.collection);
        if (!collection) throw new ApiError("bad_request", `No collection "${input.collection}" on this site.`, { path: "collection" });
        if (input.seo?.richResults) checkRichResults(collection.fields, input.seo.richResults);
        const { created } = await capture(
          s,
          {
            pageUrl: input.pageUrl,
            publicUrl: input.publicUrl ?? input.pageUrl,
            collectionId: collection.id,
            showsList: input.showsList ?? true,
            extra: { seo: input.seo, webhookSigningSecret: input.webhookSigningSecret },
          },
          collection.slug,
        );
        scheduleJob(s.storage, SSR_JOBS.nightly, "page", nextNightly(s.site()!.id));
        return json({ capture: present(req, access) }, created ? 201 : 200);
      })
      .get("/capture", (req, access: SiteAccess) => json({ capture: present(req, access) }))
      // "Is there one?" answered without an error: a screen asking it logs no failed request.
      .get("/capture/status", (req, access: SiteAccess) => json({ capture: s.capture() ? present(req, access) : null }))
      .delete("/capture", () => {
        if (!s.capture()) throw new ApiError("not_found", "This site has no captured page.");
        s.storage.transactionSync(() => {
          s.sql.exec("DELETE FROM ssr_capture");
          s.sql.exec("DELETE FROM ssr_page_parts");
          s.sql.exec("DELETE FROM seo_documents");
        });
        cancelJob(s.storage, SSR_JOBS.nightly, "page");
        cancelJob(s.storage, SSR_JOBS.webhook, "page");
        s.captureChanged();
        s.contentChanged();
        return json({ deleted: true });
      })
      .get("/rich-results", (req) => json({ richResults: richResultsReport(s, captured(), new URL(req.url).searchParams.get("item")) }))
      .put("/rich-results", async (req) => {
        requirePlan();
        const { richResultsSchema } = await import("../../../src/contract/ssr");
        const input = parseBody(richResultsSchema, await readJsonObject(req), "rich results");
        const c = captured();
        checkRichResults(s.collections().find((x) => x.id === c.collectionId)?.fields ?? [], input);
        // A choice of type alone (its fields proposed) keeps the expired-page setting as it was.
        const expiredNoindex = input.expiredNoindex ?? c.extra.seo?.richResults?.expiredNoindex;
        const richResults = { ...input, ...(expiredNoindex === undefined ? {} : { expiredNoindex }) };
        writeCaptureExtra(s.sql, { ...c.extra, seo: { ...c.extra.seo, richResults } });
        // Every item page's JSON-LD follows: the captured page's answers are renewed.
        s.captureChanged();
        s.contentChanged();
        return json({ richResults: richResultsReport(s, captured()) });
      })
      .post("/custom-hostname", async (req, access: SiteAccess) => {
        requirePlan();
        const { customHostnameSchema } = await import("../../../src/contract/hostname-input");
        const body = parseBody(customHostnameSchema, await readJsonObject(req), "custom hostname");
        const url = new URL(req.url);
        const { record, created } = await registerHostname(s, body.hostname, url.port, url.hostname);
        access.target = `domain ${record.hostname}`;
        return json({ customHostname: presentHostname(record, providerOf(s).cnameTarget) }, created ? 201 : 200);
      })
      .get("/custom-hostname", () => {
        const answer = hostnames();
        if (!answer) throw new ApiError("not_found", "This site has no custom hostname.");
        return json(answer);
      })
      // "Is there one?" is answered on a deployment without a provider too (`available: false`):
      // the Domains screen then shows the reverse-proxy way, and no failed request is logged.
      .get("/custom-hostname/status", () => {
        try {
          return json(hostnames() ?? { customHostname: null });
        } catch (err) {
          if (err instanceof ApiError && err.code === "not_configured") return json({ customHostname: null, available: false });
          throw err;
        }
      })
      .delete("/custom-hostname", async (_req, access: SiteAccess) => {
        const detached = await removeHostnames(s);
        if (!detached.length) throw new ApiError("not_found", "This site has no custom hostname.");
        access.target = `domain ${detached.join(", ")}`;
        return json({ detached });
      })
      // The key the customer's reverse proxy names each visitor with (src/limits/proxy-key.ts): seo.manage only.
      .get("/proxy-key", async () => {
        const key = await proxyKey(s.env, s.site()!.id);
        // AUTH_SECRET is a required secret (wrangler.toml [secrets]): only a broken deployment lacks it.
        if (!key) throw new ApiError("not_configured", "Set the AUTH_SECRET secret before proxy keys can be issued.");
        return json({ proxyKey: key });
      })
      .get("/preview", (req) => {
        requirePlan();
        return previewPage(s, req);
      })
      // A new webhook secret; the old URL form (secret in the path) stops working with the old secret.
      .post("/webhook-secret", (req, access: SiteAccess) => {
        requirePlan();
        if (!s.capture()) throw new ApiError("not_found", "Capture a page first.");
        rotateWebhookSecret(s.sql, randomHex(24));
        s.captureChanged();
        return json({ capture: present(req, access) });
      })
      .post("/refresh", async (req, access: SiteAccess) => {
        requirePlan();
        await refresh(s, "manual");
        return json({ capture: present(req, access) });
      }),
  );
}

/**
 * `POST /hooks/ssr/:siteId` (signed; `secret` null) or the old `/hooks/ssr/:siteId/:secret`
 * (only while the capture still accepts it): queue a refresh now; the alarm runs it.
 */
export async function webhook(s: SiteContext, request: Request, secret: string | null): Promise<Response> {
  const c = s.capture();
  if (!c) throw new ApiError("not_found", "Unknown webhook URL.");
  if (secret !== null && !(c.webhookLegacyUrl && safeEqual(secret, c.webhookSecret)))
    throw new ApiError("not_found", "Unknown webhook URL.");
  const body = request.body
    ? new TextDecoder().decode(
        await readCapped(request.body, WEBHOOK_MAX_BYTES, () => new ApiError("payload_too_large", "Webhook bodies are limited to 1 MB.")),
      )
    : "";
  let signature: "valid" | "unsigned";
  if (secret === null) {
    const delivery = await verifyDelivery(request.headers, body, c.webhookSecret, c.extra.webhookSigningSecret);
    if (!delivery.ok) throw new ApiError("unauthorized", `The webhook call is refused: ${delivery.reason}.`);
    // A captured delivery replayed within its 5 minutes is acknowledged and does nothing.
    if (!firstDelivery(s.sql, delivery.id, Date.now(), 2 * MAX_SKEW_MS))
      return json({ refresh: "ignored", reason: "duplicate delivery" }, 200);
    signature = "valid";
  } else {
    const checked = await checkSignature(request.headers, body, c.extra.webhookSigningSecret);
    if (checked === "invalid") throw new ApiError("unauthorized", "The webhook signature does not match the signing secret.");
    signature = checked;
  }
  if (!isPublishEvent(body)) return json({ refresh: "ignored", reason: "not a site publish event" }, 200);
  scheduleJob(s.storage, SSR_JOBS.webhook, "page", Date.now());
  return json({ refresh: "queued", signature }, 202);
}

/**
 * A rendered page. Through the customer's proxy (`hostname` null) the routed
 * base is the path of the captured public URL; on an active custom hostname
 * the whole hostname is the site's, with `/robots.txt` added.
 */
export function renderRoute(s: SiteContext, request: Request, hostname: string | null): Response {
  const c = s.capture();
  if (!c) throw new ApiError("not_found", "This site has no captured page to render yet.");
  const url = new URL(request.url);
  let base = basePathOfUrl(c.publicUrl);
  if (hostname !== null) {
    if (activeHostname(s.sql)?.hostname !== hostname) throw new ApiError("not_found", `${hostname} is not connected to a site.`);
    base = "/";
    if (url.pathname === "/robots.txt") return robots(hostname);
  }
  const path = url.pathname;
  // The owner's rules and the old slugs of renamed items, before any page: one hop to where the chain ends.
  const sent = resolveRedirect(s.sql, path, movedItems(s.sql, c.collectionId, base));
  if (sent)
    return redirect(sent.location.includes("?") ? sent.location : `${sent.location}${url.search}`, MOVED_CACHE_CONTROL, sent.status);
  // On a site with locales a secondary's pages live under its prefix (`/fr/blog/`).
  const routed = localeOfPath(s.locales(), path, base);
  if (routed) base = routed.base;
  if (path === base.slice(0, -1) && base !== "/") return redirect(`${base}${url.search}`);
  if (!path.startsWith(base)) {
    // `/FR/blog/…`: the prefix in another case is the same locale's page.
    if (routed && path.toLowerCase().startsWith(base)) return redirect(`${base}${path.slice(base.length)}${url.search}`);
    throw new ApiError("not_found", `This site's pages live under ${base}.`);
  }
  const rest = path.slice(base.length);
  let target: PageTarget;
  if (rest === "") target = { kind: "list", page: parsePage(url.searchParams.get("page")) };
  else if (isDocumentName(rest)) {
    if (!routed || routed.locale.primary) return documentResponse(s, rest);
    // One sitemap names every locale's pages; each secondary has feeds of its own.
    if (rest.startsWith("sitemap")) return redirect(`${routed.locale.bases.get(routed.locale.primaryCode)!}${rest}`);
    return documentResponse(s, `${localePrefix(routed.locale.code).slice(1)}/${rest}`);
  } else if (/^[^/]+\/$/.test(rest)) return redirect(`${base}${rest.slice(0, -1)}${url.search}`);
  else if (!rest.includes("/")) target = { kind: "item", slug: safeDecode(rest) };
  else throw new ApiError("not_found", "No such page.");
  const home = publicBase(s, c);
  const page = renderPage(s, c, target, {
    base,
    canonical: routed ? { origin: home.origin, base: localeBaseOf(routed.locale, home.base) } : home,
    sayDependency: request.headers.has(DEPENDS_HEADER),
    locale: routed?.locale ?? null,
  });
  if (page.status !== 404 || target.kind !== "item") return page;
  // A secondary's page asked for by the item's own slug (a link of the template): its slug there.
  if (routed && !routed.locale.primary) {
    const slug = translatedSlugOf(s, c.collectionId, routed.locale.code, target.slug);
    if (slug !== null) return redirect(`${itemPath(base, slug)}${url.search}`, MOVED_CACHE_CONTROL);
  }
  // A removed item's page says so for as long as the owner chose: crawlers drop it sooner.
  const days = c.extra.seo?.goneDays ?? 0;
  return days > 0 && goneWithin(s.sql, c.collectionId, target.slug, days)
    ? new Response(page.body, { status: 410, headers: page.headers })
    : page;
}

/** A locale's base under the public base (the primary's is the public base itself). */
function localeBaseOf(locale: PageLocale, publicBasePath: string): string {
  return locale.primary ? publicBasePath : `${localePrefix(locale.code)}${publicBasePath}`;
}

/**
 * The slug in `code` of the published item whose own slug is `slug`, or whose translation there
 * had `slug` before it was renamed; null: neither.
 */
function translatedSlugOf(s: SiteContext, collectionId: string, code: string, slug: string): string | null {
  const locale = s.locales().byCode.get(code);
  if (!locale) return null;
  return slugInLocale(s.sql, collectionId, locale.id, slug);
}

function robots(hostname: string): Response {
  const body = `User-agent: *\nAllow: /\n\nSitemap: https://${hostname}/sitemap.xml\n`;
  return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": PUBLIC_CACHE_CONTROL } });
}

/** sitemap.xml, its parts, rss.xml and feed.json: served as stored, never built per request. */
function documentResponse(s: SiteContext, name: string): Response {
  const body = readDocument(s.sql, name);
  if (body === null) throw new ApiError("not_found", `No ${name} for this site.`);
  // While a rebuild is queued the stored copy is about to change: serve it, but let no cache keep it.
  const rebuilding = hasPendingJob(s.sql, SEO_DOCUMENTS_JOB);
  return new Response(body, {
    headers: { "content-type": contentTypeOf(name), "cache-control": rebuilding ? NO_STORE : PUBLIC_CACHE_CONTROL },
  });
}

/** 301 to `location`; the canonical forms of a path never change, so browsers keep them an hour. */
function redirect(location: string, cacheControl = "public, max-age=3600", status: 301 | 302 = 301): Response {
  return new Response(null, { status, headers: { location, "cache-control": cacheControl } });
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
