import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../src/search/embedder";

// The real local model behind the EMBEDDER binding (the auxiliary embedder Worker).
describe("local embedder client", () => {
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
