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
  body: ArrayBuffer;
  headers: [string, string][];
}

const hot = new Map<string, HotEntry>();
let bytes = 0;

/** The entry for `base` if it holds exactly `version`. */
export function hotGet(base: string, version: number): HotEntry | null {
  const e = hot.get(base);
  if (!e || e.version !== version) return null;
  hot.delete(base);
  hot.set(base, e);
  return e;
}

/**
 * Keeps `version` of `base` unless a newer one is already here (a slow read of an
 * old version never overwrites a newer one). Returns the version it replaced, if any.
 */
export function hotPut(base: string, version: number, body: ArrayBuffer, headers: Headers): number | null {
  const old = hot.get(base);
  if (old && old.version >= version) return null;
  if (body.byteLength > MAX_ENTRY_BYTES) return null;
  if (old) {
    hot.delete(base);
    bytes -= old.body.byteLength;
  }
  hot.set(base, { version, body, headers: [...headers] });
  bytes += body.byteLength;
  for (const [k, e] of hot) {
    if (bytes <= MAX_BYTES && hot.size <= MAX_ENTRIES) break;
    hot.delete(k);
    bytes -= e.body.byteLength;
  }
  return old ? old.version : null;
}

/** Entries and bytes held (for the no-growth tests and the bench). */
export function hotSizes(): { entries: number; bytes: number } {
  return { entries: hot.size, bytes };
}
