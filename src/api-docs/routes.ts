/**
 * The API description, served: `/openapi.json` (the committed document, which
 * `npm run check` keeps equal to what the code generates) and `/docs`, the API
 * reference page (Swagger UI, bundled from npm by scripts/build.mjs).
 */
import { DOCS_ASSETS } from "../../dist/docs-assets";
import DOCUMENT from "../../openapi.json";
import { ApiError } from "../contract/errors";
import { STATIC_CACHE_CONTROL } from "../contract/cache-control";

const DOCUMENT_TEXT = JSON.stringify(DOCUMENT);

const INIT_SCRIPT = `SwaggerUIBundle({ url: "/openapi.json", dom_id: "#reference", deepLinking: true, validatorUrl: null, tryItOutEnabled: false });`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>open-content-edge API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
<style>body{margin:0}</style>
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>${INIT_SCRIPT}</script>
</body>
</html>
`;

export function openApiDocument(request: Request): Response {
  return staticAnswer(request, DOCUMENT_TEXT, "application/json; charset=utf-8", etagOf(DOCUMENT_TEXT));
}

let pagePolicy: Promise<string> | null = null;

/**
 * The reference page's Content-Security-Policy: scripts only from this origin plus the one
 * inline start-up script, named by its SHA-256 (the page is static and cached, so a hash
 * rather than a nonce). It shares the dashboard's origin: no other page may frame it.
 */
function referencePolicy(): Promise<string> {
  return (pagePolicy ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(INIT_SCRIPT)).then((d) => {
    const hash = btoa(String.fromCharCode(...new Uint8Array(d)));
    return [
      "default-src 'self'",
      `script-src 'self' 'sha256-${hash}'`,
      // Swagger UI sets inline styles on its elements.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join("; ");
  }));
}

export async function apiReference(request: Request, asset?: string): Promise<Response> {
  if (asset === undefined) {
    const page = staticAnswer(request, PAGE, "text/html; charset=utf-8", etagOf(PAGE));
    page.headers.set("content-security-policy", await referencePolicy());
    page.headers.set("x-frame-options", "DENY");
    return page;
  }
  const a = DOCS_ASSETS[asset];
  if (!a) throw new ApiError("not_found", "No such file.");
  return staticAnswer(request, a.body, a.type, a.etag);
}

function staticAnswer(request: Request, body: string, type: string, etag: string): Response {
  const headers = { "content-type": type, "cache-control": STATIC_CACHE_CONTROL, "access-control-allow-origin": "*", etag };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}

const etags = new Map<string, string>();
/** FNV-1a of the text, once per isolate: these change only with a deploy. */
function etagOf(text: string): string {
  let tag = etags.get(text);
  if (!tag) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    tag = `"d${text.length.toString(36)}-${(h >>> 0).toString(36)}"`;
    etags.set(text, tag);
  }
  return tag;
}
