import scanModule from "../../../dist/scan.wasm";
import { type Codes, decode, queryCodes } from "./vector-codes";

interface ScanExports {
  memory: WebAssembly.Memory;
  scan(rows: number, n: number, stride: number, q: number, out: number): void;
}

const PAGE = 64 * 1024;

/**
 * Rows as int8 codes (vector-codes.ts) in WebAssembly memory and one SIMD pass that scores
 * them all against a query (scan.wat). Memory layout: rows (capacity × stride bytes), then the
 * query (stride int16), then the sums (capacity int32). Rows are padded to a multiple of sixteen
 * components with zeros, which add nothing to a dot product. Each row's scale stays in
 * JavaScript: a score is the row's integer sum times its scale and the query's.
 */
export class Scanner {
  readonly dimensions: number;
  readonly #stride: number;
  readonly #exports: ScanExports;
  #capacity = 0;
  #rows = new Int8Array(0);
  #scales = new Float32Array(0);
  #scores = new Float32Array(0);

  constructor(dimensions: number) {
    this.dimensions = dimensions;
    this.#stride = Math.ceil(dimensions / 16) * 16;
    this.#exports = new WebAssembly.Instance(scanModule, {}).exports as unknown as ScanExports;
    this.#reserve(1024);
  }

  setRow(i: number, row: Codes<Int8Array>): void {
    if (i >= this.#capacity) this.#reserve(this.#capacity * 2);
    const at = i * this.#stride;
    this.#rows.set(row.codes, at);
    this.#rows.fill(0, at + row.codes.length, at + this.#stride);
    this.#scales[i] = row.scale;
  }

  copyRow(from: number, to: number): void {
    this.#rows.copyWithin(to * this.#stride, from * this.#stride, (from + 1) * this.#stride);
    this.#scales[to] = this.#scales[from]!;
  }

  /** Row i's vector, as its codes stand for it. */
  row(i: number): Float32Array {
    const at = i * this.#stride;
    return decode({ codes: this.#rows.slice(at, at + this.dimensions), scale: this.#scales[i]! });
  }

  /** Scores (cosines) of rows 0..n-1 against `q` (unit length); valid until the next call. */
  scores(q: Float32Array, n: number): Float32Array {
    const qAt = this.#capacity * this.#stride;
    const outAt = qAt + this.#stride * 2;
    const buffer = this.#exports.memory.buffer;
    const query = queryCodes(q, this.dimensions);
    const view = new Int16Array(buffer, qAt, this.#stride);
    view.set(query.codes);
    view.fill(0, query.codes.length);
    this.#exports.scan(0, n, this.#stride, qAt, outAt);
    const sums = new Int32Array(buffer, outAt, n);
    if (this.#scores.length < n) this.#scores = new Float32Array(this.#capacity);
    for (let i = 0; i < n; i++) this.#scores[i] = sums[i]! * this.#scales[i]! * query.scale;
    return this.#scores.subarray(0, n);
  }

  #reserve(capacity: number): void {
    // Rows, the query's int16 codes, the int32 sums (the stride is a multiple of 16, so each part is aligned).
    const bytes = capacity * this.#stride + this.#stride * 2 + capacity * 4;
    const memory = this.#exports.memory;
    if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
    this.#capacity = capacity;
    // Growing memory detaches the old buffer: views are made afresh, the rows stay where they were.
    this.#rows = new Int8Array(memory.buffer, 0, capacity * this.#stride);
    const scales = new Float32Array(capacity);
    scales.set(this.#scales);
    this.#scales = scales;
  }
}
