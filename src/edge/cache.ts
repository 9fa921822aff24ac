/**
 * The edge contract for public reads: cached per exact URL with the Cache
 * API, under a key that carries the site's cache version. A content change
 * bumps the version, so every old entry is unreachable at once, race free: a
 * read that started before the change can only ever store under the old key.
 *
 * After a change every URL of a site misses at once, so misses are shared: per
 * isolate, one read per versioned key goes to the Cache API and the site
 * object, and concurrent requests for that key wait for it, or answer from the
 * previous version while it is still within the freshness bound (STALE_MS).
 * When the change was made elsewhere (learned when the site memo expired), even
 * the first request answers from the previous version and the read runs in the
 * background.
 */
import { ApiError } from "../contract/errors";
import { CACHE_VERSION_HEADER, CHANGES_HEADER, DEPENDS_HEADER, DEPENDS_ON_LIST, REVALIDATE_HEADER } from "../contract/headers";
import { parsePage } from "../shared/list-params";
import { type DependsOn, hotGet, hotLatest, hotPut, hotRevalidate } from "./hot-tier";
import { listUntouched, type SiteMeta, untouched } from "./site-meta";
import { PUBLIC_CACHE_CONTROL, CLIENT_CACHE_CONTROL } from "../contract/cache-control";
import { log, errorText } from "../log";
import { bodyEtag, sha256Hex32 } from "../http/etag";
import { Buffer } from "node:buffer";

/** The stored copy lives until its versioned key is retired (a change makes it unreachable). */
/**
 * What clients and any cache outside ours are told: keep it, but revalidate
 * every time (a cheap 304 by ETag), because only our versioned keys know when
 * a page or an answer has changed.
 */

export interface CacheOutcome {
  response: Response;
  hit: boolean;
}

/** A cached answer's address: its URL without the version, and the site version it is wanted at. */
export interface CacheKey {
  base: string;
  siteId: string;
  version: number;
  /** A previous version whose answer may be served while this one is fetched, until `until`. */
  previous?: SiteMeta["previous"];
}

/** The Cache API key: the URL plus `__oc=<siteId>.<version>`. */
export function versioned(key: CacheKey, version = key.version): string {
  return `${key.base}${key.base.includes("?") ? "&" : "?"}__oc=${key.siteId}.${version}`;
}

/**
 * The cache key of a rendered page: its site, where it was asked for (`scope`: "" through the
 * customer's proxy, `/host/<hostname>` on a custom hostname), its path and page number, and the
 * site's cache version. Only `page` of the query string matters, so tracking tags share an entry.
 */
export function renderKey(meta: SiteMeta, scope: string, url: URL): CacheKey {
  const page = parsePage(url.searchParams.get("page"));
  const base = `https://render.invalid/${meta.siteId}${scope}${url.pathname}${page > 1 ? `?page=${page}` : ""}`;
  return { base, siteId: meta.siteId, version: meta.version, previous: meta.previous };
}

/** One origin read, as every request that waited for it sees it. */
interface Loaded {
  status: number;
  headers: Headers;
  body: ArrayBuffer;
  /** Whether it is a cacheable answer (200, not no-store) with our headers. */
  stored: boolean;
}

// Versioned key → the one read in flight for it in this isolate. An entry lives only while its read runs.
const inflight = new Map<string, Promise<Loaded | null>>();

/** How long a request waits for another request's read before it reads for itself. */
const WAIT_MS = 10_000;

export function inflightSize(): number {
  return inflight.size;
}

/**
 * How a stored answer's ETag is made: the SHA-256 of its bytes, of its versioned key, or the
 * origin's own (the site object hashes list and item answers once per version, and can then say
 * "unchanged" to a revalidation, see `lead`).
 */
export type EtagSource = "body" | "key" | "origin";

/** The origin read; `headers` are ours for the site object (a revalidation's validator). */
export type Origin = (headers?: Record<string, string>) => Promise<Response>;

