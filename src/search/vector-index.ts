/**
 * Where a site's vectors live. Each instance serves exactly one site, so one
 * site can never see another's vectors.
 */
export interface VectorEntry {
  itemId: string;
  collectionId: string;
  model: string;
  vector: readonly number[];
}

export interface VectorMatch {
  itemId: string;
  /** Cosine similarity. */
  score: number;
}

export interface VectorQuery {
  model: string;
  topK: number;
  collectionId?: string;
  excludeItemId?: string;
}

export interface VectorIndex {
  upsert(entries: readonly VectorEntry[]): Promise<void>;
  remove(itemIds: readonly string[]): Promise<void>;
  /** Nearest vectors of the same model, best first. */
  query(vector: readonly number[], q: VectorQuery): Promise<VectorMatch[]>;
  /** The stored vector of an item, if it has one of this model. */
  vectorOf(itemId: string, model: string): Promise<number[] | null>;
}

// Vectorize answers at most 100 matches when values and metadata are not returned.
const VECTORIZE_MAX_TOP_K = 100;

/**
 * Production: one shared Vectorize index (cosine metric, 384 dimensions), a
 * namespace per site, and ids `<siteId>:<itemId>` that cannot collide across
 * sites. Metadata `collection` needs a string metadata index for the filter
 * (docs/search.md). The index holds one model's vectors; the model is kept in
 * metadata too and checked by the site, which drops any other model's match.
 */
export class VectorizeVectorIndex implements VectorIndex {
  #index: VectorizeIndex;
  #siteId: string;

  constructor(index: VectorizeIndex, siteId: string) {
    this.#index = index;
    this.#siteId = siteId;
  }

  #id(itemId: string): string {
    return `${this.#siteId}:${itemId}`;
  }

  async upsert(entries: readonly VectorEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.#index.upsert(
      entries.map((e) => ({
        id: this.#id(e.itemId),
        namespace: this.#siteId,
        values: [...e.vector],
        metadata: { collection: e.collectionId, model: e.model, item: e.itemId },
      })),
    );
  }

  async remove(itemIds: readonly string[]): Promise<void> {
    if (itemIds.length) await this.#index.deleteByIds(itemIds.map((id) => this.#id(id)));
  }

  async query(vector: readonly number[], q: VectorQuery): Promise<VectorMatch[]> {
    const extra = q.excludeItemId ? 1 : 0;
    const result = await this.#index.query([...vector], {
      topK: Math.min(VECTORIZE_MAX_TOP_K, q.topK + extra),
      namespace: this.#siteId,
      returnValues: false,
      returnMetadata: "none",
      ...(q.collectionId ? { filter: { collection: q.collectionId } } : {}),
    });
    const prefix = `${this.#siteId}:`;
    return result.matches
      .filter((m) => m.id.startsWith(prefix))
      .map((m) => ({ itemId: m.id.slice(prefix.length), score: m.score }))
      .filter((m) => m.itemId !== q.excludeItemId)
      .slice(0, q.topK);
  }

  async vectorOf(itemId: string, model: string): Promise<number[] | null> {
    const [v] = await this.#index.getByIds([this.#id(itemId)]);
    if (!v) return null;
    const meta = v.metadata as { model?: unknown } | undefined;
    if (meta?.model !== undefined && meta.model !== model) return null;
    return Array.from(v.values);
  }
}
