import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson, expectStatus, type TestSite } from "./helpers";
import { indexedItemsSql } from "../actors/site/storage/items-table";
import { queuedCount, type SearchBody, settleIndex, siteObject, siteWith, slugsOf } from "./search-helpers";

type DashboardItem = { id: string; status: string; searchIndex: { state: string; model?: string; reason?: string } | null };

const search = async (site: TestSite, q: string, extra = "") =>
  (await expectStatus(callJson<SearchBody>("GET", `/v1/${site.token}/search?q=${encodeURIComponent(q)}${extra}`), 200)) as SearchBody;

async function itemOf(site: TestSite, slug: string, collection = "notes"): Promise<DashboardItem & { slug: string }> {
  const { body } = await callJson<{ items: (DashboardItem & { slug: string })[] }>(
    "GET",
    `/sites/${site.id}/collections/${collection}/items?limit=100`,
    { auth: site.adminKey },
  );
  const item = body.items.find((i) => i.slug === slug);
  if (!item) throw new Error(`no item ${slug}`);
  return item;
}

describe("search indexing", () => {
  it("publishes at once with the item pending, then indexes it on the alarm", async () => {
    const site = await siteWith([]);
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/notes`, { auth: site.adminKey, body: { fields: [{ key: "title", type: "text" }] } }),
      201,
    );
    const created = await expectStatus(
      callJson<{ item: DashboardItem }>("POST", `/sites/${site.id}/collections/notes/items`, {
        auth: site.adminKey,
        body: { slug: "puppy", data: { title: "Teaching a puppy to sit and stay" }, publish: true },
      }),
      201,
    );
    expect(created.item.searchIndex).toEqual({ state: "pending" });
    await settleIndex(site);
    const after = await itemOf(site, "puppy");
    expect(after.searchIndex).toMatchObject({ state: "indexed", model: "use-lite@energetic-ai-0.2.0" });
    expect(slugsOf(await search(site, "dog obedience for a young pup"))).toEqual(["puppy"]);
  });

  it("never indexes drafts", async () => {
    const site = await siteWith([]);
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/notes`, { auth: site.adminKey, body: { fields: [{ key: "title", type: "text" }] } }),
      201,
    );
    const draft = await expectStatus(
      callJson<{ item: DashboardItem }>("POST", `/sites/${site.id}/collections/notes/items`, {
        auth: site.adminKey,
        body: { slug: "draft", data: { title: "Teaching a puppy to sit and stay" } },
      }),
      201,
    );
    expect(draft.item.searchIndex).toBeNull();
    expect(await queuedCount(site)).toBe(0);
    expect((await search(site, "teaching a puppy to sit")).results).toEqual([]);
  });

  it("re-embeds a published item when it is edited", async () => {
    const site = await siteWith([{ slug: "note", title: "Teaching a puppy to sit and stay" }]);
    await settleIndex(site);
    const item = await itemOf(site, "note");
    const patched = await expectStatus(
      callJson<{ item: DashboardItem }>("PATCH", `/sites/${site.id}/collections/notes/items/${item.id}`, {
        auth: site.adminKey,
        body: { data: { title: "Paying quarterly estimated income taxes to the IRS" } },
      }),
      200,
    );
    expect(patched.item.searchIndex?.state).toBe("pending");
    await settleIndex(site);
    expect(slugsOf(await search(site, "when are estimated tax payments due"))).toEqual(["note"]);
    expect((await search(site, "teaching a puppy to sit")).results).toEqual([]);
  });

  it.each(["unpublish", "delete"] as const)("removes an item from results on %s", async (change) => {
    const site = await siteWith([
      { slug: "keep", title: "Teaching a puppy to sit and stay" },
      { slug: "gone", title: "House-training a young puppy" },
    ]);
    await settleIndex(site);
    const q = "puppy training";
    expect(new Set(slugsOf(await search(site, q)))).toEqual(new Set(["keep", "gone"]));
    const gone = await itemOf(site, "gone");
    const base = `/sites/${site.id}/collections/notes/items/${gone.id}`;
    if (change === "unpublish") await expectStatus(callJson("POST", `${base}/unpublish`, { auth: site.adminKey }), 200);
    else await expectStatus(callJson("DELETE", base, { auth: site.adminKey }), 200);
    // Gone from results at once, before the vector itself is removed.
    expect(slugsOf(await search(site, q))).toEqual(["keep"]);
    await settleIndex(site);
    expect(slugsOf(await search(site, q))).toEqual(["keep"]);
    if (change === "unpublish") expect((await itemOf(site, "gone")).searchIndex).toBeNull();
  });

  it("shows a newly indexed item on a search URL that was already cached", async () => {
    const site = await siteWith([{ slug: "first", title: "Teaching a puppy to sit and stay" }]);
    await settleIndex(site);
    const url = `/v1/${site.token}/search?q=${encodeURIComponent("puppy training")}`;
    await call("GET", url);
    const hit = await call("GET", url);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(hit.headers.get("cache-control")).toBe("public, s-maxage=31536000");
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/notes/items`, {
        auth: site.adminKey,
        body: { slug: "second", data: { title: "House-training a young puppy" }, publish: true },
      }),
      201,
    );
    await settleIndex(site);
    const fresh = await callJson<SearchBody>("GET", url);
    expect(new Set(slugsOf(fresh.body))).toEqual(new Set(["first", "second"]));
  });

  it("indexing a change retires search answers only: lists and items cached since the change stay valid", async () => {
    const site = await siteWith([{ slug: "first", title: "Teaching a puppy to sit and stay" }]);
    await settleIndex(site);
    const search = `/v1/${site.token}/search?q=${encodeURIComponent("puppy training")}`;
    const list = `/v1/${site.token}/collections/notes/items`;
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/notes/items`, {
        auth: site.adminKey,
        body: { slug: "second", data: { title: "House-training a young puppy" }, publish: true },
      }),
      201,
    );
    const before = await siteObject(site).metaForHost();
    // Both read at the new content version, before the index has embedded the new item.
    for (const url of [list, search]) await (await call("GET", url)).arrayBuffer();
    await settleIndex(site);
    const after = await siteObject(site).metaForHost();
    expect(after?.version).toBe(before?.version);
    expect(after!.searchVersion).toBeGreaterThan(before!.searchVersion);
    // Past the front Worker's site memo (SITE_META_TTL_MS, 1 s) and the stale bound (STALE_MS, 1.5 s
    // since the write): it has learnt the new search version and serves nothing older.
    await scheduler.wait(1600);
    const listAgain = await call("GET", list);
    expect(listAgain.headers.get("x-cache")).toBe("HIT");
    await listAgain.arrayBuffer();
    const fresh = await callJson<SearchBody>("GET", search);
    expect(new Set(slugsOf(fresh.body))).toEqual(new Set(["first", "second"]));
  });

  it("keeps every site's vectors to itself", async () => {
    const a = await siteWith([{ slug: "a-puppy", title: "Teaching a puppy to sit and stay" }]);
    const b = await siteWith([{ slug: "b-taxes", title: "Paying quarterly estimated taxes" }]);
    await settleIndex(a);
    await settleIndex(b);
    expect(slugsOf(await search(b, "teaching a puppy to sit and stay"))).toEqual([]);
    expect(slugsOf(await search(a, "teaching a puppy to sit and stay"))).toEqual(["a-puppy"]);
  });

  it("marks an item with nothing to embed as failed with the reason", async () => {
    const site = await siteWith([]);
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/links`, { auth: site.adminKey, body: { fields: [{ key: "url", type: "link" }] } }),
      201,
    );
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/links/items`, {
        auth: site.adminKey,
        body: { slug: "bare", data: { url: "https://example.com" }, publish: true },
      }),
      201,
    );
    await settleIndex(site);
    const item = await itemOf(site, "bare", "links");
    expect(item.searchIndex).toEqual({ state: "failed", reason: "The item has no title or text to embed." });
  });
});