/**
 * A buffered read. `etag: "key"` is for answers that one version of the site always
 * gives byte for byte (lists and items): hashing the short key instead of the body.
 */
export function cachedRead(
  request: Request,
  ctx: ExecutionContext,
  key: CacheKey,
  origin: Origin,
  etag: EtagSource = "body",
  extraHeaders: Readonly<Record<string, string>> = NO_EXTRA,
): Promise<CacheOutcome> {
  return edgeRead(request, ctx, key, origin, { stream: false, etag, extraHeaders }, 0);
}

/**
 * Like `cachedRead`, but a miss streams to the client while a copy is stored:
 * rendered pages start arriving before they are fully built. The ETag cannot
 * wait for the body, so it is derived from the versioned key (one version of
 * a page is always the same bytes).
 */
export function cachedStream(request: Request, ctx: ExecutionContext, key: CacheKey, origin: Origin): Promise<CacheOutcome> {
  return edgeRead(request, ctx, key, origin, { stream: true, etag: "key", extraHeaders: NO_EXTRA }, 0);
}

/** One object, so a memory-tier entry's prepared hit headers are found again (see `edgeHit`). */
const NO_EXTRA: Readonly<Record<string, string>> = Object.freeze({});

interface ReadMode {
  stream: boolean;
  etag: EtagSource;
  /** Headers every answer to the client carries (the content API's CORS headers), set with ours. */
  extraHeaders: Readonly<Record<string, string>>;
}

async function edgeRead(
  request: Request,
  ctx: ExecutionContext,
  key: CacheKey,
  origin: Origin,
  mode: ReadMode,
  attempt: number,
): Promise<CacheOutcome> {
  const hit = edgeHit(request, key.base, key.version, mode.extraHeaders);
  if (hit) return { response: hit, hit: true };
  const vkey = versioned(key);
  const running = inflight.get(vkey);
  const stale = staleEntry(key);
  if (stale && (running || key.previous?.first)) {
    // The new version is read in the background, once, while this request is answered from the previous one.
    if (!running)
      ctx.waitUntil(
        lead(request, ctx, key, vkey, origin, mode).then(
          (o) => o.response.body?.cancel(),
          () => undefined,
        ),
      );
    return { response: conditional(request, stale.body, stale.headers, "STALE", mode.extraHeaders), hit: true };
  }
  if (!running) return lead(request, ctx, key, vkey, origin, mode);
  const loaded = await Promise.race([running, scheduler.wait(WAIT_MS).then(() => null)]);
  // A read whose request went away (its client disconnected) never settles: after WAIT_MS the
  // next request leads a read of its own.
  if (loaded === null && inflight.get(vkey) === running) inflight.delete(vkey);
  // The shared read failed even after its own retry: each waiter tries once more (again shared).
  if ((!loaded || loaded.status >= 500) && attempt === 0) return edgeRead(request, ctx, key, origin, mode, 1);
  if (!loaded) throw new Error("the shared read of a cached answer failed");
  if (!loaded.stored) return { response: new Response(loaded.body, { status: loaded.status, headers: loaded.headers }), hit: false };
  return { response: conditional(request, loaded.body, loaded.headers, "SHARED", mode.extraHeaders), hit: false };
}

/**
 * The answer of exactly `version` of `base` from this isolate's memory tier, or null. Synchronous and
 * cheap: the headers a hit sends (the entry's, ours, `extra`, then whatever `finish` adds) are
 * built once per entry and reused.
 */
