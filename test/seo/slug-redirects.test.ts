// A published item's old slug keeps answering: 301 to its current slug, on rendered pages and in
// the content API's item read, with chains collapsed, no loop possible, and the slug free again
// for another item.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, addItem, call, callJson, expectStatus, newBlog, type TestSite } from "../helpers";
import { listPage } from "../fixtures/blog-pages";
import { capture, pathOf, publishedPost, putPage, rendered } from "../ssr-helpers";

async function blog(seo?: Record<string, unknown>) {
  const site = await newBlog("seo_engine");
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
  const base = pathOf(pageUrl);
  await expectStatus(
    capture(site, { pageUrl, publicUrl: `https://blog.example.com${base}`, collection: "posts", ...(seo ? { seo } : {}) }),
    201,
  );
  return { site, base };
}

const rename = (site: TestSite, id: string, slug: string) =>
  expectStatus(callJson("PATCH", `/sites/${site.id}/collections/posts/items/${id}`, { auth: site.adminKey, body: { slug } }), 200);
const apiItem = (site: TestSite, slug: string, query = "") => call("GET", `/v1/${site.token}/collections/posts/items/${slug}${query}`);

describe("an item's old slug", () => {
  it("answers 301 to the current slug in one hop, on the rendered page and in the content API", async () => {
    const { site, base } = await blog();
    const post = await publishedPost(site, "first-draft-title", { title: "Bread" });
    await rename(site, post.id, "bread-at-home");
    await rename(site, post.id, "baking-bread");

    for (const old of ["first-draft-title", "bread-at-home"]) {
      const page = await rendered(site, `${base}${old}?utm_source=news`);
      expect(page.status, old).toBe(301);
      expect(page.headers.get("location")).toBe(`${base}baking-bread?utm_source=news`);
      const api = await apiItem(site, old, "?x=1");
      expect(api.status, old).toBe(301);
      expect(api.headers.get("location")).toBe(`/v1/${site.token}/collections/posts/items/baking-bread?x=1`);
      // The answer a browser's fetch follows is readable across origins like every public answer.
      expect(api.headers.get("access-control-allow-origin")).toBe("*");
    }
    const now = await callJson<{ item: { slug: string; data: { title: string } } }>(
      "GET",
      `/v1/${site.token}/collections/posts/items/baking-bread`,
    );
    expect(now.status).toBe(200);
    expect(now.body.item.data.title).toBe("Bread");
    expect((await rendered(site, `${base}baking-bread`)).status).toBe(200);
    // A slug no item ever had stays a 404.
    expect((await rendered(site, `${base}never-was`)).status).toBe(404);
    expect((await apiItem(site, "never-was")).status).toBe(404);
  });

  it("stops redirecting when an item takes the slug, and renaming back makes no loop", async () => {
    const { site, base } = await blog();
    const post = await publishedPost(site, "spring-menu", { title: "Spring" });
    await rename(site, post.id, "menu");
    // Another item takes the old slug: it is that item's page now.
    const other = await publishedPost(site, "spring-menu", { title: "Spring, again" });
    const taken = await callJson<{ item: { id: string } }>("GET", `/v1/${site.token}/collections/posts/items/spring-menu`);
    expect(taken.status).toBe(200);
    expect(taken.body.item.id).toBe(other.id);
    expect((await rendered(site, `${base}spring-menu`)).status).toBe(200);

    // Back and forth: each slug answers for itself or leads once to the other, never round.
    await rename(site, post.id, "menu-2026");
    await rename(site, post.id, "menu");
    expect((await apiItem(site, "menu")).status).toBe(200);
    const back = await apiItem(site, "menu-2026");
    expect(back.status).toBe(301);
    expect(back.headers.get("location")).toMatch(/\/items\/menu$/);
  });

  it("leads nowhere once the item is unpublished or deleted, and never from a draft's slug", async () => {
    const { site, base } = await blog();
    const post = await publishedPost(site, "old-news", { title: "News" });
    await rename(site, post.id, "news");
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${post.id}/unpublish`, { auth: site.adminKey }), 200);
    expect((await rendered(site, `${base}old-news`)).status).toBe(404);
    expect((await apiItem(site, "old-news")).status).toBe(404);
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${post.id}/publish`, { auth: site.adminKey }), 200);
    expect((await apiItem(site, "old-news")).status).toBe(301);
    await expectStatus(callJson("DELETE", `/sites/${site.id}/collections/posts/items/${post.id}`, { auth: site.adminKey }), 200);
    expect((await apiItem(site, "old-news")).status).toBe(404);

    // A draft's slug was never public: renaming it leaves nothing behind.
    const draft = await addItem(site, "posts", { slug: "working-title", data: { title: "Draft" } });
    await rename(site, draft.id, "final-title");
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${draft.id}/publish`, { auth: site.adminKey }), 200);
    expect((await apiItem(site, "working-title")).status).toBe(404);
  });

  it("is not in the sitemap: only the current address is", async () => {
    const { site, base } = await blog();
    const post = await publishedPost(site, "before", { title: "Renamed" });
    await rename(site, post.id, "after");
    await runDurableObjectAlarm(env.SITE.get(env.SITE.idFromName(site.id)));
    const sitemap = await (await rendered(site, `${base}sitemap.xml`)).text();
    expect(sitemap).toContain(`https://blog.example.com${base}after</loc>`);
    expect(sitemap).not.toContain(`${base}before<`);
  });
});

describe("a removed item's page", () => {
  it("answers 410 Gone for the days the owner chose, then 404; publishing at the slug ends it", async () => {
    const { site, base } = await blog({ goneDays: 30 });
    const post = await publishedPost(site, "summer-sale", { title: "Summer sale" });
    const other = await publishedPost(site, "winter-sale", { title: "Winter sale" });
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${post.id}/unpublish`, { auth: site.adminKey }), 200);
    await expectStatus(callJson("DELETE", `/sites/${site.id}/collections/posts/items/${other.id}`, { auth: site.adminKey }), 200);
    for (const slug of ["summer-sale", "winter-sale"]) {
      const page = await rendered(site, `${base}${slug}`);
      expect(page.status, slug).toBe(410);
      expect(page.headers.get("x-robots-tag")).toBe("noindex");
    }
    // A slug no item ever had is not gone, only not found; the content API says 404 either way.
    expect((await rendered(site, `${base}never-was`)).status).toBe(404);
    expect((await apiItem(site, "summer-sale")).status).toBe(404);

    // Past the 30 days it is an ordinary 404.
    await runInDurableObject(env.SITE.get(env.SITE.idFromName(site.id)), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec(
        "UPDATE gone_slugs SET gone_at = ? WHERE slug = 'winter-sale'",
        new Date(Date.now() - 31 * 86_400_000).toISOString(),
      );
    });
    expect((await rendered(site, `${base}winter-sale`)).status).toBe(404);

    // Published again, the page is back.
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${post.id}/publish`, { auth: site.adminKey }), 200);
    expect((await rendered(site, `${base}summer-sale`)).status).toBe(200);
  });

  it("is a 404 at once when the owner chose no days", async () => {
    const { site, base } = await blog();
    const post = await publishedPost(site, "gone-soon", { title: "Gone" });
    await expectStatus(callJson("DELETE", `/sites/${site.id}/collections/posts/items/${post.id}`, { auth: site.adminKey }), 200);
    expect((await rendered(site, `${base}gone-soon`)).status).toBe(404);
  });
});
