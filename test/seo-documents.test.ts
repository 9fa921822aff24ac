import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, addItem, callJson, expectStatus, newBlog } from "./helpers";
import { listPage } from "./fixtures/blog-pages";
import { capture, pathOf, publishedPost, putPage, rendered } from "./ssr-helpers";

async function setup(opts: { showsList?: boolean; seo?: Record<string, unknown> } = {}) {
  const site = await newBlog("seo_engine");
  await addItem(site, "authors", { slug: "ada", publish: true, data: { name: "Ada" } });
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
  const base = pathOf(pageUrl);
  await expectStatus(capture(site, { pageUrl, publicUrl: `https://blog.example.com${base}`, collection: "posts", ...opts }), 201);
  const stub = env.SITE.get(env.SITE.idFromName(site.id));
  const doc = async (name: string) => {
    const res = await rendered(site, `${base}${name}`);
    return { status: res.status, type: res.headers.get("content-type"), etag: res.headers.get("etag"), body: await res.text() };
  };
  /** The regeneration job runs on the alarm right after a change; tests run it deterministically. */
  const settle = () => runDurableObjectAlarm(stub);
  return { site, base, doc, settle, url: (slug: string) => `https://blog.example.com${base}${slug}` };
}

describe("sitemap.xml", () => {
  it("lists the list page and every published item with lastmod and image entries", async () => {
    const t = await setup();
    await publishedPost(t.site, "with-image", { title: "A", cover: { url: "https://cdn.example.com/a.jpg", alt: "" } });
    await publishedPost(t.site, "plain", { title: "B" });
    await addItem(t.site, "posts", { slug: "draft", data: { title: "Draft" } });
    await t.settle();
    const d = await t.doc("sitemap.xml");
    expect(d.status).toBe(200);
    expect(d.type).toBe("application/xml; charset=utf-8");
    expect(d.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9"/);
    expect(d.body).toContain(`<url><loc>https://blog.example.com${t.base}</loc><lastmod>`);
    expect(d.body).toMatch(
      new RegExp(
        `<url><loc>${t.url("with-image")}</loc><lastmod>[^<]+Z</lastmod><image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image></url>`,
      ),
    );
    expect(d.body).toMatch(new RegExp(`<url><loc>${t.url("plain")}</loc><lastmod>[^<]+</lastmod></url>`));
    expect(d.body).not.toContain("draft");
    expect(d.body.match(/<url>/g)).toHaveLength(3);
  });

  it("is regenerated on publish, unpublish, delete and slug change, and served with ETag/304", async () => {
    const t = await setup();
    const post = await publishedPost(t.site, "first", { title: "First" });
    await t.settle();
    const before = await t.doc("sitemap.xml");
    expect(before.body).toContain(t.url("first"));
    expect((await rendered(t.site, `${t.base}sitemap.xml`, { "if-none-match": before.etag! })).status).toBe(304);

    await callJson("PATCH", `/sites/${t.site.id}/collections/posts/items/${post.id}`, { auth: t.site.adminKey, body: { slug: "renamed" } });
    await t.settle();
    const renamed = await t.doc("sitemap.xml");
    expect(renamed.body).toContain(t.url("renamed"));
    expect(renamed.body).not.toContain(t.url("first"));
    expect(renamed.etag).not.toBe(before.etag);

    await callJson("POST", `/sites/${t.site.id}/collections/posts/items/${post.id}/unpublish`, { auth: t.site.adminKey });
    await t.settle();
    expect((await t.doc("sitemap.xml")).body).not.toContain(t.url("renamed"));

    const second = await publishedPost(t.site, "second", { title: "Second" });
    await t.settle();
    expect((await t.doc("sitemap.xml")).body).toContain(t.url("second"));
    await callJson("DELETE", `/sites/${t.site.id}/collections/posts/items/${second.id}`, { auth: t.site.adminKey });
    await t.settle();
    expect((await t.doc("sitemap.xml")).body).not.toContain(t.url("second"));
  });

  it("is never cached while its rebuild is queued, so the next request after the rebuild sees the change", async () => {
    const t = await setup();
    await t.settle();
    await publishedPost(t.site, "queued", { title: "Queued" });
    const during = await rendered(t.site, `${t.base}sitemap.xml`);
    expect(during.headers.get("cache-control")).toBe("no-store");
    expect(await during.text()).not.toContain("queued");
    await t.settle();
    const after = await rendered(t.site, `${t.base}sitemap.xml`);
    expect(after.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(await after.text()).toContain(t.url("queued"));
  });

  it("leaves the list page out when the capture shows no list", async () => {
    const t = await setup({ showsList: false });
    await publishedPost(t.site, "only", { title: "Only" });
    await t.settle();
    const body = (await t.doc("sitemap.xml")).body;
    expect(body.match(/<url>/g)).toHaveLength(1);
    expect(body).not.toContain(`<loc>https://blog.example.com${t.base}</loc>`);
  });

  it("past 5,000 items becomes an index of parts by seq, and a change rewrites only its item's part", async () => {
    const t = await setup();
    const stub = env.SITE.get(env.SITE.idFromName(t.site.id));
    // 12,000 published posts, written straight into the table (as many as a test can afford through the API).
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      const posts = sql.exec<{ id: string }>("SELECT id FROM collections WHERE slug = 'posts'").one().id;
      sql.exec(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
         INSERT INTO items (id, collection_id, slug, status, data, published_at, created_at, updated_at)
         SELECT 'it_bulk' || i, ?, 'p-' || i, 'published', json_object('title', 'Post ' || i), '2024-01-01T00:00:00.000Z',
           '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z' FROM n`,
        posts,
      );
      sql.exec("INSERT INTO jobs (kind, key, run_at, attempts) VALUES ('seo-documents', 'all', ?, 0)", Date.now() - 1);
      void state.storage.setAlarm(Date.now() - 1);
    });
    const jobs = () =>
      runInDurableObject(stub, (_i, state) =>
        state.storage.sql
          .exec<{ key: string }>("SELECT key FROM jobs WHERE kind = 'seo-documents' ORDER BY key")
          .toArray()
          .map((r) => r.key),
      );
    const settleAll = async () => {
      for (let i = 0; i < 10 && (await jobs()).length > 0; i++) await t.settle();
      expect(await jobs()).toEqual([]);
    };
    await settleAll();
    const index = (await t.doc("sitemap.xml")).body;
    expect(index).toContain("<sitemapindex");
    const listed = [...index.matchAll(/<loc>[^<]*\/(sitemap-\d+\.xml)<\/loc>/g)].map((m) => m[1]);
    expect(listed).toEqual(["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]);
    const counts = [];
    for (const name of listed) counts.push((await t.doc(name!)).body.match(/<url>/g)!.length);
    // Part 1 carries the list page and the author ahead of the posts takes seq 1; every post is in once.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(12_000 + 1);
    expect(Math.max(...counts)).toBeLessThanOrEqual(5_000 + 1);
    const part1 = (await t.doc("sitemap-1.xml")).body;
    const part3 = (await t.doc("sitemap-3.xml")).body;

    // An edit of a post in part 3 queues part 3 alone; part 1 is left as it was.
    const edited = await runInDurableObject(
      stub,
      (_i, state) => state.storage.sql.exec<{ id: string }>("SELECT id FROM items WHERE slug = 'p-11000'").one().id,
    );
    await expectStatus(
      callJson("PATCH", `/sites/${t.site.id}/collections/posts/items/${edited}`, {
        auth: t.site.adminKey,
        body: { data: { title: "Edited" } },
      }),
      200,
    );
    expect(await jobs()).toEqual(["part:3"]);
    await settleAll();
    expect((await t.doc("sitemap-1.xml")).body).toBe(part1);
    const after = (await t.doc("sitemap-3.xml")).body;
    expect(after).not.toBe(part3);
    expect(after).toMatch(new RegExp(`<loc>${t.url("p-11000")}</loc><lastmod>(?!2024-01-01)`));
  });
});

describe("rss.xml and feed.json", () => {
  it("carry the newest items first with every RSS element", async () => {
    const t = await setup();
    await publishedPost(t.site, "old", { title: "Old", summary: "Old summary", body: "<p>Old body</p>", author: "ada" });
    await publishedPost(t.site, "new", {
      title: "New",
      summary: "New summary",
      body: "<p>New <b>body</b></p>",
      cover: { url: "https://cdn.example.com/n.jpg", width: 800, height: 600 },
    });
    await t.settle();
    const rss = await t.doc("rss.xml");
    expect(rss.type).toBe("application/rss+xml; charset=utf-8");
    expect(rss.body).toContain('<rss version="2.0"');
    expect(rss.body).toContain("<title>Acme Blog &amp; News</title>");
    expect(rss.body).toContain(`<link>https://blog.example.com${t.base}</link>`);
    expect(rss.body).toContain("<description>Stories from Acme &quot;HQ&quot;</description>");
    expect(rss.body).toContain(`<atom:link href="https://blog.example.com${t.base}rss.xml" rel="self" type="application/rss+xml"/>`);
    expect(rss.body.indexOf("<title>New</title>")).toBeLessThan(rss.body.indexOf("<title>Old</title>"));
    expect(rss.body).toContain(`<guid isPermaLink="true">${t.url("new")}</guid>`);
    expect(rss.body).toMatch(/<pubDate>\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT<\/pubDate>/);
    expect(rss.body).toContain("<description>New summary</description>");
    expect(rss.body).toContain("<content:encoded>&lt;p&gt;New &lt;b&gt;body&lt;/b&gt;&lt;/p&gt;</content:encoded>");
    expect(rss.body).toContain('<media:content url="https://cdn.example.com/n.jpg" medium="image" width="800" height="600"/>');
    expect(rss.body).toContain("<dc:creator>Ada</dc:creator>");

    const feed = await t.doc("feed.json");
    expect(feed.type).toBe("application/feed+json; charset=utf-8");
    const json = JSON.parse(feed.body) as {
      version: string;
      feed_url: string;
      items: { id: string; title: string; content_html: string; image?: string }[];
    };
    expect(json.version).toBe("https://jsonfeed.org/version/1.1");
    expect(json.feed_url).toBe(`https://blog.example.com${t.base}feed.json`);
    expect(json.items.map((i) => i.title)).toEqual(["New", "Old"]);
    expect(json.items[0]).toMatchObject({
      id: t.url("new"),
      content_html: "<p>New <b>body</b></p>",
      image: "https://cdn.example.com/n.jpg",
    });
  });

  it("are capped at 50 items, or the configured number", async () => {
    const t = await setup({ seo: { feedItems: 3 } });
    const items = Array.from({ length: 5 }, (_, i) => ({ slug: `p${i}`, publish: true, data: { title: `P${i}` } }));
    await callJson("POST", `/sites/${t.site.id}/collections/posts/items:batch`, { auth: t.site.adminKey, body: { items } });
    await t.settle();
    expect((await t.doc("rss.xml")).body.match(/<item>/g)).toHaveLength(3);
    const big = await setup();
    const many = Array.from({ length: 60 }, (_, i) => ({ slug: `q${i}`, publish: true, data: { title: `Q${i}` } }));
    await callJson("POST", `/sites/${big.site.id}/collections/posts/items:batch`, { auth: big.site.adminKey, body: { items: many } });
    await big.settle();
    expect((await big.doc("rss.xml")).body.match(/<item>/g)).toHaveLength(50);
  });

  it("escape hostile values and drop characters XML cannot hold", async () => {
    const t = await setup();
    await publishedPost(t.site, "evil", { title: `<b>"T" & 'x'</b>\u0000\u0008\uFFFE]]>`, summary: "s\u001bummary" });
    await t.settle();
    const rss = (await t.doc("rss.xml")).body;
    expect(rss).toContain("<title>&lt;b&gt;&quot;T&quot; &amp; &apos;x&apos;&lt;/b&gt;]]&gt;</title>");
    expect(rss).toContain("<description>summary</description>");
    expect(rss).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE]/);
  });

  it("answer 404 for documents that do not exist", async () => {
    const t = await setup();
    expect((await t.doc("sitemap-3.xml")).status).toBe(404);
  });
});
