/**
 * Counts requests per key over a sliding window (the two-window estimate Cloudflare's own rate
 * limiting uses: the previous window's count weighted by the part of it still inside the window,
 * plus the current one's) and decides, for one shared quota, whether a key may take one more.
 *
 * A key alone may use the whole quota. While other keys use it too (more than `present` of the
 * quota between them), one key may use at most `share` of it, so a client that floods cannot take
 * what the others need; past the quota everyone waits. Memory is bounded: past `maxKeys` in a
 * window, further keys count together under one key.
 */
export interface FairWindowOptions {
  windowMs: number;
  maxKeys: number;
  /** The part of the quota one key may use while others use it too. */
  share: number;
  /** The part of the quota the other keys must use together before `share` applies. */
  present: number;
}

/** Null: taken. Otherwise whole seconds until the key may try again, and what refused it. */
export type Verdict = null | { retryAfter: number; by: "key" | "total" };

const OVERFLOW = "\u0000overflow";

export class FairWindow {
  readonly #o: FairWindowOptions;
  #start = 0;
  #cur = new Map<string, number>();
  #prev = new Map<string, number>();
  #curTotal = 0;
  #prevTotal = 0;

  constructor(options: FairWindowOptions) {
    this.#o = options;
  }

  /** Takes one for `key` against `quota` at `now` (ms), or says how long to wait. */
  take(key: string, quota: number, now: number): Verdict {
    this.#roll(now);
    const elapsed = now - this.#start;
    const weight = 1 - elapsed / this.#o.windowMs;
    const k = this.#cur.has(key) || this.#cur.size < this.#o.maxKeys ? key : OVERFLOW;
    const total = this.#prevTotal * weight + this.#curTotal;
    const mine = (this.#prev.get(k) ?? 0) * weight + (this.#cur.get(k) ?? 0);
    const retryAfter = Math.max(1, Math.ceil((this.#o.windowMs - elapsed) / 1000));
    if (total + 1 > quota) return { retryAfter, by: "total" };
    const others = total - mine;
    const cap = others > quota * this.#o.present ? quota * this.#o.share : quota;
    if (mine + 1 > cap) return { retryAfter, by: "key" };
    this.#cur.set(k, (this.#cur.get(k) ?? 0) + 1);
    this.#curTotal++;
    return null;
  }

  /** The estimated count of `key` (and of all keys) at `now`. */
  count(key: string | null, now: number): number {
    this.#roll(now);
    const weight = 1 - (now - this.#start) / this.#o.windowMs;
    if (key === null) return this.#prevTotal * weight + this.#curTotal;
    return (this.#prev.get(key) ?? 0) * weight + (this.#cur.get(key) ?? 0);
  }

  #roll(now: number): void {
    const w = this.#o.windowMs;
    if (now < this.#start + w) return;
    const windows = Math.floor((now - this.#start) / w);
    if (windows === 1) {
      this.#prev = this.#cur;
      this.#prevTotal = this.#curTotal;
    } else {
      this.#prev = new Map();
      this.#prevTotal = 0;
    }
    this.#cur = new Map();
    this.#curTotal = 0;
    this.#start = this.#start === 0 ? now - (now % w) : this.#start + windows * w;
  }
}
