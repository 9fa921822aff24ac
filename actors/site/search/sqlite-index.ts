import type { VectorEntry, VectorIndex, VectorMatch, VectorQuery } from "../../../src/search/vector-index";
import { Scanner } from "./scanner";

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
 * per item, searched by an exact cosine scan. The rows are mirrored in memory
 * per model on first use (10,000 × 512 floats is 20 MB), in WebAssembly memory
 * for a SIMD scan (scanner.ts), and kept in step with every write, since only
 * this object writes them.
 */
export class SqliteVectorIndex implements VectorIndex {
  #sql: SqlStorage;
  #matrices = new Map<string, Matrix>();

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  async upsert(entries: readonly VectorEntry[]): Promise<void> {
    for (const e of entries) {
      const unit = normalize(e.vector);
      this.#sql.exec(
        `INSERT INTO item_vectors (item_id, collection_id, model, vector) VALUES (?, ?, ?, ?)
         ON CONFLICT (item_id) DO UPDATE SET collection_id = excluded.collection_id, model = excluded.model, vector = excluded.vector`,
        e.itemId,
        e.collectionId,
        e.model,
        unit.buffer,
      );
      for (const [model, m] of this.#matrices) {
        if (model === e.model) put(m, e.itemId, e.collectionId, unit);
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
    const cursor = this.#sql.exec<{ item_id: string; collection_id: string; vector: ArrayBuffer }>(
      "SELECT item_id, collection_id, vector FROM item_vectors WHERE model = ?",
      model,
    );
    for (const r of cursor) {
      const v = new Float32Array(r.vector);
      m ??= { dimensions: v.length, size: 0, rows: new Scanner(v.length), ids: [], collections: [], position: new Map() };
      put(m, r.item_id, r.collection_id, v);
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

function put(m: Matrix, id: string, collectionId: string, unit: Float32Array): void {
  if (unit.length !== m.dimensions) return;
  let i = m.position.get(id);
  if (i === undefined) {
    i = m.size++;
    m.ids[i] = id;
    m.position.set(id, i);
  }
  m.collections[i] = collectionId;
  m.rows.setRow(i, unit);
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
