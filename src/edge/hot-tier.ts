/**
 * A small per-isolate tier in front of the Cache API. One entry per URL (its
 * unversioned key), holding the newest version this isolate has read: a repeat
 * read skips the Cache API round trip, the previous version is at hand to be
 * served stale for a bounded time (cache.ts), and publishing never adds
 * entries: a new version replaces the old one in place. Bounded in bytes (key,
 * body, headers and the hit headers built from them) and in entries; least
 * recently used out first.
 */
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../shared/bounded-map";

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
  /** The one item this answer depends on, when the site object said so (cache.ts, `carried`); else null. */
  dependsOn: DependsOn | null;
  /**
   * The headers of a hit as the client gets them, built on the first hit for one set of extra
   * headers (`for`): every later hit hands them to its Response as they are.
   */
  hit?: { for: object; finish: ((headers: Headers) => void) | undefined; headers: Headers; etag: string | null };
}

/**
 * What an entry keeps alive: its key, its body, and its headers twice (the stored pairs and the
 * Headers object a hit builds from them, at about the same size).
 */
function sizeOf(base: string, body: ArrayBuffer | null, headers: [string, string][]): number {
  let h = 0;
  for (const [k, v] of headers) h += stringBytes(k) + stringBytes(v) + ENTRY_OVERHEAD;
  return stringBytes(base) + (body?.byteLength ?? 0) + 2 * h + 4 * ENTRY_OVERHEAD;
}

/**
 * What an answer of site `siteId` depends on, as the site object said: item `item` and nothing
 * else, or (`list`) the items it shows, whose ids are in it, and the keys its order and membership
 * depend on.
 */
export type DependsOn = { siteId: string; item: string; list?: undefined } | { siteId: string; item?: undefined; list: readonly string[] };

const hot = new BoundedMap<string, HotEntry>(MAX_ENTRIES, MAX_BYTES);

/** The answer for `base` if this tier holds exactly `version` of it. */
export function hotGet(base: string, version: number): (HotEntry & { body: ArrayBuffer }) | null {
  const e = hot.get(base, true);
  if (!e || e.version !== version || !e.body) return null;
  return e as HotEntry & { body: ArrayBuffer };
}

/** The newest answer held for `base`, whatever its version. */
export function hotLatest(
  base: string,
): { version: number; body: ArrayBuffer; headers: [string, string][]; dependsOn: DependsOn | null } | null {
  const e = hot.get(base);
  return e?.body ? { version: e.version, body: e.body, headers: e.headers, dependsOn: e.dependsOn } : null;
}

/**
 * `version` of `base` is the same bytes as `from` (the site object said so, or no version since
 * changed what it depends on): the entry now answers for both. `dependsOn`, when the site object
 * said it again, is kept.
 */
export function hotRevalidate(base: string, from: number, version: number, dependsOn?: DependsOn | null): boolean {
  const e = hot.get(base);
  if (!e?.body || e.version !== from || version <= from) return false;
  e.version = version;
  if (dependsOn !== undefined) e.dependsOn = dependsOn;
  return true;
}

/**
 * Keeps `version` of `base` unless a newer one is already here (a slow read of an
 * old version never overwrites a newer one). Returns the version under which the
 * Cache API held the replaced body, if any: nothing can ask for that key any more.
 */
export function hotPut(
  base: string,
  version: number,
  body: ArrayBuffer | null,
  headers: Headers | null,
  dependsOn: DependsOn | null = null,
): number | null {
  const old = hot.get(base);
  if (old && old.version >= version) return null;
  const entry: HotEntry =
    body && body.byteLength <= MAX_ENTRY_BYTES
      ? { version, body, headers: [...(headers ?? [])], stored: version, dependsOn }
      : { version, body: null, headers: [], stored: null, dependsOn: null };
  const deps = entry.dependsOn ? dependsBytes(entry.dependsOn) : 0;
  hot.set(base, entry, sizeOf(base, entry.body, entry.headers) + deps);
  return old ? old.stored : null;
}

/** What a dependency keeps alive: its strings and the objects holding them. */
function dependsBytes(d: DependsOn): number {
  let n = stringBytes(d.siteId) + 2 * ENTRY_OVERHEAD;
  if (d.item !== undefined) n += stringBytes(d.item);
  for (const k of d.list ?? []) n += stringBytes(k) + ENTRY_OVERHEAD;
  return n;
}

/** Entries and bytes held (for the no-growth tests and the bench). */
export function hotSizes(): { entries: number; bytes: number } {
  return { entries: hot.size, bytes: hot.bytes };
}
