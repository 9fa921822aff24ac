/**
 * The vectors of recent search queries, by model and text: a repeated query (another
 * limit, another collection, another isolate or colo asking, an evicted cache entry)
 * costs no model call. Per site object, so one site's queries never answer, nor time,
 * another's; least recently used out first, bounded in entries and bytes (each 384 floats and
 * its query text).
 */
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../../../src/shared/bounded-map";

const MAX_ENTRIES = 256;
const MAX_BYTES = 1024 * 1024;

export class QueryVectors {
  #entries = new BoundedMap<string, Float32Array>(MAX_ENTRIES, MAX_BYTES);
  /** Model calls made for queries (the tests and the bench read it). */
  calls = 0;

  async vectorOf(model: string, text: string, embed: (text: string) => Promise<number[]>): Promise<number[]> {
    const key = `${model}\u0000${text}`;
    const hit = this.#entries.get(key, true);
    if (hit) return Array.from(hit);
    this.calls++;
    const vector = await embed(text);
    const kept = Float32Array.from(vector);
    this.#entries.set(key, kept, stringBytes(key) + kept.byteLength + ENTRY_OVERHEAD);
    return vector;
  }

  get size(): number {
    return this.#entries.size;
  }
}
