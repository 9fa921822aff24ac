import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson, expectStatus } from "./helpers";
import { checkAnswer } from "./contract/document";
import { queuedCount, siteObject, siteWith } from "./search-helpers";

// In this project the EMBEDDER service answers every call with 503.
type DashboardItem = { id: string; slug: string; searchIndex: { state: string; reason?: string } | null };

const MODEL = "use-lite@energetic-ai-0.2.0";

describe("when the embedding model is down", () => {
  it("answers search with 502 embedding_failed, never cached", async () => {
    const site = await siteWith([{ slug: "a", title: "Teaching a puppy to sit" }]);
    for (let i = 0; i < 2; i++) {
      const r = await callJson<{ error: { code: string; message: string } }>("GET", `/v1/${site.token}/search?q=puppy`);
      expect(r.status).toBe(502);
      expect(r.body.error.code).toBe("embedding_failed");
      expect(r.body.error.message).not.toMatch(/503|unavailable right now.*status/);
      expect(r.res.headers.get("cache-control")).toBe("no-store");
    }
    // Held to openapi.json too: the contract test's workerd project has a working model.
    const path = `/v1/${site.token}/search?q=puppy`;
    const checked = await checkAnswer("search", "GET", path, await call("GET", path));
    expect(checked.answer).toBe("search 502 embedding_failed");
    expect(checked.problems).toEqual([]);
  });

  it("still publishes at once, retries with backoff on the alarm, then marks the item failed with the reason", async () => {
    const site = await siteWith([{ slug: "a", title: "Teaching a puppy to sit" }]);
    const stub = siteObject(site);
    const jobOf = () =>
      runInDurableObject(
        stub,
        (_i, state) =>
          state.storage.sql
            .exec<{ run_at: number; attempts: number }>("SELECT run_at, attempts FROM jobs WHERE kind = 'index'")
            .toArray()[0],
      );
    // The site's own alarm may also fire in between, so only the order is asserted.
    const attempts: number[] = [];
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      // Make the retry due now instead of waiting out the backoff.
      await runInDurableObject(stub, (_i, state) => {
        state.storage.sql.exec("UPDATE jobs SET run_at = 0 WHERE kind = 'index'");
      });
      await runDurableObjectAlarm(stub);
      const job = await jobOf();
      if (!job) break;
      attempts.push(job.attempts);
      delays.push(job.run_at - Date.now());
    }
    expect(await jobOf()).toBeUndefined();
    expect(attempts.at(-1)).toBe(5);
    expect([...attempts].sort((a, b) => a - b)).toEqual(attempts);
    expect(new Set(attempts).size).toBe(attempts.length);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]!);
    const { body } = await callJson<{ items: DashboardItem[] }>("GET", `/sites/${site.id}/collections/notes/items`, {
      auth: site.adminKey,
    });
    expect(body.items[0]!.searchIndex?.state).toBe("failed");
    expect(body.items[0]!.searchIndex?.reason).toMatch(/embedding model failed/);
    expect(await queuedCount(site)).toBe(0);
    // Publishing again puts it back in the queue.
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/notes/items/${body.items[0]!.id}/publish`, { auth: site.adminKey }),
      200,
    );
    expect(await queuedCount(site)).toBe(1);
  });

  it("serves related items from stored vectors without calling the model", async () => {
    const site = await siteWith([
      { slug: "a", title: "A" },
      { slug: "b", title: "B" },
      { slug: "c", title: "C" },
    ]);
    // Vectors as an earlier, healthy run of the model would have stored them.
    await runInDurableObject(siteObject(site), (_i, state) => {
      const sql = state.storage.sql;
      const vectors: Record<string, number[]> = { a: [1, 0, 0], b: [0.9, 0.1, 0], c: [0, 0, 1] };
      for (const row of sql
        .exec<{ id: string; slug: string; collection_id: string }>("SELECT id, slug, collection_id FROM items")
        .toArray()) {
        const v = Float32Array.from(vectors[row.slug]!.map((x) => x / Math.hypot(...vectors[row.slug]!)));
        sql.exec(
          "INSERT INTO item_vectors (item_id, collection_id, model, vector) VALUES (?, ?, ?, ?)",
          row.id,
          row.collection_id,
          MODEL,
          v.buffer,
        );
        sql.exec("UPDATE search_index SET state = 'indexed', model = ?, text_hash = 'x' WHERE item_id = ?", MODEL, row.id);
      }
      sql.exec("DELETE FROM jobs");
    });
    const r = await callJson<{ items: { slug: string }[] }>("GET", `/v1/${site.token}/collections/notes/items/a/related`);
    expect(r.status).toBe(200);
    expect(r.body.items.map((i) => i.slug)).toEqual(["b"]);
    // The same site's search does need the model, and fails: related never asked it.
    expect((await callJson("GET", `/v1/${site.token}/search?q=a`)).status).toBe(502);
  });
});
