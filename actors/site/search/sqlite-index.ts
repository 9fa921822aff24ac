import type { VectorEntry, VectorIndex, VectorMatch, VectorQuery } from "../../../src/search/vector-index";
import { Scanner } from "./scanner";
import { type Codes, rowCodes } from "./vector-codes";

interface Matrix {
  dimensions: number;
  size: number;
  // Unit-length rows, so cosine similarity is a plain dot product.
  rows: Scanner;
  ids: string[];
  collections: string[];
  position: Map<string, number>;
}

/**
 * Local default: the site's vectors in its own SQLite (`item_vectors`), one row
 * per item as int8 codes and their scale (vector-codes.ts), searched by an exact
 * scan over the codes. The rows are mirrored in memory per model on first use
 * (100,000 × 384 codes is 38 MB), in WebAssembly memory for a SIMD scan
 * (scanner.ts), and kept in step with every write, since only this object writes
 * them. Rows stored as float32 before the codes (migration 37: `scale` NULL) are
 * read as they are and rewritten in slices on the alarm (compactVectors).
 */
export class SqliteVectorIndex implements VectorIndex {
  #sql: SqlStorage;
  #matrices = new Map<string, Matrix>();

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  async upsert(entries: readonly VectorEntry[]): Promise<void> {
    for (const e of entries) {
      const row = rowCodes(normalize(e.vector));
      this.#sql.exec(
        `INSERT INTO item_vectors (item_id, collection_id, model, vector, scale) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (item_id) DO UPDATE SET collection_id = excluded.collection_id, model = excluded.model,
           vector = excluded.vector, scale = excluded.scale`,
        e.itemId,
        e.collectionId,
        e.model,
        row.codes.buffer,
        row.scale,
      );
      for (const [model, m] of this.#matrices) {
        if (model === e.model) put(m, e.itemId, e.collectionId, row);
        else drop(m, e.itemId);
      }
    }
  }

  async remove(itemIds: readonly string[]): Promise<void> {
    for (const id of itemIds) {
      this.#sql.exec("DELETE FROM item_vectors WHERE item_id = ?", id);
      for (const m of this.#matrices.values()) drop(m, id);
    }
  }

  async query(vector: readonly number[], q: VectorQuery): Promise<VectorMatch[]> {
    const m = this.#matrix(q.model);
    if (!m || m.dimensions !== vector.length || q.topK <= 0) return [];
    const scores = m.rows.scores(normalize(vector), m.size);
    // The best topK so far, kept sorted by score descending.
    const best: VectorMatch[] = [];
    for (let i = 0; i < m.size; i++) {
      if (q.collectionId !== undefined && m.collections[i] !== q.collectionId) continue;
      const dot = scores[i]!;
      if (best.length === q.topK && dot <= best[best.length - 1]!.score) continue;
      const id = m.ids[i]!;
      if (id === q.excludeItemId) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < dot) at--;
      best.splice(at, 0, { itemId: id, score: dot });
      if (best.length > q.topK) best.pop();
    }
    return best;
  }

  async vectorOf(itemId: string, model: string): Promise<number[] | null> {
    const m = this.#matrix(model);
    const i = m?.position.get(itemId);
    if (!m || i === undefined) return null;
    return Array.from(m.rows.row(i));
  }

  #matrix(model: string): Matrix | null {
    let m = this.#matrices.get(model);
    if (m) return m;
    const cursor = this.#sql.exec<StoredVector & { item_id: string; collection_id: string }>(
      "SELECT item_id, collection_id, vector, scale FROM item_vectors WHERE model = ?",
      model,
    );
    for (const r of cursor) {
      const row = storedCodes(r);
      const d = row.codes.length;
      m ??= { dimensions: d, size: 0, rows: new Scanner(d), ids: [], collections: [], position: new Map() };
      put(m, r.item_id, r.collection_id, row);
    }
    if (!m) return null;
    this.#matrices.set(model, m);
    return m;
  }
}

function normalize(vector: readonly number[] | Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(vector, (x) => x * scale);
}

function put(m: Matrix, id: string, collectionId: string, row: Codes<Int8Array>): void {
  if (row.codes.length !== m.dimensions) return;
  let i = m.position.get(id);
  if (i === undefined) {
    i = m.size++;
    m.ids[i] = id;
    m.position.set(id, i);
  }
  m.collections[i] = collectionId;
  m.rows.setRow(i, row);
}

// Swap-remove: the last row takes the removed row's place.
function drop(m: Matrix, id: string): void {
  const i = m.position.get(id);
  if (i === undefined) return;
  const last = --m.size;
  if (i !== last) {
    m.rows.copyRow(last, i);
    m.ids[i] = m.ids[last]!;
    m.collections[i] = m.collections[last]!;
    m.position.set(m.ids[i]!, i);
  }
  m.ids.length = last;
  m.collections.length = last;
  m.position.delete(id);
}

/** A row of `item_vectors`: int8 codes and their scale, or (scale NULL) a unit float32 vector stored before the codes. */
type StoredVector = {
  vector: ArrayBuffer;
  scale: number | null;
};

function storedCodes(r: StoredVector): Codes<Int8Array> {
  return r.scale === null ? rowCodes(new Float32Array(r.vector)) : { codes: new Int8Array(r.vector), scale: r.scale };
}

export const VECTORS_COMPACT_JOB = "vectors-compact";
/** Rows one slice rewrites (1,000 × 384 components: a few milliseconds). */
const COMPACT_SLICE = 1_000;

/** Whether any vector is still stored as float32 (through the partial index of those rows). */
export function vectorsCompacted(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM item_vectors WHERE scale IS NULL LIMIT 1").toArray().length === 0;
}

/**
 * One slice: up to COMPACT_SLICE float32 rows rewritten as their codes, the codes a matrix in
 * memory already holds for them (storedCodes), so a scan's answers do not change. Returns true
 * when more is left.
 */
export function compactVectors(storage: DurableObjectStorage): boolean {
  return storage.transactionSync(() => {
    const sql = storage.sql;
    const rows = sql
      .exec<StoredVector & { item_id: string }>(
        "SELECT item_id, vector, scale FROM item_vectors WHERE scale IS NULL LIMIT ?",
        COMPACT_SLICE,
      )
      .toArray();
    for (const r of rows) {
      const { codes, scale } = storedCodes(r);
      sql.exec("UPDATE item_vectors SET vector = ?, scale = ? WHERE item_id = ?", codes.buffer, scale, r.item_id);
    }
    return rows.length === COMPACT_SLICE;
  });
}
