/**
 * Public answers this object has built for the current cache version, by URL: a
 * second identical miss (another isolate, another colo, an evicted cache entry)
 * is answered from memory. Emptied whenever the version moves, so it never holds
 * an answer the site would not give now; bounded in entries and characters.
 */
const MAX_ENTRIES = 512;
const MAX_CHARS = 2 * 1024 * 1024;

export class ReadMemo {
  #version = -1;
  #entries = new Map<string, string>();
  #chars = 0;

  /** The memoised answer for `key` at `version`, else `build()`'s, kept. */
  text(version: number, key: string, build: () => string): string {
    if (version !== this.#version) this.#clear(version);
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit;
    const text = build();
    if (text.length <= MAX_CHARS / 8) {
      this.#entries.set(key, text);
      this.#chars += text.length;
      for (const [k, v] of this.#entries) {
        if (this.#chars <= MAX_CHARS && this.#entries.size <= MAX_ENTRIES) break;
        this.#entries.delete(k);
        this.#chars -= v.length;
      }
    }
    return text;
  }

  get size(): number {
    return this.#entries.size;
  }

  #clear(version: number): void {
    this.#version = version;
    this.#entries.clear();
    this.#chars = 0;
  }
}