describe("search index across model changes", () => {
  it("queues items indexed with another model again when the site object starts", async () => {
    const site = await siteWith([{ slug: "puppy", title: "Teaching a puppy to sit and stay" }]);
    await settleIndex(site);
    // As if the item had been indexed by a model this configuration no longer uses.
    await runInDurableObject(siteObject(site), (_i, state) => {
      state.storage.sql.exec("UPDATE search_index SET model = 'some-older-model'");
    });
    // Another limit is another cache entry (an unknown parameter would share the first one).
    expect((await search(site, "teaching a puppy to sit", "&limit=11")).results).toEqual([]);
    await evictDurableObject(siteObject(site));
    await settleIndex(site);
    expect(slugsOf(await search(site, "teaching a puppy to sit", "&limit=12"))).toEqual(["puppy"]);
  });

  it("reads the matched items by their ids, never by walking every indexed row", async () => {
    const site = await siteWith([{ slug: "a", title: "A note" }]);
    const ids = Array.from({ length: 15 }, () => "?").join(",");
    const plan = await runInDurableObject(siteObject(site), (_i, state) =>
      state.storage.sql
        .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${indexedItemsSql(ids)}`, "model", ...Array.from({ length: 15 }, (_, i) => `it_${i}`))
        .toArray()
        .map((r) => r.detail)
        .join("\n"),
    );
    expect(plan).toMatch(/SEARCH items USING INDEX sqlite_autoindex_items_1 \(id=\?\)/);
    expect(plan).not.toMatch(/search_index_by_state|SCAN/);
  });
});
