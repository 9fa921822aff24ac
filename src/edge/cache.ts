/**
 * The edge contract for public reads: cached per exact URL with the Cache
 * API, under a key that carries the site's cache version. A content change
 * bumps the version, so every old entry is unreachable at once, race free: a
 * read that started before the change can only ever store under the old key.
 */

export interface CacheOutcome {
  response: Response;
  hit: boolean;
}

export function versionedKey(request: Request, siteId: string, version: number): string {
  const url = new URL(request.url);
  const sep = url.search ? "&" : "?";
  return `${url.origin}${url.pathname}${url.search}${sep}__oc=${siteId}.${version}`;
}

export async function cachedRead(
  request: Request,
  ctx: ExecutionContext,
  key: string,
  origin: () => Promise<Response>,
): Promise<CacheOutcome> {
  const cache = caches.default;
  const hit = await cache.match(key);
  if (hit) return { response: conditional(request, hit, "HIT"), hit: true };

  const fresh = await origin();
  if (fresh.status !== 200) return { response: fresh, hit: false };
  const body = await fresh.arrayBuffer();
  const headers = new Headers(fresh.headers);
  headers.set("etag", await etagOf(body));
  const stored = new Response(body, { status: 200, headers });
  ctx.waitUntil(cache.put(key, stored.clone()));
  return { response: conditional(request, stored, "MISS"), hit: false };
}

/** A strong ETag: the SHA-256 of the exact bytes served. */
async function etagOf(body: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", body);
  const hex = [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `"${hex}"`;
}

function conditional(request: Request, response: Response, state: "HIT" | "MISS"): Response {
  const etag = response.headers.get("etag");
  const inm = request.headers.get("if-none-match");
  const headers = new Headers(response.headers);
  headers.set("x-cache", state);
  if (etag && inm && inm.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(response.body, { status: response.status, headers });
}
