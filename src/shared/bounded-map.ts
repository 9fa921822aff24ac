/**
 * A Map for per-isolate (or per-object) caches, bounded in entries AND in bytes: a cache keyed by
 * what clients send (URLs, tokens, queries) must not grow with how long those strings are. Each
 * entry's size is the caller's estimate of what the entry keeps alive (key and value, strings
 * at two bytes a character, plus a fixed overhead). Oldest first out; `get` with `touch` moves an
 * entry to the back (least recently used out first), plain `get` does not (first in, first out),
 * so a hot path pays one Map lookup.
 */
export const ENTRY_OVERHEAD = 64;

/** Bytes a string keeps alive (V8 holds most as one byte a character, some as two: count two). */
export const stringBytes = (s: string): number => s.length * 2;

export class BoundedMap<K, V> {
  readonly #map = new Map<K, { value: V; bytes: number }>();
  #bytes = 0;
  /**
   * One iterator over the keys, kept from eviction to eviction. A V8 Map leaves a hole where an
   * entry was deleted until it rehashes, and a new iterator walks every hole from the start: a
   * full map that evicts its oldest entry on each insert spent ~100 µs a time at 10,000 entries
   * walking the holes its own evictions left. This one has passed them already: everything before
   * it was evicted through it, so its next key is always the oldest entry still held (an entry
   * moved to the back by `get(key, true)` is met again there).
   */
  #oldest: Iterator<K> | null = null;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  get(key: K, touch = false): V | undefined {
    const e = this.#map.get(key);
    if (e && touch) {
      this.#map.delete(key);
      this.#map.set(key, e);
    }
    return e?.value;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Keeps `value` under `key` at `bytes` (an entry larger than the whole budget is not kept). */
  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.#map.set(key, { value, bytes });
    this.#bytes += bytes;
    while ((this.#bytes > this.maxBytes || this.#map.size > this.maxEntries) && this.#evictOldest());
  }

  #evictOldest(): boolean {
    let next = this.#oldest?.next();
    // Done once it reached the end (a done iterator stays done, whatever is added after).
    if (!next || next.done) next = (this.#oldest = this.#map.keys()).next();
    if (next.done) return false;
    const e = this.#map.get(next.value);
    this.#map.delete(next.value);
    if (e) this.#bytes -= e.bytes;
    return true;
  }

  /** Re-states an entry's size after its value grew or shrank in place. */
  resize(key: K, bytes: number): void {
    const e = this.#map.get(key);
    if (!e) return;
    this.#bytes += bytes - e.bytes;
    e.bytes = bytes;
    if (this.#bytes > this.maxBytes) this.set(key, e.value, bytes);
  }

  delete(key: K): boolean {
    const e = this.#map.get(key);
    if (!e) return false;
    this.#map.delete(key);
    this.#bytes -= e.bytes;
    return true;
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
    this.#oldest = null;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The bytes accounted for. */
  get bytes(): number {
    return this.#bytes;
  }

  keys(): IterableIterator<K> {
    return this.#map.keys();
  }

  *values(): IterableIterator<V> {
    for (const e of this.#map.values()) yield e.value;
  }
}
