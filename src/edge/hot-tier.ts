/**
 * A small per-isolate tier in front of the Cache API. One entry per URL (its
 * unversioned key), holding the newest version this isolate has read: a repeat
 * read skips the Cache API round trip, the previous version is at hand to be
 * served stale for a bounded time (cache.ts), and publishing never adds
 * entries: a new version replaces the old one in place. Bounded in bytes and
 * in entries; least recently used out first.
 */
const MAX_BYTES = 8 * 1024 * 1024;
const MAX_ENTRY_BYTES = 256 * 1024;
const MAX_ENTRIES = 4096;

export interface HotEntry {
  version: number;
  /** Null: this version of the URL has no answer to keep (a 404, a no-store document), so none older may be served. */
  body: ArrayBuffer | null;
  headers: [string, string][];
  /** The version whose Cache API key holds this body (older than `version` after a revalidation), if any. */
  stored: number | null;
  /**
   * The headers of a hit as the client gets them, built on the first hit for one set of extra
   * headers (`for`): every later hit hands them to its Response as they are.
   */
  /** The body as a Blob, made on the first hit: every hit's Response shares it (see `edgeHit`). */
  blob?: Blob;
  hit?: { for: object; finish: ((headers: Headers) => void) | undefined; headers: Headers; etag: string | null };
}

const size = (e: HotEntry) => e.body?.byteLength ?? 0;

const hot = new Map<string, HotEntry>();
let bytes = 0;

/** The answer for `base` if this tier holds exactly `version` of it. */
export function hotGet(base: string, version: number): (HotEntry & { body: ArrayBuffer }) | null {
  const e = hot.get(base);
  if (!e || e.version !== version || !e.body) return null;
  hot.delete(base);
  hot.set(base, e);
  return e as HotEntry & { body: ArrayBuffer };
}

/** The newest answer held for `base`, whatever its version. */
export function hotLatest(base: string): { version: number; body: ArrayBuffer; headers: [string, string][] } | null {
  const e = hot.get(base);
  return e?.body ? { version: e.version, body: e.body, headers: e.headers } : null;
}

/** The site object said `version` of `base` is the same bytes as `from`: the entry now answers for both. */
export function hotRevalidate(base: string, from: number, version: number): boolean {
  const e = hot.get(base);
  if (!e?.body || e.version !== from || version <= from) return false;
  e.version = version;
  return true;
}

/**
 * Keeps `version` of `base` unless a newer one is already here (a slow read of an
 * old version never overwrites a newer one). Returns the version under which the
 * Cache API held the replaced body, if any: nothing can ask for that key any more.
 */
export function hotPut(base: string, version: number, body: ArrayBuffer | null, headers: Headers | null): number | null {
  const old = hot.get(base);
  if (old && old.version >= version) return null;
  if (old) {
    hot.delete(base);
    bytes -= size(old);
  }
  const entry: HotEntry =
    body && body.byteLength <= MAX_ENTRY_BYTES
      ? { version, body, headers: [...(headers ?? [])], stored: version }
      : { version, body: null, headers: [], stored: null };
  hot.set(base, entry);
  bytes += size(entry);
  for (const [k, e] of hot) {
    if (bytes <= MAX_BYTES && hot.size <= MAX_ENTRIES) break;
    hot.delete(k);
    bytes -= size(e);
  }
  return old ? old.stored : null;
}

/** Entries and bytes held (for the no-growth tests and the bench). */
export function hotSizes(): { entries: number; bytes: number } {
  return { entries: hot.size, bytes };
}
