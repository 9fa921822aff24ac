import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EmbeddingError, LocalEmbedder, WorkersAiEmbedder, embedderFor } from "../src/search/embedder";
import { LOCAL_MODEL, WORKERS_AI_MODEL } from "../src/search/models";
import reference from "./fixtures/use-lite-reference.json";

// The real local model behind the EMBEDDER binding (the auxiliary embedder Worker).
describe("local embedder client", () => {
  it("gives the vectors tfjs's own kernels give (embedder/reference-vectors.mjs), in a batch and alone", async () => {
    const embedder = new LocalEmbedder(env.EMBEDDER!);
    const together = await embedder.embed(reference.texts);
    const alone = await Promise.all(reference.texts.map(async (t) => (await embedder.embed([t]))[0]!));
    for (const [i, want] of reference.vectors.entries()) {
      for (const got of [together[i]!, alone[i]!]) {
        expect(Math.max(...want.map((x, j) => Math.abs(x - got[j]!))), reference.texts[i]).toBeLessThan(1e-5);
      }
    }
  });

  it("sends a large batch as several requests and returns the vectors in the order of the texts", async () => {
    const embedder = new LocalEmbedder(env.EMBEDDER!);
    const texts = Array.from(
      { length: 37 },
      (_, i) => `Note ${i}: ${i % 2 ? "training a puppy to sit" : "filing quarterly taxes"} on day ${i}`,
    );
    const together = await embedder.embed(texts);
    expect(together).toHaveLength(texts.length);
    // Each text alone, in a shuffled order: the batch must give each text its own vector.
    for (const i of [36, 0, 17, 16, 5, 31]) {
      const [alone] = await embedder.embed([texts[i]!]);
      const diff = Math.max(...alone!.map((x, j) => Math.abs(x - together[i]![j]!)));
      expect(diff, `text ${i}`).toBeLessThan(1e-4);
    }
  });
});

// Workers AI cannot run offline: a stand-in `AI` binding answers in the shape bge-small-en-v1.5
// documents ({shape, data}), or misbehaves, and the client's handling of each answer is checked.
function fakeAi(answer: (inputs: { text: string[] }) => unknown) {
  const calls: { model: string; inputs: { text: string[] } }[] = [];
  const ai = {
    async run(model: string, inputs: { text: string[] }) {
      calls.push({ model, inputs });
      return answer(inputs);
    },
  };
  return { ai: ai as unknown as Ai, calls };
}

describe("Workers AI embedder client", () => {
  it("asks bge-small-en-v1.5 for the whole batch and returns its vectors in order", async () => {
    const { ai, calls } = fakeAi(({ text }) => ({ shape: [text.length, 3], data: text.map((t) => [t.length, 0, 1]) }));
    const vectors = await new WorkersAiEmbedder(ai).embed(["a", "bbb"]);
    expect(calls).toEqual([{ model: WORKERS_AI_MODEL, inputs: { text: ["a", "bbb"] } }]);
    expect(vectors).toEqual([
      [1, 0, 1],
      [3, 0, 1],
    ]);
  });

  it("turns a failing call, a short answer and a malformed vector into EmbeddingError", async () => {
    const failing = fakeAi(() => {
      throw new Error("3040: capacity exceeded");
    });
    await expect(new WorkersAiEmbedder(failing.ai).embed(["a"])).rejects.toThrow(EmbeddingError);
    const short = fakeAi(() => ({ shape: [1, 3], data: [[1, 2, 3]] }));
    await expect(new WorkersAiEmbedder(short.ai).embed(["a", "b"])).rejects.toThrow(EmbeddingError);
    const malformed = fakeAi(() => ({ shape: [1, 3], data: [[1, Number.NaN, 3]] }));
    await expect(new WorkersAiEmbedder(malformed.ai).embed(["a"])).rejects.toThrow(EmbeddingError);
  });

  it("is chosen by configuration alone", () => {
    const { ai } = fakeAi(() => null);
    expect(embedderFor({ ...env, SEARCH_EMBEDDER: "workers-ai", AI: ai }).model).toBe(WORKERS_AI_MODEL);
    expect(embedderFor({ ...env, SEARCH_EMBEDDER: "local" }).model).toBe(LOCAL_MODEL);
    expect(() => embedderFor({ ...env, SEARCH_EMBEDDER: "workers-ai", AI: undefined })).toThrow(/no AI binding/);
  });
});
