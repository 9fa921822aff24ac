import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { STALE_MS } from "../src/edge/site-meta";
import { ORIGIN, addItem, call, callJson, expectStatus, newBlog } from "./helpers";

const N = 16;

async function together(url: string) {
  const responses = await Promise.all(Array.from({ length: N }, () => call("GET", url)));
  return Promise.all(responses.map(async (r) => ({ status: r.status, cache: r.headers.get("x-cache"), body: await r.text() })));
}

describe("stale while the new version is fetched, within the freshness bound", () => {
  it("after an unpublish, waiters may get the old answer only within the bound; then nobody sees the item", async () => {
    const site = await newBlog();
    const item = await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const url = `/v1/${site.token}/collections/posts/items/a`;
    expect((await call("GET", url)).status).toBe(200);
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${item.id}/unpublish`, { auth: site.adminKey }), 200);

    // The first request reads the new version itself; those that arrive while it runs answer from the old one.
    const during = await together(url);
    expect(during[0]?.status).toBe(404);
    const stale = during.filter((a) => a.cache === "STALE");
    expect(stale.length).toBeGreaterThan(0);
    for (const a of stale) expect(a.status).toBe(200);
    // A request on its own is never given the old version.
    expect((await call("GET", url)).status).toBe(404);

    // Past the bound, the old answer is never served again, however many requests wait together.
    await scheduler.wait(STALE_MS + 50);
    const after = await together(url);
    expect(after.map((a) => a.status)).toEqual(Array(N).fill(404));
  });

  it("after an edit, stale answers are the previous version's, and only within the bound", async () => {
    const site = await newBlog();
    const item = await addItem(site, "posts", { slug: "a", data: { title: "Old" }, publish: true });
    const url = `/v1/${site.token}/collections/posts/items?limit=3`;
    const old = await (await call("GET", url)).text();
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, { auth: site.adminKey, body: { data: { title: "New" } } }),
      200,
    );
    const during = await together(url);
    expect(during[0]?.cache).toBe("MISS");
    expect(during[0]?.body).toContain('"New"');
    for (const a of during.filter((x) => x.cache === "STALE")) expect(a.body).toBe(old);
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, {
        auth: site.adminKey,
        body: { data: { title: "Newer" } },
      }),
      200,
    );
    await scheduler.wait(STALE_MS + 50);
    const after = await together(url);
    for (const a of after) expect(a.body).toContain('"Newer"');
  });

  it("a change made elsewhere: even the first request answers from the previous version, within the bound, while the new one is read once", async () => {
    const site = await newBlog();
    const item = await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const url = `/v1/${site.token}/collections/posts/items/a`;
    expect((await call("GET", url)).status).toBe(200);
    // The write goes to the site object directly, as through another isolate: this one learns the
    // new version only when its memo of the site expires (SITE_META_TTL_MS, 1 s in the tests).
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const unpublished = await stub.fetch(`${ORIGIN}/sites/${site.id}/collections/posts/items/${item.id}/unpublish`, {
      method: "POST",
      headers: { authorization: `Bearer ${site.adminKey}` },
    });
    expect(unpublished.status).toBe(200);
    await scheduler.wait(1050);
    const reads = (await stub.stats()).publicReads;
    const first = await call("GET", url);
    expect(first.headers.get("x-cache")).toBe("STALE");
    expect(first.status).toBe(200);
    // The background read lands; from then on the item is gone for everyone.
    let status = 200;
    let requests = 1;
    for (let i = 0; i < 50 && status === 200; i++, requests++) {
      await scheduler.wait(20);
      status = (await call("GET", url)).status;
    }
    expect(status).toBe(404);
    await scheduler.wait(STALE_MS);
    expect((await together(url)).map((a) => a.status)).toEqual(Array(N).fill(404));
    // Reads of the new version in the background (one at a time), then one shared read for the group
    // (a 404 is not kept): far fewer site object reads than requests.
    requests += N;
    expect((await stub.stats()).publicReads - reads).toBeLessThanOrEqual(Math.min(5, requests / 3));
  });
});
