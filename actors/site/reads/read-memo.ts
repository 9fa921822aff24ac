/**
 * Public answers this object has built for the current cache version, by URL, with
 * their ETag (the SHA-256 of the text, so an answer that did not change across versions
 * keeps its ETag and a front Worker holding it can be told "unchanged"). A second
 * identical miss (another isolate, another colo, an evicted cache entry) is answered
 * from memory. Emptied whenever the version moves, so it never holds an answer the
 * site would not give now; bounded in entries and characters.
 */
const MAX_ENTRIES = 512;
const MAX_CHARS = 2 * 1024 * 1024;

export interface Answer {
  text: string;
  etag: string;
}

export class ReadMemo {
  #version = -1;
  #entries = new Map<string, Answer>();
  #chars = 0;

  /** The memoised answer for `key` at `version`, else `build()`'s, kept. */
  async answer(version: number, key: string, build: () => string): Promise<Answer> {
    if (version !== this.#version) this.#clear(version);
    const hit = this.#entries.get(key);
    if (hit) return hit;
    const text = build();
    const answer = { text, etag: await etagOf(text) };
    // The version may have moved while the hash was computed: keep only a current answer.
    if (version === this.#version && text.length <= MAX_CHARS / 8) {
      this.#entries.set(key, answer);
      this.#chars += text.length;
      for (const [k, v] of this.#entries) {
        if (this.#chars <= MAX_CHARS && this.#entries.size <= MAX_ENTRIES) break;
        this.#entries.delete(k);
        this.#chars -= v.text.length;
      }
    }
    return answer;
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

async function etagOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `"${[...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}
