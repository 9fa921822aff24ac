import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addItem, call, callJson, expectStatus, newBlog } from "./helpers";

describe("what the dashboard needs from the dashboard API", () => {
  it("counts collections, published items and drafts, and lists the latest changes", async () => {
    const site = await newBlog("starter");
    await addItem(site, "posts", { slug: "one", publish: true, data: { title: "One" } });
    await addItem(site, "posts", { slug: "two", data: { title: "Two" } });
    const { stats } = await expectStatus(
      callJson<{
        stats: { collections: number; published: number; drafts: number; recent: { slug: string; title: string; status: string }[] };
      }>("GET", `/sites/${site.id}/stats`, { auth: site.adminKey }),
      200,
    );
    expect(stats).toMatchObject({ collections: 2, published: 1, drafts: 1 });
    expect(stats.recent.slice(0, 2).map((r) => [r.slug, r.title, r.status])).toEqual([
      ["two", "Two", "draft"],
      ["one", "One", "published"],
    ]);
  });

  it("counts saving pending changes as the latest change of an item, and says it has them", async () => {
    const site = await newBlog("starter");
    const one = await addItem(site, "posts", { slug: "one", publish: true, data: { title: "One" } });
    await addItem(site, "posts", { slug: "two", data: { title: "Two" } });
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts/items/${one.id}/pending`, {
        auth: site.adminKey,
        body: { data: { title: "One, reworded" } },
      }),
      200,
    );
    const { stats } = await expectStatus(
      callJson<{ stats: { recent: { slug: string; title: string; pendingChanges: boolean; updatedAt: string }[] } }>(
        "GET",
        `/sites/${site.id}/stats`,
        { auth: site.adminKey },
      ),
      200,
    );
    // The live title stays (the public still sees it); the pending save moves it to the top.
    expect(stats.recent.map((r) => [r.slug, r.title, r.pendingChanges])).toEqual([
      ["one", "One", true],
      ["two", "Two", false],
    ]);
    expect(stats.recent[0]!.updatedAt > stats.recent[1]!.updatedAt).toBe(true);
  });

  it("searches and sorts the dashboard's item table, drafts included", async () => {
    const site = await newBlog("starter");
    await addItem(site, "posts", { slug: "bread", data: { title: "Baking Bread", views: 5 } });
    await addItem(site, "posts", { slug: "bikes", publish: true, data: { title: "Road bikes", views: 50, notes: "bread on the way" } });
    await addItem(site, "posts", { slug: "cats", data: { title: "Cats", views: 1 } });
    const list = (q: string) =>
      expectStatus(
        callJson<{ items: { slug: string }[]; total: number }>("GET", `/sites/${site.id}/collections/posts/items?${q}`, {
          auth: site.adminKey,
        }),
        200,
      );
    const found = await list("search=BREAD");
    expect(found.items.map((i) => i.slug)).toEqual(["bikes", "bread"]);
    expect(found.total).toBe(2);
    expect((await list("sort=-views")).items.map((i) => i.slug)).toEqual(["bikes", "bread", "cats"]);
    expect((await list("sort=slug&status=draft")).items.map((i) => i.slug)).toEqual(["bread", "cats"]);
    const bad = await callJson<{ error: { code: string; details: { parameter: string } } }>(
      "GET",
      `/sites/${site.id}/collections/posts/items?sort=notes`,
      {
        auth: site.adminKey,
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe("sort");
    expect(
      (await callJson("GET", `/sites/${site.id}/collections/posts/items?search=${"x".repeat(201)}`, { auth: site.adminKey })).status,
    ).toBe(400);
  });

  it("lists media with where each entry is used, and edits alt text everywhere it shows", async () => {
    const site = await newBlog("starter");
    await addItem(site, "posts", {
      slug: "pic",
      publish: true,
      data: { title: "Pic", cover: { url: "https://img.example.com/a.jpg", alt: "Old" } },
    });
    const media = await expectStatus(
      callJson<{ media: { mediaId: string; alt: string; usedBy: { slug: string; field: string }[] }[]; total: number }>(
        "GET",
        `/sites/${site.id}/media`,
        {
          auth: site.adminKey,
        },
      ),
      200,
    );
    expect(media.total).toBe(1);
    expect(media.media[0]!.usedBy).toEqual([expect.objectContaining({ collection: "posts", slug: "pic", field: "cover" })]);
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/media/${media.media[0]!.mediaId}`, { auth: site.adminKey, body: { alt: "A new alt" } }),
      200,
    );
    const pub = await callJson<{ item: { data: { cover: { alt: string } } } }>("GET", `/v1/${site.token}/collections/posts/items/pic`);
    expect(pub.body.item.data.cover.alt).toBe("A new alt");
    expect((await callJson("PATCH", `/sites/${site.id}/media/md_nope`, { auth: site.adminKey, body: { alt: "x" } })).status).toBe(404);
  });

  it("serves the dashboard on the service's hosts only, with its security headers", async () => {
    const page = await call("GET", "/dashboard/");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect((await call("GET", "/dashboard")).status).toBe(301);
    const elsewhere = await exports.default.fetch(new Request("https://blog.customer.test/dashboard/"));
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).not.toContain('<div id="app">');
  });
});
