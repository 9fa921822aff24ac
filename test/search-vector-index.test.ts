import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { embeddingText } from "../actors/site/search/embed-text";
import { plainText } from "../actors/site/content/plain-text";
import { compactVectors, SqliteVectorIndex, vectorsCompacted } from "../actors/site/search/sqlite-index";
import { decode, rowCodes } from "../actors/site/search/vector-codes";
import type { Collection } from "../actors/site/storage/rows";
import { cosine } from "./search-helpers";
import { runSiteMigrations } from "../actors/site/storage/migrations";

/** A Site object's database with its schema (an object where no site was created writes nothing by itself). */
async function siteSql(state: DurableObjectState): Promise<SqlStorage> {
  await runSiteMigrations(state.storage);
  return state.storage.sql;
}

/** The vector the index holds for `v`: its unit vector's int8 codes, decoded. */
const asStored = (v: readonly number[]): number[] => {
  const norm = Math.hypot(...v);
  return Array.from(decode(rowCodes(Float32Array.from(v, (x) => x / norm))));
};

// Pure logic with deterministic vectors: no model involved.
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
}

describe("local vector index (exact cosine scan)", () => {
  it("scores vectors whose length is not a multiple of four lanes, and grows past its first 1,024 rows", async () => {
    const stub = env.SITE.get(env.SITE.idFromName(`vector-index-odd-${crypto.randomUUID()}`));
    const result = await runInDurableObject(stub, async (_instance, state) => {
      const index = new SqliteVectorIndex(await siteSql(state));
      const rand = rng(11);
      const vectors = Array.from({ length: 1500 }, () => Array.from({ length: 10 }, rand));
      await index.upsert(vectors.map((vector, i) => ({ itemId: `it_${i}`, collectionId: "co", model: "odd", vector })));
      const q = Array.from({ length: 10 }, rand);
      const got = await index.query(q, { model: "odd", topK: 3 });
      const want = vectors
        .map((v, i) => ({ itemId: `it_${i}`, score: cosine(q, asStored(v)), exact: cosine(q, v) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 3);
      return { got, want };
    });
    // The scan ranks as an exact cosine over the stored codes, within 1e-4 of it and 0.01 of the
    // float vectors' cosine (ten components: far coarser than a model's 384).
    expect(result.got.map((g) => g.itemId)).toEqual(result.want.map((w) => w.itemId));
    result.got.forEach((g, i) => expect(g.score).toBeCloseTo(result.want[i]!.score, 4));
    result.got.forEach((g, i) => expect(Math.abs(g.score - result.want[i]!.exact)).toBeLessThan(0.01));
  });

  it("matches a brute-force scan through upserts, overwrites and removals, per model and collection", async () => {
    const stub = env.SITE.get(env.SITE.idFromName(`vector-index-${crypto.randomUUID()}`));
    const results = await runInDurableObject(stub, async (_instance, state) => {
      const index = new SqliteVectorIndex(await siteSql(state));
      const rand = rng(7);
      const truth = new Map<string, { collectionId: string; model: string; vector: number[] }>();
      const vec = () => Array.from({ length: 16 }, rand);
      const checks: { got: string[]; want: string[] }[] = [];
      const check = async (q: number[], collectionId?: string, excludeItemId?: string) => {
        const got = await index.query(q, {
          model: "m1",
          topK: 5,
          ...(collectionId ? { collectionId } : {}),
          ...(excludeItemId ? { excludeItemId } : {}),
        });
        const want = [...truth.entries()]
          .filter(([id, t]) => t.model === "m1" && (!collectionId || t.collectionId === collectionId) && id !== excludeItemId)
          .map(([id, t]) => ({ id, score: cosine(q, asStored(t.vector)) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 5);
        checks.push({ got: got.map((g) => g.itemId), want: want.map((w) => w.id) });
        got.forEach((g, i) => expect(g.score).toBeCloseTo(want[i]!.score, 4));
      };
      for (let round = 0; round < 6; round++) {
        const batch = Array.from({ length: 40 }, (_, i) => ({
          itemId: `it_${(round * 17 + i * 7) % 90}`,
          collectionId: i % 3 === 0 ? "co_a" : "co_b",
          model: i % 5 === 0 ? "m2" : "m1",
          vector: vec(),
        }));
        await index.upsert(batch);
        for (const e of batch) truth.set(e.itemId, { collectionId: e.collectionId, model: e.model, vector: e.vector });
        const gone = [...truth.keys()].filter((_, i) => i % (round + 3) === 0);
        await index.remove(gone);
        for (const id of gone) truth.delete(id);
        await check(vec());
        await check(vec(), "co_a");
        await check(vec(), undefined, [...truth.keys()][0]);
      }
      // A fresh instance reads the same rows back from SQLite.
      const reloaded = await new SqliteVectorIndex(await siteSql(state)).query(vec(), { model: "m1", topK: 500 });
      const m1 = [...truth.values()].filter((t) => t.model === "m1").length;
      const stored = [...truth.entries()].find(([, t]) => t.model === "m1")!;
      const back = await index.vectorOf(stored[0], "m1");
      const otherModel = await index.vectorOf(stored[0], "m2");
      return { checks, reloaded: reloaded.length, m1, backCos: cosine(back!, stored[1].vector), otherModel };
    });
    for (const c of results.checks) expect(c.got).toEqual(c.want);
    expect(results.reloaded).toBe(results.m1);
    expect(results.backCos).toBeGreaterThan(0.999);
    expect(results.otherModel).toBeNull();
  });
});

describe("the index's int8 codes", () => {
  it("keep a 384-component vector's direction to a cosine above 0.9999", () => {
    const rand = rng(5);
    for (let n = 0; n < 50; n++) {
      // A sum of uniforms: about Gaussian, like a model's components.
      const v = Array.from({ length: 384 }, () => rand() + rand() + rand());
      expect(cosine(v, asStored(v))).toBeGreaterThan(0.9999);
    }
  });

  it("reads float32 rows stored before the codes, and rewrites them in slices without changing an answer", async () => {
    const stub = env.SITE.get(env.SITE.idFromName(`vector-index-float-${crypto.randomUUID()}`));
    const r = await runInDurableObject(stub, async (_instance, state) => {
      const sql = await siteSql(state);
      const rand = rng(3);
      const vectors = Array.from({ length: 2100 }, () => Array.from({ length: 24 }, rand));
      for (const [i, v] of vectors.entries()) {
        const norm = Math.hypot(...v);
        sql.exec(
          "INSERT INTO item_vectors (item_id, collection_id, model, vector) VALUES (?, 'co', 'm', ?)",
          `it_${i}`,
          Float32Array.from(v, (x) => x / norm).buffer,
        );
      }
      const q = Array.from({ length: 24 }, rand);
      const before = await new SqliteVectorIndex(sql).query(q, { model: "m", topK: 10 });
      const slices: boolean[] = [vectorsCompacted(sql)];
      while (compactVectors(state.storage)) slices.push(vectorsCompacted(sql));
      const bytes = sql
        .exec<{ b: number; n: number }>("SELECT max(length(vector)) AS b, count(*) AS n FROM item_vectors WHERE scale IS NOT NULL")
        .one();
      const after = await new SqliteVectorIndex(sql).query(q, { model: "m", topK: 10 });
      const want = vectors
        .map((v, i) => ({ itemId: `it_${i}`, score: cosine(q, asStored(v)) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
      return { before, after, slices, compacted: vectorsCompacted(sql), bytes, want };
    });
    expect(r.before.map((m) => m.itemId)).toEqual(r.want.map((w) => w.itemId));
    expect(r.after).toEqual(r.before);
    // Two slices of 1,000 and the last 100; 24 bytes a row instead of 96.
    expect(r.slices).toEqual([false, false, false]);
    expect(r.compacted).toBe(true);
    expect(r.bytes).toEqual({ b: 24, n: 2100 });
  });
});

describe("embedding text", () => {
  const collection = {
    fields: [
      { key: "summary", type: "text", indexed: true },
      { key: "title", type: "text" },
      { key: "notes", type: "text" },
      { key: "body", type: "richText" },
      { key: "url", type: "link", indexed: true },
      { key: "views", type: "number", indexed: true },
    ],
  } as unknown as Collection;

  it("takes the title, the indexed text fields and stripped rich text, in that order", () => {
    const text = embeddingText(
      collection,
      {
        title: "Puppy  training!",
        summary: "Sit, stay.",
        notes: "internal only",
        body: "<p>Use <b>treats</b> &amp; praise.</p><script>x()</script>",
        url: "https://a.test",
        views: 3,
      },
      1000,
    );
    expect(text).toBe("Puppy training. Sit, stay. Use treats & praise");
  });

  it("cuts to the model's input size at a word boundary", () => {
    const text = embeddingText(collection, { title: "word ".repeat(100) }, 42);
    expect(text.length).toBeLessThanOrEqual(42);
    expect(text.endsWith("word")).toBe(true);
  });

  it("decodes entities and drops comments and styles", () => {
    expect(plainText("<style>p{}</style>a&#233;&#x41;<!-- no -->&nbsp;b").replace(/\s+/g, " ").trim()).toBe("aéA b");
  });
});