export function edgeHit(
  request: Request,
  base: string,
  version: number,
  extra: Readonly<Record<string, string>>,
  finish?: (headers: Headers) => void,
): Response | null {
  const entry = hotGet(base, version) ?? carried(base, version);
  if (!entry) return null;
  let prepared = entry.hit;
  if (prepared?.for !== extra || prepared.finish !== finish) {
    const headers = new Headers(entry.headers);
    headers.set("x-cache", "HIT");
    headers.set("cache-control", CLIENT_CACHE_CONTROL);
    for (const k in extra) headers.set(k, extra[k] as string);
    finish?.(headers);
    prepared = entry.hit = { for: extra, finish, headers, etag: headers.get("etag") };
  }
  // The Response copies the prepared headers: what a caller sets on it stays its own.
  const inm = prepared.etag === null ? null : request.headers.get("if-none-match");
  if (inm && matches(inm, prepared.etag as string)) return new Response(null, { status: 304, headers: prepared.headers });
  // Each hit gets its own copy of the body as an ArrayBuffer (~1 µs for 10 KB), on purpose: workerd
  // frees a request's native state (Request, Response, headers: ~5 KB) only when V8 collects the
  // objects holding it, and V8 schedules collections by the memory it sees. A hit that allocates
  // almost nothing visible (a shared Blob) let that state pile up: the service's resident memory
  // grew ~7 KB a hit, to 700 MB in the bench. ArrayBuffer memory counts, so V8 collects in step
  // with the traffic (docs/caching.md, "Memory").
  return new Response(entry.body.slice(0), { status: 200, headers: prepared.headers });
}

/**
 * The held answer of an older version of `base`, carried to `version` without a read: the site
 * object said it shows one item and nothing else (a single item of a collection without
 * references, or its rendered page with no list on it), and every version since changed other
 * items only (what the site object says each version changed, src/edge/site-meta.ts). After one
 * edit, the other items' answers and pages cost no site object read, no render and no Cache API
 * call (docs/caching.md, "Carried across a version").
 */
function carried(base: string, version: number): ReturnType<typeof hotGet> {
  const held = hotLatest(base);
  const deps = held?.dependsOn;
  if (!held || !deps || held.version >= version) return null;
  if (deps.list) {
    // A list shows the items whose ids are in it (`"id":"…"`, as the site object writes each item),
    // looked for in the held bytes as they are (node:buffer's native search; nothing decoded or kept).
    const bytes = Buffer.from(held.body);
    const shows = (item: string) => bytes.includes(`"id":${JSON.stringify(item)}`);
    if (!listUntouched(deps.siteId, held.version, version, deps.list, shows)) return null;
  } else if (!untouched(deps.siteId, held.version, version, deps.item)) return null;
  hotRevalidate(base, held.version, version);
  return hotGet(base, version);
}

/** Whether an If-None-Match value names `etag` (or is `*`). */
function matches(inm: string, etag: string): boolean {
  return inm.split(",").some((t) => t.trim() === etag || t.trim() === "*");
}

/** The previous version's answer for this URL, if this isolate holds it and it is within the bound. */
function staleEntry(key: CacheKey): { body: ArrayBuffer; headers: [string, string][] } | null {
  const prev = key.previous;
  if (!prev || Date.now() > prev.until) return null;
  return hotGet(key.base, prev.version);
}

