import { describe, expect, it } from "vitest";
import { VectorizeVectorIndex } from "../src/search/vector-index";
import { cosine } from "./search-helpers";

// Vectorize has no local emulation, so production's adapter is checked against an in-memory
// model of the calls it makes, with Vectorize's documented rules: one index shared by every
// site, a query confined to the namespace it names (every vector when it names none), equality
// filters on metadata, ids of at most 64 bytes, upsert overwrites by id, and topK at most 100
// when values and metadata are not returned.
interface Stored {
  id: string;
  namespace?: string;
  values: number[];
  metadata?: Record<string, unknown>;
}

function sharedIndex() {
  const vectors = new Map<string, Stored>();
  const index = {
    async upsert(list: VectorizeVector[]) {
      for (const v of list) {
        if (new TextEncoder().encode(v.id).length > 64) throw new Error(`id over 64 bytes: ${v.id}`);
        vectors.set(v.id, { id: v.id, namespace: v.namespace, values: Array.from(v.values), metadata: v.metadata });
      }
      return { ids: list.map((v) => v.id), count: list.length };
    },
    async deleteByIds(ids: string[]) {
      ids.forEach((id) => vectors.delete(id));
      return { ids, count: ids.length };
    },
    async getByIds(ids: string[]) {
      return ids.flatMap((id) => (vectors.has(id) ? [vectors.get(id)!] : []));
    },
    async query(q: number[], o: VectorizeQueryOptions) {
      const topK = o.topK ?? 5;
      if (topK > 100 || o.returnValues || (o.returnMetadata && o.returnMetadata !== "none")) throw new Error("topK over the limit");
      const filter = Object.entries(o.filter ?? {});
      const matches = [...vectors.values()]
        .filter((v) => (o.namespace === undefined || v.namespace === o.namespace) && filter.every(([k, want]) => v.metadata?.[k] === want))
        .map((v) => ({ id: v.id, score: cosine(q, v.values) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, topK);
      return { matches, count: matches.length };
    },
  };
  return { index: index as unknown as VectorizeIndex, stored: vectors };
}

const dog = [1, 0.1, 0];
const tax = [0, 1, 0.1];
const entry = (itemId: string, vector: number[], collectionId = "co_posts", model = "m1") => ({ itemId, collectionId, model, vector });

describe("Vectorize vector index (production adapter)", () => {
  it("keeps each site in its own namespace with ids that cannot collide, on one shared index", async () => {
    const { index, stored } = sharedIndex();
    const a = new VectorizeVectorIndex(index, "siteaaaaaaaaaaaa");
    const b = new VectorizeVectorIndex(index, "sitebbbbbbbbbbbb");
    // The same item id in two sites (ids are random, but isolation must not depend on it).
    await a.upsert([entry("it_same00000000000000", dog)]);
    await b.upsert([entry("it_same00000000000000", dog), entry("it_b_tax000000000000", tax)]);
    expect([...stored.keys()].sort()).toEqual([
      "siteaaaaaaaaaaaa:it_same00000000000000",
      "sitebbbbbbbbbbbb:it_b_tax000000000000",
      "sitebbbbbbbbbbbb:it_same00000000000000",
    ]);
    expect(await a.query(tax, { model: "m1", topK: 10 })).toEqual([{ itemId: "it_same00000000000000", score: expect.any(Number) }]);
    await a.remove(["it_same00000000000000"]);
    expect(await a.query(dog, { model: "m1", topK: 10 })).toEqual([]);
    expect((await b.query(dog, { model: "m1", topK: 10 })).map((m) => m.itemId)).toEqual(["it_same00000000000000", "it_b_tax000000000000"]);
  });

  it("filters by collection, leaves out the item itself and still answers topK, within Vectorize's limit", async () => {
    const { index } = sharedIndex();
    const site = new VectorizeVectorIndex(index, "sitecccccccccccc");
    await site.upsert([
      entry("it_1", [1, 0, 0]),
      entry("it_2", [0.9, 0.1, 0]),
      entry("it_3", [0.8, 0.2, 0]),
      entry("it_4", [0.95, 0.05, 0], "co_jobs"),
    ]);
    expect((await site.query([1, 0, 0], { model: "m1", topK: 2, excludeItemId: "it_1" })).map((m) => m.itemId)).toEqual(["it_4", "it_2"]);
    expect(
      (await site.query([1, 0, 0], { model: "m1", topK: 2, collectionId: "co_posts", excludeItemId: "it_1" })).map((m) => m.itemId),
    ).toEqual(["it_2", "it_3"]);
    // A caller asking for more than Vectorize serves gets what it serves, not an error.
    expect(await site.query([1, 0, 0], { model: "m1", topK: 500 })).toHaveLength(4);
  });

  it("reads an item's stored vector only for the model asked", async () => {
    const { index } = sharedIndex();
    const site = new VectorizeVectorIndex(index, "sitedddddddddddd");
    await site.upsert([entry("it_1", dog, "co_posts", "model-a")]);
    expect(await site.vectorOf("it_1", "model-a")).toEqual(dog);
    expect(await site.vectorOf("it_1", "model-b")).toBeNull();
    expect(await site.vectorOf("it_missing", "model-a")).toBeNull();
  });
});
