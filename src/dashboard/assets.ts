/**
 * The dashboard's built files (dashboard/ → dist/public/dashboard, Workers Static Assets),
 * served only on the service's own hosts with headers that keep the page from being
 * framed, from running injected scripts, or from leaking its URLs.
 */
const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Item images live on the customer's own hosts.
    "img-src 'self' https: http: data: blob:",
    "media-src 'self' https: http:",
    "connect-src 'self'",
    "font-src 'self'",
    "frame-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; "),
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
};

export async function dashboardAsset(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/dashboard") return Response.redirect(`${url.origin}/dashboard/`, 301);
  const asset = await env.ASSETS.fetch(request);
  const response = new Response(asset.body, asset);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) response.headers.set(k, v);
  // Bundles carry a content hash in their names; the page itself must always be revalidated.
  const hashed = /-[A-Z0-9]{8}\.(?:js|css)$/.test(url.pathname);
  response.headers.set("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
  return response;
}