/** The one read of a key: the Cache API, else the origin; its outcome is shared with every waiter. */
async function lead(
  request: Request,
  ctx: ExecutionContext,
  key: CacheKey,
  vkey: string,
  origin: Origin,
  mode: ReadMode,
): Promise<CacheOutcome> {
  let settle: (loaded: Loaded | null) => void = () => undefined;
  const shared = new Promise<Loaded | null>((resolve) => (settle = resolve));
  inflight.set(vkey, shared);
  void shared.then(() => inflight.get(vkey) === shared && inflight.delete(vkey));
  // Others wait for this read: it keeps this request's context alive until it settles, even if
  // this request's own client goes away.
  ctx.waitUntil(shared);
  try {
    const cached = await caches.default.match(vkey);
    if (cached) {
      const body = await cached.arrayBuffer();
      const headers = new Headers(cached.headers);
      settle({ status: 200, headers, body, stored: true });
      ctx.waitUntil(remember(key, body, headers));
      return { response: conditional(request, body, headers, "HIT", mode.extraHeaders), hit: true };
    }
    // Holding an older version's answer, ask whether the new one is the same bytes: most URLs of a
    // site do not change with one publish, and "unchanged" costs no body and no Cache API write (the
    // copy under the old key stays where it is). The validator is the origin's ETag of the copy, or
    // for a rendered page (whose ETag comes from its key) the hash of its bytes.
    const latest = mode.etag === "origin" || mode.stream ? hotLatest(key.base) : null;
    const prior = latest && latest.version < key.version ? latest : null;
    const validator = !prior ? null : mode.stream ? await bodyEtag(prior.body) : new Headers(prior.headers).get("etag");
    // Asked every time: the site object names the one item an answer depends on, if it is one (`carried`).
    const fresh = await fromOrigin(() => origin(validator ? { [REVALIDATE_HEADER]: validator, [DEPENDS_HEADER]: "1" } : ASK_DEPENDS));
    const dependsOn = dependencyOf(key, fresh);
    if (fresh.status === 304 && prior && validator && fresh.headers.get("etag") === validator) {
      hotRevalidate(key.base, prior.version, key.version, dependsOn);
      const headers = new Headers(prior.headers);
      settle({ status: 200, headers, body: prior.body, stored: true });
      return { response: conditional(request, prior.body, headers, "MISS", mode.extraHeaders), hit: false };
    }
    if (!storable(fresh)) {
      // Errors and no-store answers are shared as they are, never kept. A definite answer (a 404, a
      // document being rebuilt) also ends stale serving of this URL: its previous version is gone.
      const body = await fresh.arrayBuffer();
      const headers = withoutInternal(new Headers(fresh.headers));
      settle({ status: fresh.status, headers, body, stored: false });
      // (A 429 is one client's, and says nothing of the URL.)
      if (fresh.status < 500 && fresh.status !== 429) ctx.waitUntil(remember(key, null, null));
      return { response: new Response(body, { status: fresh.status, statusText: fresh.statusText, headers }), hit: false };
    }
    const etag = mode.etag === "key" ? await keyEtag(vkey, mode.stream) : null;
    if (mode.stream && fresh.body) {
      const headers = copyHeaders(fresh, etag as string);
      const { toClient, whole } = streamAndKeep(fresh.body);
      ctx.waitUntil(
        whole.then(
          (body) => {
            settle({ status: 200, headers, body, stored: true });
            return keep(key, vkey, body, headers, dependsOn);
          },
          () => settle(null),
        ),
      );
      return { response: conditional(request, null, headers, "MISS", mode.extraHeaders, toClient), hit: false };
    }
    const body = await fresh.arrayBuffer();
    const headers = copyHeaders(fresh, etag ?? (mode.etag === "origin" ? fresh.headers.get("etag") : null) ?? (await bodyEtag(body)));
    settle({ status: 200, headers, body, stored: true });
    ctx.waitUntil(keep(key, vkey, body, headers, dependsOn));
    return { response: conditional(request, body, headers, "MISS", mode.extraHeaders), hit: false };
  } catch (err) {
    settle(null);
    throw err;
  }
}

/**
 * Passes a body on to the client as it arrives and collects it whole. The client's
 * side is never waited for (its writes queue), so a slow or vanished client of the
 * first request cannot hold up the requests that wait for the whole body.
 */
function streamAndKeep(body: ReadableStream<Uint8Array>): { toClient: ReadableStream; whole: Promise<ArrayBuffer> } {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const whole = (async () => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        chunks.push(chunk);
        size += chunk.byteLength;
        writer.write(chunk).catch(() => undefined);
      }
    } catch (err) {
      writer.abort(err).catch(() => undefined);
      throw err;
    }
    writer.close().catch(() => undefined);
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out.buffer;
  })();
  return { toClient: readable, whole };
}

/**
 * The origin read, once more if it threw (a site object reset or overloaded) or
 * answered 500/503: a passing failure is not handed to every request that waited.
 */
async function fromOrigin(origin: () => Promise<Response>): Promise<Response> {
  try {
    const first = await origin();
    if (first.status !== 500 && first.status !== 503) return first;
    await first.body?.cancel();
  } catch (err) {
    // A refusal of ours (a rate limit) is an answer, not a passing failure: never read twice for it.
    if (err instanceof ApiError) throw err;
    log("origin_read_retry", { error: errorText(err) });
  }
  return origin();
}

