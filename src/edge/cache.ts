/**
 * The edge contract for public reads: cached per exact URL with the Cache
 * API, under a key that carries the site's cache version. A content change
 * bumps the version, so every old entry is unreachable at once, race free: a
 * read that started before the change can only ever store under the old key.
 */
import { parsePage } from "../shared/list-params";

/** The stored copy lives until its versioned key is retired (a change makes it unreachable). */
const EDGE_CACHE_CONTROL = "public, s-maxage=31536000";
/**
 * What clients and any cache outside ours are told: keep it, but revalidate
 * every time (a cheap 304 by ETag), because only our versioned keys know when
 * a page or an answer has changed.
 */
export const CLIENT_CACHE_CONTROL = "public, max-age=0, must-revalidate";

export interface CacheOutcome {
  response: Response;
  hit: boolean;
}

export function versionedKey(request: Request, siteId: string, version: number): string {
  const url = new URL(request.url);
  const sep = url.search ? "&" : "?";
  return `${url.origin}${url.pathname}${url.search}${sep}__oc=${siteId}.${version}`;
}

/**
 * The cache key of a rendered page: its site, where it was asked for (`scope`: "" through the
 * customer's proxy, `/host/<hostname>` on a custom hostname), its path and page number, and the
 * site's cache version. Only `page` of the query string matters, so tracking tags share an entry.
 */
export function renderKey(siteId: string, version: number, scope: string, url: URL): string {
  const page = parsePage(url.searchParams.get("page"));
  return `https://render.invalid/${siteId}${scope}${url.pathname}?${page > 1 ? `page=${page}&` : ""}__oc=${siteId}.${version}`;
}

interface HotEntry {
  body: ArrayBuffer;
  headers: [string, string][];
}

// A small per-isolate tier in front of the Cache API, under the same versioned
// keys: a repeat read skips the cache round trip. Bounded in bytes; oldest out first.
const HOT_MAX_BYTES = 8 * 1024 * 1024;
const HOT_MAX_ENTRY = 256 * 1024;
const hot = new Map<string, HotEntry>();
let hotBytes = 0;

function hotGet(key: string): Response | null {
  const e = hot.get(key);
  if (!e) return null;
  hot.delete(key);
  hot.set(key, e);
  return new Response(e.body, { status: 200, headers: e.headers });
}

function hotPut(key: string, body: ArrayBuffer, headers: Headers): void {
  if (body.byteLength > HOT_MAX_ENTRY || hot.has(key)) return;
  hot.set(key, { body, headers: [...headers] });
  hotBytes += body.byteLength;
  for (const [k, e] of hot) {
    if (hotBytes <= HOT_MAX_BYTES) break;
    hot.delete(k);
    hotBytes -= e.body.byteLength;
  }
}

async function cachedHit(request: Request, key: string): Promise<CacheOutcome | null> {
  const memory = hotGet(key);
  if (memory) return { response: conditional(request, memory, "HIT"), hit: true };
  const hit = await caches.default.match(key);
  if (!hit) return null;
  const body = await hit.arrayBuffer();
  hotPut(key, body, hit.headers);
  return { response: conditional(request, new Response(body, hit), "HIT"), hit: true };
}

export async function cachedRead(
  request: Request,
  ctx: ExecutionContext,
  key: string,
  origin: () => Promise<Response>,
): Promise<CacheOutcome> {
  const hit = await cachedHit(request, key);
  if (hit) return hit;
  const fresh = await origin();
  if (!storable(fresh)) return { response: fresh, hit: false };
  const body = await fresh.arrayBuffer();
  const headers = copyHeaders(fresh, await etagOf(body));
  ctx.waitUntil(keep(key, body, headers));
  return { response: conditional(request, new Response(body, { status: 200, headers }), "MISS"), hit: false };
}

/**
 * Like `cachedRead`, but a miss streams to the client while a copy is stored:
 * rendered pages start arriving before they are fully built. The ETag cannot
 * wait for the body, so it is derived from the versioned key (one version of
 * a page is always the same bytes).
 */
export async function cachedStream(
  request: Request,
  ctx: ExecutionContext,
  key: string,
  origin: () => Promise<Response>,
): Promise<CacheOutcome> {
  const hit = await cachedHit(request, key);
  if (hit) return hit;
  const fresh = await origin();
  if (!storable(fresh) || !fresh.body) return { response: fresh, hit: false };
  const headers = copyHeaders(fresh, `"p${(await etagOf(new TextEncoder().encode(key).buffer as ArrayBuffer)).slice(1, -1)}"`);
  const [toClient, toCache] = fresh.body.tee();
  ctx.waitUntil(new Response(toCache).arrayBuffer().then((body) => keep(key, body, headers)));
  return { response: conditional(request, new Response(toClient, { status: 200, headers }), "MISS"), hit: false };
}

/** Only a 200 is kept, and not when the origin says it must not be (a document about to be rebuilt). */
function storable(response: Response): boolean {
  return response.status === 200 && !/\bno-store\b/i.test(response.headers.get("cache-control") ?? "");
}

/** The stored copy's headers: the origin's, with our ETag and the edge lifetime. */
function copyHeaders(fresh: Response, etag: string): Headers {
  const headers = new Headers(fresh.headers);
  headers.set("etag", etag);
  headers.set("cache-control", EDGE_CACHE_CONTROL);
  return headers;
}

/** Both tiers: this isolate's memory at once; the Cache API's write is the caller's to wait for. */
function keep(key: string, body: ArrayBuffer, headers: Headers): Promise<void> {
  hotPut(key, body, headers);
  return caches.default.put(key, new Response(body, { status: 200, headers }));
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
  headers.set("cache-control", CLIENT_CACHE_CONTROL);
  if (etag && inm && inm.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(response.body, { status: response.status, headers });
}
