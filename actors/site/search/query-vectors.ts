/**
 * The vectors of recent search queries, by model and text: a repeated query (another
 * limit, another collection, another isolate or colo asking, an evicted cache entry)
 * costs no model call. Per site object, so one site's queries never answer, nor time,
 * another's; least recently used out first, bounded in entries (each 384 floats).
 */
const MAX_ENTRIES = 256;

export class QueryVectors {
  #entries = new Map<string, Float32Array>();
  /** Model calls made for queries (the tests and the bench read it). */
  calls = 0;

  async vectorOf(model: string, text: string, embed: (text: string) => Promise<number[]>): Promise<number[]> {
    const key = `${model}\u0000${text}`;
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return Array.from(hit);
    }
    this.calls++;
    const vector = await embed(text);
    this.#entries.set(key, Float32Array.from(vector));
    if (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
    return vector;
  }

  get size(): number {
    return this.#entries.size;
  }
}
