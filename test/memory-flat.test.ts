import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { inflightSize, versioned } from "../src/edge/cache";
import { contentKeyBase } from "../src/edge/content-key";
import { hotSizes } from "../src/edge/hot-tier";
import { siteMetaSizes } from "../src/edge/site-meta";
import { ORIGIN, addItem, call, callJson, expectStatus, newBlog } from "./helpers";

const PUBLISHES = 1000;

/** The Cache API key of a content read, as the front Worker builds it (docs/caching.md: parameters the endpoint understands). */
const keyBase = (path: string): string => contentKeyBase(new URL(`${ORIGIN}${path}`)) as string;

describe("memory stays flat while a site keeps publishing", () => {
  it(`${PUBLISHES} publishes, each followed by reads of the same URLs, leave every in-memory structure the same size`, async () => {
    const site = await newBlog();
    const item = await addItem(site, "posts", { slug: "live", data: { title: "rev 0" }, publish: true });
    const urls = [
      `/v1/${site.token}/collections/posts/items?limit=5`,
      `/v1/${site.token}/collections/posts/items/live`,
      `/v1/${site.token}/collections/posts/items?filter[title][contains]=rev`,
    ];
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    // Each round comes from an address of its own: this is a site publishing and being read, not
    // one client hammering it (the rate limits per client and site would refuse that, docs/rate-limits.md).
    const client = (i: number) => ({ "cf-connecting-ip": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
    const readAll = (i = 0) => Promise.all(urls.map(async (u) => expect((await call("GET", u, { headers: client(i) })).status).toBe(200)));
    const sizes = async () => ({
      hot: hotSizes().entries,
      inflight: inflightSize(),
      meta: siteMetaSizes(),
      site: (await stub.stats()).memo,
    });

    const edit = (i: number) =>
      expectStatus(
        callJson("PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, {
          auth: site.adminKey,
          body: { data: { title: `rev ${i}` } },
          headers: client(i),
        }),
        200,
      );
    await edit(1);
    await readAll(1);
    const before = await sizes();
    for (let i = 2; i <= PUBLISHES; i++) {
      await edit(i);
      await readAll(i);
    }
    const after = await sizes();
    expect(after).toEqual(before);
    // The reads saw every change: the last answer is the last edit.
    const last = await callJson<{ item: { data: { title: string } } }>("GET", urls[1] as string);
    expect(last.body.item.data.title).toBe(`rev ${PUBLISHES}`);

    // The Cache API keeps the current version of each URL, not one entry per version.
    const { version } = (await stub.metaForHost()) as { version: number };
    const key = (v: number) => versioned({ base: keyBase(urls[1] as string), siteId: site.id, version: v });
    expect(await caches.default.match(key(version))).toBeDefined();
    // The previous version's entry is deleted after the response, when the new copy is kept.
    for (let i = 0; i < 100 && (await caches.default.match(key(version - 1))); i++) await scheduler.wait(20);
    for (const v of [1, 2, version - 500, version - 1]) expect(await caches.default.match(key(v))).toBeUndefined();
  }, 180_000);
});