/** Only a 200 is kept, and not when the origin says it must not be (a document about to be rebuilt). */
function storable(response: Response): boolean {
  return response.status === 200 && !/\bno-store\b/i.test(response.headers.get("cache-control") ?? "");
}

const ASK_DEPENDS: Readonly<Record<string, string>> = Object.freeze({ [DEPENDS_HEADER]: "1" });

/** What the origin said this answer depends on (DEPENDS_HEADER): one item, or a list's keys; null if it did not say. */
function dependencyOf(key: CacheKey, fresh: Response): DependsOn | null {
  const said = fresh.headers.get(DEPENDS_HEADER);
  if (!said) return null;
  if (said.startsWith(DEPENDS_ON_LIST)) return { siteId: key.siteId, list: said.slice(DEPENDS_ON_LIST.length).split(",") };
  return { siteId: key.siteId, item: said };
}

/**
 * Our headers off a copy of an origin answer's: what the site object tells the front Worker (the
 * version it answered at, what recent versions changed, the item an answer depends on) reaches
 * neither the client nor the Cache API. The origin hands its answer over as the site object sent
 * it (`noteSite`): this copy is the only one made.
 */
function withoutInternal(headers: Headers): Headers {
  headers.delete(CACHE_VERSION_HEADER);
  headers.delete(CHANGES_HEADER);
  headers.delete(DEPENDS_HEADER);
  return headers;
}

/** The stored copy's headers: the origin's (less ours), with our ETag and the edge lifetime. */
function copyHeaders(fresh: Response, etag: string): Headers {
  const headers = withoutInternal(new Headers(fresh.headers));
  headers.set("etag", etag);
  headers.set("cache-control", PUBLIC_CACHE_CONTROL);
  return headers;
}

/** Both tiers: this isolate's memory at once, then the Cache API (the caller waits for that write). */
async function keep(key: CacheKey, vkey: string, body: ArrayBuffer, headers: Headers, dependsOn: DependsOn | null): Promise<void> {
  await remember(key, body, headers, dependsOn);
  await caches.default.put(vkey, new Response(body, { status: 200, headers }));
}

/**
 * The memory tier's copy. When it replaces an older version of the same URL, that
 * version's Cache API entry is deleted: nothing can ask for it any more, and the
 * local runtime's cache store otherwise keeps every version for a year.
 */
async function remember(
  key: CacheKey,
  body: ArrayBuffer | null,
  headers: Headers | null,
  dependsOn: DependsOn | null = null,
): Promise<void> {
  const replaced = hotPut(key.base, key.version, body, headers, dependsOn);
  if (replaced !== null) await caches.default.delete(versioned(key, replaced));
}

/** An ETag from the versioned key, for answers one version always gives byte for byte. */
async function keyEtag(vkey: string, page: boolean): Promise<string> {
  return `"${page ? "p" : ""}${await sha256Hex32(new TextEncoder().encode(vkey))}"`;
}

/** The client's answer: 304 for a matching If-None-Match, else the body, with `x-cache` saying how it was found. */
function conditional(
  request: Request,
  body: ArrayBuffer | null,
  stored: [string, string][] | Headers,
  state: "HIT" | "MISS" | "SHARED" | "STALE",
  extra: Readonly<Record<string, string>>,
  stream?: ReadableStream,
): Response {
  const headers = new Headers(stored);
  headers.set("x-cache", state);
  headers.set("cache-control", CLIENT_CACHE_CONTROL);
  // The caller's headers win: the content API's answers carry a Cache-Control of their own contract.
  for (const k in extra) headers.set(k, extra[k] as string);
  const etag = headers.get("etag");
  const inm = request.headers.get("if-none-match");
  if (etag && inm && matches(inm, etag)) {
    void stream?.cancel();
    return new Response(null, { status: 304, headers });
  }
  return new Response(stream ?? body, { status: 200, headers });
}
