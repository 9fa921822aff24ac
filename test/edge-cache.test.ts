import { describe, expect, it } from "vitest";
import { addItem, call, callJson, expectStatus, newBlog, OPERATOR } from "./helpers";

describe("edge cache", () => {
  it("caches 200s publicly for a year with a strong ETag, and answers If-None-Match with 304", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const url = `/v1/${site.token}/collections/posts/items`;
    const first = await call("GET", url);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, s-maxage=31536000");
    expect(first.headers.get("cache-tag")).toMatch(new RegExp(`^site:${site.id},collection:co_`));
    expect(first.headers.get("x-cache")).toBe("MISS");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const second = await call("GET", url);
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.headers.get("etag")).toBe(etag);
    const firstText = await first.text();
    expect(await second.text()).toBe(firstText);
    // Repeated hits from the isolate's memory tier keep serving the whole body.
    for (let i = 0; i < 3; i++) expect(await (await call("GET", url)).text()).toBe(firstText);
    const conditional = await call("GET", url, { headers: { "if-none-match": etag as string } });
    expect(conditional.status).toBe(304);
    expect(await conditional.text()).toBe("");
    const other = await call("GET", url, { headers: { "if-none-match": '"nope"' } });
    expect(other.status).toBe(200);
  });

  it("caches the single-item endpoint too", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    await call("GET", `/v1/${site.token}/collections/posts/items/a`);
    const hit = await call("GET", `/v1/${site.token}/collections/posts/items/a`);
    expect(hit.headers.get("x-cache")).toBe("HIT");
  });

  it("never caches errors", async () => {
    const site = await newBlog();
    const r = await call("GET", `/v1/${site.token}/collections/posts/items/missing`);
    expect(r.status).toBe(404);
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  it.each(["publish", "unpublish", "edit", "delete"] as const)("shows the new state right after %s", async (change) => {
    const site = await newBlog();
    const item = await addItem(site, "posts", { slug: "a", data: { title: "Old" }, publish: change !== "publish" });
    const listUrl = `/v1/${site.token}/collections/posts/items`;
    const itemUrl = `${listUrl}/a`;
    const warm = async () => {
      await call("GET", listUrl);
      await call("GET", itemUrl);
      expect((await call("GET", listUrl)).headers.get("x-cache")).toBe("HIT");
    };
    await warm();
    const base = `/sites/${site.id}/collections/posts/items/${item.id}`;
    if (change === "publish") await expectStatus(callJson("POST", `${base}/publish`, { auth: site.adminKey }), 200);
    if (change === "unpublish") await expectStatus(callJson("POST", `${base}/unpublish`, { auth: site.adminKey }), 200);
    if (change === "edit") await expectStatus(callJson("PATCH", base, { auth: site.adminKey, body: { data: { title: "New" } } }), 200);
    if (change === "delete") await expectStatus(callJson("DELETE", base, { auth: site.adminKey }), 200);

    const listed = await callJson<{ items: { data: { title: string } }[] }>("GET", listUrl);
    const single = await call("GET", itemUrl);
    if (change === "publish") {
      expect(listed.body.items.map((i) => i.data.title)).toEqual(["Old"]);
      expect(single.status).toBe(200);
    } else if (change === "edit") {
      expect(listed.body.items.map((i) => i.data.title)).toEqual(["New"]);
      expect(((await single.json()) as { item: { data: { title: string } } }).item.data.title).toBe("New");
    } else {
      expect(listed.body.items).toEqual([]);
      expect(single.status).toBe(404);
    }
  });

  it("does not let one site's change retire another site's cache", async () => {
    const a = await newBlog();
    const b = await newBlog();
    await addItem(b, "posts", { slug: "b", data: { title: "B" }, publish: true });
    const url = `/v1/${b.token}/collections/posts/items`;
    await call("GET", url);
    await addItem(a, "posts", { slug: "a", data: { title: "A" }, publish: true });
    expect((await call("GET", url)).headers.get("x-cache")).toBe("HIT");
  });

  it("checks the plan before the cache, so an upgrade answers 200 on the same URL at once", async () => {
    const site = await newBlog("starter");
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const url = `/v1/${site.token}/collections/posts/items?search=a`;
    expect((await call("GET", url)).status).toBe(403);
    expect((await call("GET", url)).status).toBe(403);
    await expectStatus(callJson("PATCH", `/workspaces/${site.workspaceId}`, { auth: OPERATOR, body: { plan: "pro" } }), 200);
    const after = await call("GET", url);
    expect(after.status).toBe(200);
    expect(after.headers.get("x-cache")).toBe("MISS");
  });
});
