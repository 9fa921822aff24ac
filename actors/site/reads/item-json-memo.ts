/**
 * Published items' content API JSON (`publicItemsJson`'s text of one item), by `seq`, kept across
 * cache versions: a list miss after a change then reads no row of an item it already built, only
 * the slice of the memoised order (`SiteContext.orderOf`). After one edit every list URL of the site
 * misses at once, and each of them shows mostly the same items as before.
 *
 * An entry is dropped when a change names its item (`forget`, called wherever the object records
 * what a cache version changed) and everything is dropped for a change that names no items (a
 * schema, media, plan or settings change, a restore, an import). That is the record the front
 * Worker already trusts to carry its held answers across versions (docs/caching.md, "Carried across
 * a version"): a change of public data that is not recorded there would leave cached answers stale
 * too. Only items of collections without reference fields are kept (a reference is resolved when
 * read), and nothing while a public JSON rebuild runs (their text is computed from the data then).
 * Per object, never per module: Site objects sharing an isolate must not share it.
 */
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../../../src/shared/bounded-map";

const MAX_ENTRIES = 5000;
const MAX_BYTES = 4 * 1024 * 1024;

export class ItemJsonMemo {
  readonly #bySeq = new BoundedMap<number, string>(MAX_ENTRIES, MAX_BYTES);
  /** Item id → its seq, for `forget`; cleared with the memo, so never larger than twice its bound. */
  #seqOf = new Map<string, number>();

  get(seq: number): string | undefined {
    return this.#bySeq.get(seq);
  }

  set(seq: number, id: string, json: string): void {
    if (this.#seqOf.size >= 2 * MAX_ENTRIES) this.clear();
    this.#bySeq.set(seq, json, stringBytes(json) + stringBytes(id) + 2 * ENTRY_OVERHEAD);
    this.#seqOf.set(id, seq);
  }

  /** A change touched these items (their data, status or existence): their text is built again. */
  forget(ids: readonly string[]): void {
    for (const id of ids) {
      const seq = this.#seqOf.get(id);
      if (seq === undefined) continue;
      this.#bySeq.delete(seq);
      this.#seqOf.delete(id);
    }
  }

  clear(): void {
    this.#bySeq.clear();
    this.#seqOf = new Map();
  }

  get size(): number {
    return this.#bySeq.size;
  }
}
