/**
 * `GET /sites/:siteId/ssr/preview[?item=<id>][&page=N]`: the rendered page as a crawler would
 * receive it, for the dashboard's preview, drafts included. It lives under the dashboard API, so
 * only the owner's key or session reaches it; it is never cached, never indexed and never framed
 * by another origin, and nothing about the item changes.
 */
import { ApiError } from "../../../src/contract/errors";
import { parsePage } from "../../../src/shared/list-params";
import { escapeAttr } from "../../../src/shared/escape";
import type { SiteContext } from "../context";
import { basePathOfUrl, publicBase } from "../hostnames/public-base";
import { type PageTarget, renderPage } from "./render";
import type { StoredCapture } from "./capture-store";
import { NO_STORE } from "../../../src/contract/cache-control";

export function previewPage(s: SiteContext, request: Request): Response {
  const c = s.capture();
  if (!c) throw new ApiError("not_found", "This site has no captured page to preview yet.");
  const url = new URL(request.url);
  const itemId = url.searchParams.get("item");
  const response = renderedPreview(
    s,
    c,
    itemId ? { kind: "item", slug: "", previewId: itemId } : { kind: "list", page: parsePage(url.searchParams.get("page")) },
    // The dashboard reads this page's head to show what crawlers will see of the live page: a
    // robots meta of ours would be reported as the page's own (X-Robots-Tag keeps it unindexed).
    false,
  );
  const headers = new Headers(response.headers);
  headers.set("cache-control", NO_STORE);
  headers.set("x-robots-tag", "noindex");
  headers.set("content-security-policy", "sandbox; frame-ancestors 'self'");
  headers.set("x-frame-options", "SAMEORIGIN");
  headers.set("referrer-policy", "same-origin");
  return withoutScripts().transform(new Response(response.body, { status: response.status, headers }));
}

/**
 * The dashboard shows this page in a frame sandboxed without scripts, where Chromium refuses every
 * script and inline event handler and reports each refusal in the dashboard's console. They never
 * run there, so they are left out before they are sent. A data block (JSON-LD and any other type
 * that is not a script language) stays: the dashboard reads it, and crawlers do.
 */
const withoutScripts = () =>
  new HTMLRewriter()
    .on("script", {
      element(el) {
        if (runs(el.getAttribute("type"))) el.remove();
      },
    })
    .on("*", {
      element(el) {
        // Collected first: removing while iterating the attributes would skip some.
        const handlers: string[] = [];
        for (const [name] of el.attributes) if (name?.toLowerCase().startsWith("on")) handlers.push(name);
        for (const name of handlers) el.removeAttribute(name);
      },
    });

/** Whether a script of this `type` would be run by a browser (HTML's list: empty, a JavaScript MIME type, module, importmap, speculationrules). */
function runs(type: string | null): boolean {
  const t = (type ?? "").trim().toLowerCase();
  return (
    t === "" ||
    t === "module" ||
    t === "importmap" ||
    t === "speculationrules" ||
    /^(?:text|application)\/(?:x-)?(?:java|ecma|j|live)script/.test(t)
  );
}

/**
 * The page rendered in the captured template, drafts and pending changes included, with a
 * `<base href>` of the captured page and, with `noindexMeta`, `<meta name="robots" content="noindex">`
 * in its head (share links; the dashboard's crawler preview leaves it out, see previewPage).
 * The caller sets the headers (the dashboard's preview and share links differ in framing).
 */
export function renderedPreview(s: SiteContext, c: StoredCapture, target: PageTarget, noindexMeta = true): Response {
  const rendered = renderPage(s, c, target, { base: basePathOfUrl(c.publicUrl), canonical: publicBase(s, c) });
  // Relative links of the captured page resolve against the page itself, as on the live site.
  const withBase = new HTMLRewriter().on("head", {
    element(el) {
      const robots = noindexMeta ? `<meta name="robots" content="noindex">` : "";
      el.prepend(`${robots}<base href="${escapeAttr(c.pageUrl)}">`, { html: true });
    },
  });
  return withBase.transform(rendered);
}
