import { describe, expect, it } from "vitest";
import { callJson, expectStatus, OPERATOR } from "./helpers";
import { runInDurableObject } from "cloudflare:test";
import { type SearchBody, settleIndex, siteObject, siteWith, slugsOf } from "./search-helpers";

describe("search plans", () => {
  it("refuses both endpoints below Pro with plan_required, and serves them right after an upgrade", async () => {
    const site = await siteWith([{ slug: "puppy", title: "Teaching a puppy to sit" }], "starter");
    const urls = [`/v1/${site.token}/search?q=puppy`, `/v1/${site.token}/collections/notes/items/puppy/related`];
    for (const url of urls) {
      const r = await callJson<{ error: { code: string; details: { feature: string } } }>("GET", url);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("plan_required");
      expect(r.body.error.details.feature).toBe("aiSearch");
      expect(r.res.headers.get("cache-control")).toBe("no-store");
    }
    // Below Pro nothing is embedded, and the dashboard shows no index state.
    const { body } = await callJson<{ items: { searchIndex: unknown }[] }>("GET", `/sites/${site.id}/collections/notes/items`, {
      auth: site.adminKey,
    });
    expect(body.items[0]!.searchIndex).toBeNull();

    await expectStatus(callJson("PATCH", `/workspaces/${site.workspaceId}`, { auth: OPERATOR, body: { plan: "pro" } }), 200);
    await settleIndex(site);
    const after = await callJson<{ results: { item: { slug: string } }[] }>("GET", urls[0]!);
    expect(after.status).toBe(200);
    expect(after.body.results.map((r) => r.item.slug)).toEqual(["puppy"]);
    expect((await callJson("GET", urls[1]!)).status).toBe(200);
  });

  it("queues nothing while the plan has no search, and indexes what changed meanwhile when search comes back", async () => {
    const site = await siteWith([{ slug: "puppy", title: "Teaching a puppy to sit" }], "pro");
    await settleIndex(site);
    const q = (text: string) => `/v1/${site.token}/search?q=${encodeURIComponent(text)}`;
    expect(slugsOf((await callJson<SearchBody>("GET", q("teaching a puppy to sit"))).body)).toEqual(["puppy"]);
    const queueRows = () =>
      runInDurableObject(siteObject(site), (_i, state) =>
        state.storage.sql.exec<{ item_id: string; state: string; gen: number }>("SELECT item_id, state, gen FROM search_index").toArray(),
      );
    const indexed = await queueRows();
    expect(indexed).toEqual([expect.objectContaining({ state: "indexed" })]);
    await expectStatus(callJson("PATCH", `/workspaces/${site.workspaceId}`, { auth: OPERATOR, body: { plan: "starter" } }), 200);
    // Edits and a new item on the plan without search: no queue row is written for them.
    const items = `/sites/${site.id}/collections/notes/items`;
    const { body } = await callJson<{ items: { id: string; slug: string }[] }>("GET", items, { auth: site.adminKey });
    const puppy = body.items.find((i) => i.slug === "puppy")!;
    await expectStatus(
      callJson("PATCH", `${items}/${puppy.id}`, { auth: site.adminKey, body: { data: { title: "Grooming a poodle at home" } } }),
      200,
    );
    await expectStatus(
      callJson("POST", items, { auth: site.adminKey, body: { slug: "kitten", publish: true, data: { title: "Feeding a kitten" } } }),
      201,
    );
    expect(await queueRows()).toEqual(indexed);
    expect(indexed[0]!.item_id).toBe(puppy.id);
    // Back on Pro: both are queued and indexed with what they say now.
    await expectStatus(callJson("PATCH", `/workspaces/${site.workspaceId}`, { auth: OPERATOR, body: { plan: "pro" } }), 200);
    await settleIndex(site);
    // (Semantic search may list the other one too, further down.)
    expect(slugsOf((await callJson<SearchBody>("GET", q("grooming a poodle at home"))).body)[0]).toBe("puppy");
    expect(slugsOf((await callJson<SearchBody>("GET", q("feeding a kitten"))).body)[0]).toBe("kitten");
    const after = await queueRows();
    expect(after.map((r) => r.state)).toEqual(["indexed", "indexed"]);
    expect(after.find((r) => r.item_id === puppy.id)!.gen).toBeGreaterThan(indexed[0]!.gen);
  });
});
