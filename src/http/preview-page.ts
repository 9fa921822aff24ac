/**
 * The headers and the plain HTML shell of share-link pages (`/p/:token`), for the front Worker and
 * the site object alike. A page shows what its token opens, so nothing may keep, index, frame or refer it on:
 * `private, no-store`, `noindex` (header and meta), `no-referrer`, no framing.
 */
import { PREVIEW_CACHE_CONTROL } from "../contract/cache-control";
import { escapeHtml } from "../shared/escape";

/** Where a share link is made to point: its token follows a `#`, so no request ever carries it. */
export const SHARE_OPENER_PATH = "/p/";
/** Where the page at SHARE_OPENER_PATH posts the token (a form body: never in a URL or a header). */
export const SHARE_OPEN_PATH = "/p/open";

/** The plain pages' policy: no script at all, inline styles, the item's images from wherever they live, forms back here. */
export const PLAIN_PAGE_CSP = "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

export function previewHeaders(csp: string = PLAIN_PAGE_CSP, contentType = "text/html; charset=utf-8"): Headers {
  return new Headers({
    "content-type": contentType,
    "cache-control": PREVIEW_CACHE_CONTROL,
    "x-robots-tag": "noindex",
    "referrer-policy": "no-referrer",
    "content-security-policy": csp,
    "x-frame-options": "DENY",
  });
}

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}" +
  "h1{line-height:1.2}.note{background:#fff6d6;border:1px solid #e0c96b;padding:.5rem .75rem;border-radius:4px}" +
  "img{max-width:100%;height:auto}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;padding:.75rem;overflow:auto}" +
  "dt{font-weight:600;margin-top:1rem}label{display:block;margin:.5rem 0 .25rem}" +
  "input,button{font:inherit;padding:.35rem .6rem}button{margin-top:.5rem}";

// The dashboard's mark, inline (the page's CSP allows data: images): no favicon request, no 404.
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath d='M8 1l7 7-7 7-7-7z' fill='%234f46e5'/%3E%3C/svg%3E";

/** A whole plain page: `title` is text (escaped here), `body` is HTML the caller built with escaping. */
export function plainPage(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><link rel="icon" href="${ICON}"><style>${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}
