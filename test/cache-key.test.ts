import { describe, expect, it } from "vitest";
import { siteMetaEntry } from "../src/edge/site-meta";
import { addItem, call, newBlog } from "./helpers";
import { settleIndex, siteObject, siteWith } from "./search-helpers";

/** How a read was answered: the edge's x-cache. */
async function xcache(path: string): Promise<string | null> {
  const r = await call("GET", path);
  expect(r.status, `${path}: ${await r.clone().text()}`).toBe(200);
  await r.arrayBuffer();
  return r.headers.get("x-cache");
}

describe("the edge cache key holds only what an endpoint understands", () => {
  it("unknown parameters, defaults written out and parameter order share one list entry; real differences do not", async () => {
    const site = await newBlog();
    for (let i = 0; i < 5; i++) await addItem(site, "posts", { slug: `p${i}`, data: { title: `Post ${i}`, views: i }, publish: true });
    const list = `/v1/${site.token}/collections/posts/items`;
    expect(await xcache(`${list}?sort=-views&limit=2`)).toBe("MISS");
    for (const variant of [
      `${list}?sort=-views&limit=2&cb=1`,
      `${list}?limit=2&sort=-views&cb=2`,
      `${list}?page=1&limit=2&sort=-views`,
      `${list}?limit=2&sort=-views&utm_source=x&page=1`,
      `${list}?sort=-views,-views&limit=2`,
      `${list}?sort=%20-views%20&limit=02`,
    ])
      expect(await xcache(variant), variant).toBe("HIT");
    // What changes the answer is its own entry.
    expect(await xcache(`${list}?sort=-views&limit=2&page=2`)).toBe("MISS");
    expect(await xcache(`${list}?sort=views&limit=2`)).toBe("MISS");
    expect(await xcache(`${list}?sort=-views&limit=3`)).toBe("MISS");
    // Filters in either order, and search with its spaces trimmed, are one entry each.
    expect(await xcache(`${list}?filter[views][gte]=1&filter[views][lte]=3&search=post`)).toBe("MISS");
    expect(await xcache(`${list}?search=%20post%20&filter[views][lte]=3&filter[views][gte]=1&x=y`)).toBe("HIT");
    // A list with no parameters is page 1 of the default limit.
    expect(await xcache(list)).toBe("MISS");
    expect(await xcache(`${list}?page=1&limit=24&cb=3`)).toBe("HIT");
  });

  it("an item's and a schema's unknown parameters share their entry", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const item = `/v1/${site.token}/collections/posts/items/a`;
    expect(await xcache(item)).toBe("MISS");
    expect(await xcache(`${item}?cb=1`)).toBe("HIT");
    expect(await xcache(`${item}?v=2&w=3`)).toBe("HIT");
    const schema = `/v1/${site.token}/collections/posts/schema`;
    expect(await xcache(`${schema}?cb=1`)).toBe("MISS");
    expect(await xcache(`${schema}?cb=2`)).toBe("HIT");
  });

  it("a cache-busting stream costs the site object one read", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const before = (await siteObject(site).stats()).publicReads;
    for (let i = 0; i < 20; i++) await xcache(`/v1/${site.token}/collections/posts/items?cb=${i}`);
    expect((await siteObject(site).stats()).publicReads - before).toBe(1);
  });
});

describe("search answers repeated queries from its cache of query embeddings", () => {
  it("embeds a query once however often it is asked, in any spelling the cache key tells apart", async () => {
    const site = await siteWith([
      { slug: "dogs", title: "Teaching a puppy to sit", summary: "Short sessions with treats." },
      { slug: "taxes", title: "Paying quarterly taxes", summary: "Four payments a year." },
    ]);
    await settleIndex(site);
    const before = (await siteObject(site).stats()).queryEmbeddings;
    const q = encodeURIComponent("how do I train my puppy");
    // Different limits are different answers (and cache entries), but the same query text.
    expect(await xcache(`/v1/${site.token}/search?q=${q}&limit=1`)).toBe("MISS");
    expect(await xcache(`/v1/${site.token}/search?q=${q}&limit=2`)).toBe("MISS");
    expect(await xcache(`/v1/${site.token}/search?limit=3&q=%20${q}%20`)).toBe("MISS");
    expect(await xcache(`/v1/${site.token}/search?q=${q}&limit=1&cb=9`)).toBe("HIT");
    expect((await siteObject(site).stats()).queryEmbeddings - before).toBe(1);
    // Another query is embedded.
    expect(await xcache(`/v1/${site.token}/search?q=${encodeURIComponent("tax payments")}`)).toBe("MISS");
    expect((await siteObject(site).stats()).queryEmbeddings - before).toBe(2);
  });
});

describe("a wrong token spoils nothing of a real one", () => {
  it("keeps the real token's memo and cached entries after requests with a wrong token for the same site", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const list = `/v1/${site.token}/collections/posts/items`;
    expect(await xcache(list)).toBe("MISS");
    const known = siteMetaEntry(site.id);
    expect(known?.token).toBe(site.token);
    expect(known?.meta?.siteId).toBe(site.id);
    // Same site id, wrong secret part.
    const wrong = `${site.token.slice(0, -4)}${site.token.endsWith("aaaa") ? "bbbb" : "aaaa"}`;
    for (let i = 0; i < 5; i++) {
      const r = await call("GET", `/v1/${wrong}/collections/posts/items?cb=${i}`);
      expect(r.status).toBe(404);
      await r.arrayBuffer();
    }
    const after = siteMetaEntry(site.id);
    expect(after?.token).toBe(site.token);
    expect(after?.meta?.version).toBe(known?.meta?.version);
    expect(await xcache(list)).toBe("HIT");
  });
});
