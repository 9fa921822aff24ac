import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { versioned } from "../src/edge/cache";
import { contentKeyBase } from "../src/edge/content-key";
import { ORIGIN, addItem, call, callJson, expectStatus, newBlog } from "./helpers";
import { capturedBlog, pathOf, publishedPost, rendered } from "./ssr-helpers";

/** The Cache API key of a content read, as the front Worker builds it (docs/caching.md: parameters the endpoint understands). */
const keyBase = (path: string): string => contentKeyBase(new URL(`${ORIGIN}${path}`)) as string;

describe("revalidation of an unchanged answer after a change", () => {
  it("an answer the change did not touch is confirmed by the site object without a body or a Cache API write", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const b = await addItem(site, "posts", { slug: "b", data: { title: "B" }, publish: true });
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const itemUrl = `/v1/${site.token}/collections/posts/items/a`;
    const listUrl = `/v1/${site.token}/collections/posts/items`;
    const first = await call("GET", itemUrl);
    const body = await first.text();
    const etag = first.headers.get("etag");
    const list = await call("GET", listUrl);
    const listEtag = list.headers.get("etag");
    await list.text();
    const { version: before } = (await stub.metaForHost()) as { version: number };

    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/posts/items/${b.id}`, { auth: site.adminKey, body: { data: { title: "B2" } } }),
      200,
    );
    const { version: after } = (await stub.metaForHost()) as { version: number };
    expect(after).toBeGreaterThan(before);

    const reads = (await stub.stats()).publicReads;
    const again = await call("GET", itemUrl);
    expect(again.headers.get("x-cache")).toBe("MISS");
    expect(await again.text()).toBe(body);
    expect(again.headers.get("etag")).toBe(etag);
    expect((await stub.stats()).publicReads - reads).toBe(1);
    // Confirmed, not re-stored: the Cache API keeps the copy under the key it was stored with.
    const key = (v: number) => versioned({ base: keyBase(itemUrl), siteId: site.id, version: v });
    expect(await caches.default.match(key(after))).toBeUndefined();
    expect(await caches.default.match(key(before))).toBeDefined();
    expect((await call("GET", itemUrl)).headers.get("x-cache")).toBe("HIT");

    // The list did change: a new body, a new ETag, stored under the new key.
    const changed = await callJson<{ items: { data: { title: string } }[] }>("GET", listUrl);
    expect(changed.body.items.map((i) => i.data.title)).toContain("B2");
    expect(changed.res.headers.get("etag")).not.toBe(listEtag);
    const listKey = versioned({ base: keyBase(listUrl), siteId: site.id, version: after });
    for (let i = 0; i < 100 && !(await caches.default.match(listKey)); i++) await scheduler.wait(20);
    expect(await caches.default.match(listKey)).toBeDefined();
  });

  it("a rendered page the change did not touch is confirmed unchanged too; a page it did touch is rendered anew", async () => {
    const { site, pageUrl } = await capturedBlog();
    await publishedPost(site, "a", { title: "A" });
    const bId = (await publishedPost(site, "b", { title: "B" })).id;
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const base = pathOf(pageUrl);
    /** Reads a page until this isolate's memory holds it (the copy is kept after its stream ends). */
    const held = async (path: string) => {
      for (let i = 0; i < 100; i++) {
        const r = await rendered(site, path);
        const html = await r.text();
        if (r.headers.get("x-cache") === "HIT") return { html, etag: r.headers.get("etag") };
        await scheduler.wait(10);
      }
      throw new Error(`${path} was never held`);
    };
    const a = await held(`${base}a`);
    const b = await held(`${base}b`);
    const { version: before } = (await stub.metaForHost()) as { version: number };
    // A change to another item: b's page changes, a's does not.
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/posts/items/${bId}`, { auth: site.adminKey, body: { data: { title: "B2" } } }),
      200,
    );
    const { version: after } = (await stub.metaForHost()) as { version: number };
    expect(after).toBeGreaterThan(before);

    const unchanged = (await stub.stats()).unchangedReads;
    const again = await rendered(site, `${base}a`);
    expect(again.headers.get("x-cache")).toBe("MISS");
    expect(await again.text()).toBe(a.html);
    expect(again.headers.get("etag")).toBe(a.etag);
    expect((await stub.stats()).unchangedReads - unchanged).toBe(1);
    // Nothing was written under the new version's key; the next read is answered from memory.
    const renderBase = (path: string) => `https://render.invalid/${site.id}${path}`;
    expect(await caches.default.match(versioned({ base: renderBase(`${base}a`), siteId: site.id, version: after }))).toBeUndefined();
    expect((await rendered(site, `${base}a`)).headers.get("x-cache")).toBe("HIT");

    const changed = await rendered(site, `${base}b`);
    const html = await changed.text();
    expect(html).toContain("B2");
    expect(html).not.toBe(b.html);
    expect(changed.headers.get("etag")).not.toBe(b.etag);
    expect((await stub.stats()).unchangedReads - unchanged).toBe(1);
  });
});
