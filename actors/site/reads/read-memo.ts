/**
 * Public answers this object has built for the current cache version, by URL, with
 * their ETag (the SHA-256 of the text, so an answer that did not change across versions
 * keeps its ETag and a front Worker holding it can be told "unchanged"). A second
 * identical miss (another isolate, another colo, an evicted cache entry) is answered
 * from memory. Emptied whenever the version moves, so it never holds an answer the
 * site would not give now; bounded in entries and bytes (the URL keys counted too).
 */
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../../../src/shared/bounded-map";
import { bodyEtag } from "../../../src/http/etag";

const MAX_ENTRIES = 512;
const MAX_BYTES = 4 * 1024 * 1024;

export interface Answer {
  text: string;
  etag: string;
}

export class ReadMemo {
  #version = -1;
  #entries = new BoundedMap<string, Answer>(MAX_ENTRIES, MAX_BYTES);

  /** The memoised answer for `key` at `version`, else `build()`'s, kept. */
  async answer(version: number, key: string, build: () => string): Promise<Answer> {
    if (version !== this.#version) this.#clear(version);
    const hit = this.#entries.get(key);
    if (hit) return hit;
    const text = build();
    const answer = { text, etag: await bodyEtag(text) };
    // The version may have moved while the hash was computed: keep only a current answer.
    const bytes = stringBytes(text) + stringBytes(key) + stringBytes(answer.etag) + ENTRY_OVERHEAD;
    if (version === this.#version && bytes <= MAX_BYTES / 8) this.#entries.set(key, answer, bytes);
    return answer;
  }

  get size(): number {
    return this.#entries.size;
  }

  #clear(version: number): void {
    this.#version = version;
    this.#entries.clear();
  }
}
