import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, callJson, expectStatus, newBlog } from "./helpers";
import { itemPage } from "./fixtures/blog-pages";
import { capturedBlog, pathOf, publishedPost, putPage, renderedHtml } from "./ssr-helpers";

// Valid JSON whose strings hold lone surrogates, as copy-paste from broken sources produces.
const LONE_HIGH = "\\ud800";
const LONE_LOW = "\\udc00";
const REPLACED = "bad \ufffd two";

function raw(method: string, path: string, auth: string, json: string) {
  return callJson<Record<string, unknown>>(method, path, { auth, body: json });
}

describe("strings that cannot be encoded (lone surrogates)", () => {
  it("are made valid on write, and the site's pages, API and documents keep working", async () => {
    const { site, pageUrl } = await capturedBlog([{ slug: "good", data: { title: "Good one", date: "2024-01-01" } }]);
    const created = await raw(
      "POST",
      `/sites/${site.id}/collections/posts/items`,
      site.adminKey,
      `{"slug":"bad","publish":true,"data":{"title":"bad ${LONE_HIGH} two","summary":"x ${LONE_LOW}","date":"2024-02-01"}}`,
    );
    expect(created.status).toBe(201);
    expect((created.body.item as { data: { title: string } }).data.title).toBe(REPLACED);

    const api = await callJson<{ item: { data: { title: string; summary: string } } }>(
      "GET",
      `/v1/${site.token}/collections/posts/items/bad`,
    );
    expect(api.body.item.data.title).toBe(REPLACED);
    expect(api.body.item.data.summary).toBe("x \ufffd");

    const base = pathOf(pageUrl);
    const list = await renderedHtml(site, base);
    expect(list.status).toBe(200);
    expect(list.html).toContain(REPLACED);
    expect(list.html).toContain("Good one");
    const item = await renderedHtml(site, `${base}bad`);
    expect(item.status).toBe(200);
    expect(item.html).toContain(`<title>${REPLACED}</title>`);
    for (const doc of ["sitemap.xml", "rss.xml", "feed.json"]) {
      const d = await renderedHtml(site, `${base}${doc}`);
      expect(d.status, doc).toBe(200);
    }
  });

  it("in the capture's SEO settings and names are made valid, and every page still renders", async () => {
    const site = await newBlog("seo_engine");
    await publishedPost(site, "one", { title: "One" });
    const tags = await raw("PUT", `/sites/${site.id}/collections/tags`, site.adminKey, `{"name":"Tags ${LONE_HIGH}","fields":[]}`);
    expect(tags.status).toBe(201);
    expect((tags.body.collection as { name: string }).name).toBe("Tags \ufffd");
    const pageUrl = await putPage(itemPage({ service: ORIGIN, token: site.token }));
    const body = `{"pageUrl":"${pageUrl}","collection":"posts","showsList":false,"seo":{"siteName":"Acme ${LONE_LOW} site","publisher":"P ${LONE_HIGH}"}}`;
    expect((await raw("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, body)).status).toBe(201);
    const page = await renderedHtml(site, `${pathOf(pageUrl)}one`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('content="Acme \ufffd site"');
  });

  it("already stored (before writes were cleaned) costs only the item that holds them, never the page", async () => {
    const { site, pageUrl } = await capturedBlog([
      { slug: "good", data: { title: "Good one", date: "2024-01-01" } },
      { slug: "old", data: { title: "placeholder", date: "2024-02-01" } },
    ]);
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec(`UPDATE items SET data = json_set(data, '$.title', ?) WHERE slug = 'old'`, "bad \ud800 two");
    });
    // The edit above bypassed the site object: a new cache version makes the pages render again.
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/posts/items:batch`, {
        auth: site.adminKey,
        body: { items: [{ slug: "new", publish: true, data: { title: "New" } }] },
      }),
      201,
    );
    const base = pathOf(pageUrl);
    const list = await renderedHtml(site, base);
    expect(list.status).toBe(200);
    expect(list.html).toContain("Good one");
    expect(list.html).toContain("New");
    const item = await renderedHtml(site, `${base}old`);
    expect(item.status).toBe(200);
    expect(item.html).not.toContain("\ud800");
  });
});

describe("a request body's nesting", () => {
  it("deeper than 64 levels is refused with 400 whether or not it holds an escaped surrogate, and nothing is stored", async () => {
    const site = await newBlog("starter");
    const nested = (depth: number, leaf: string) => `${'{"a":'.repeat(depth)}${leaf}${"}".repeat(depth)}`;
    for (const leaf of ['"plain"', `"x ${LONE_HIGH}"`]) {
      const deep = await raw(
        "POST",
        `/sites/${site.id}/collections/posts/items`,
        site.adminKey,
        `{"slug":"deep","data":{"title":"Deep","summary":${nested(70, leaf)}}}`,
      );
      expect(deep.status, leaf).toBe(400);
      expect(deep.body.error, leaf).toMatchObject({ code: "bad_request", details: { maxDepth: 64 } });
    }
    // Within the limit the walk lets it through to the item's own checks (a summary must be text).
    const shallow = await raw(
      "POST",
      `/sites/${site.id}/collections/posts/items`,
      site.adminKey,
      `{"slug":"deep","data":{"title":"Deep","summary":${nested(60, '"plain"')}}}`,
    );
    expect(shallow.status).toBe(400);
    expect(JSON.stringify(shallow.body.error)).not.toContain("maxDepth");
    const listed = await callJson<{ items: unknown[] }>("GET", `/sites/${site.id}/collections/posts/items`, { auth: site.adminKey });
    expect(listed.body.items).toEqual([]);
  });
});
