import { describe, expect, it } from "vitest";
import { ORIGIN, call, callJson, expectStatus, newBlog } from "./helpers";
import { listPage } from "./fixtures/blog-pages";
import { capture, capturedBlog, pathOf, publishedPost, putPage, rendered, renderedHtml } from "./ssr-helpers";

const cards = (html: string) => html.match(/<article class="card"/g)?.length ?? 0;

describe("rendered list pages", () => {
  it("inject the published items into the captured page, in the widget's order, before any script runs", async () => {
    const { site, pageUrl } = await capturedBlog([
      { slug: "older", data: { title: "Older post", date: "2024-01-05" } },
      { slug: "newer", data: { title: "Newer post", date: "2024-03-09", summary: "Fresh" } },
    ]);
    await callJson("POST", `/sites/${site.id}/collections/posts/items`, {
      auth: site.adminKey,
      body: { slug: "draft", data: { title: "Draft" } },
    });
    const { status, html, res } = await renderedHtml(site, pathOf(pageUrl));
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(cards(html)).toBe(2);
    expect(html.indexOf("Newer post")).toBeLessThan(html.indexOf("Older post"));
    expect(html).not.toContain("Draft");
    expect(html).not.toContain("Second sample card");
    expect(html).not.toContain("No posts yet.");
    expect(html).toContain('data-oc-rendered="1"');
    expect(html).not.toContain("data-oc-slot");
    expect(html).toContain(`<a class="card-link" data-oc-link="" href="${pathOf(pageUrl)}newer">`);
  });

  it("link to the served item path even where the template names an address for a static host", async () => {
    const site = await newBlog("seo_engine");
    await publishedPost(site, "newer", { title: "Newer post" });
    const page = listPage({ service: ORIGIN, token: site.token }).replace("data-oc-link>", 'data-oc-link="/blog/item.html?slug={slug}">');
    expect(page).toContain("{slug}");
    const pageUrl = await putPage(page);
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    const { html } = await renderedHtml(site, pathOf(pageUrl));
    expect(html).toContain(`href="${pathOf(pageUrl)}newer"`);
    expect(html).not.toContain("item.html?slug=newer");
  });

  it("keep the captured page's own title, description and head", async () => {
    const { site, pageUrl } = await capturedBlog([{ slug: "a", data: { title: "A" } }]);
    const { html } = await renderedHtml(site, pathOf(pageUrl));
    expect(html).toContain("<title>Acme Blog &amp; News</title>");
    expect(html).toContain('<meta name="description" content="Stories from Acme &quot;HQ&quot;">');
    expect(html).toContain('<link rel="stylesheet" href="/site.css">');
    expect(html).toContain(`<script src="${ORIGIN}/embed.js" data-oc-token="${site.token}" defer></script>`);
  });

  it("show the empty state, unhidden, when nothing is published", async () => {
    const { site, pageUrl } = await capturedBlog();
    const { html } = await renderedHtml(site, pathOf(pageUrl));
    expect(cards(html)).toBe(0);
    expect(html).toContain('<p class="empty" data-oc-empty="">No posts yet.</p>');
  });

  it("page with ?page=N and answer 404 noindex past the last page", async () => {
    const site = await newBlog("seo_engine");
    const page = `<div data-oc-list="posts" data-oc-sort="title" data-oc-limit="2"><p data-oc-field="title">x</p></div><script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script>`;
    const pageUrl = await putPage(`<html><head><title>t</title></head><body>${page}</body></html>`);
    for (const t of ["a", "b", "c"]) await publishedPost(site, t, { title: t.toUpperCase() });
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    const base = pathOf(pageUrl);
    expect((await renderedHtml(site, base)).html).toMatch(/<p data-oc-field="title">A<\/p><p data-oc-field="title">B<\/p>/);
    expect((await renderedHtml(site, `${base}?page=2`)).html).toMatch(/<p data-oc-field="title">C<\/p><\/div>/);
    const past = await renderedHtml(site, `${base}?page=3`);
    expect(past.status).toBe(404);
    expect(past.res.headers.get("x-robots-tag")).toBe("noindex");
    expect(past.html).toContain('<meta name="robots" content="noindex">');
  });

  it("honour the widget's filter, sort and limit attributes as the content API does", async () => {
    const site = await newBlog("seo_engine");
    for (const [slug, views] of [
      ["a", 5],
      ["b", 50],
      ["c", 500],
      ["d", 30],
    ] as const)
      await publishedPost(site, slug, { title: slug, views });
    const widget = `<ol data-oc-list="posts" data-oc-filter-views-gte="10" data-oc-sort="-views" data-oc-limit="2"><li data-oc-field="title"></li></ol>`;
    const pageUrl = await putPage(`<body>${widget}<script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script></body>`);
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    const { html } = await renderedHtml(site, pathOf(pageUrl));
    expect(html).toContain('<li data-oc-field="title">c</li><li data-oc-field="title">b</li></ol>');
  });

  it("redirect the bare base path to its slash form and answer 404 outside the base", async () => {
    const { site, pageUrl } = await capturedBlog();
    const base = pathOf(pageUrl);
    const bare = await rendered(site, `${base.slice(0, -1)}?x=1`);
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe(`${base}?x=1`);
    expect((await rendered(site, "/elsewhere/")).status).toBe(404);
  });

  it("answer 404 for the list when the capture shows no list", async () => {
    const site = await newBlog("seo_engine");
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    await expectStatus(capture(site, { pageUrl, collection: "posts", showsList: false }), 201);
    expect((await rendered(site, pathOf(pageUrl))).status).toBe(404);
  });

  it("are refused below SEO Engine and for unknown tokens", async () => {
    const { site, pageUrl } = await capturedBlog();
    await callJson("PATCH", `/workspaces/${site.workspaceId}`, { auth: "test-operator-token", body: { plan: "pro" } });
    const res = await rendered(site, pathOf(pageUrl));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "plan_required" } });
    const unknown = await call("GET", pathOf(pageUrl), { headers: { "x-service-token": "pk_aaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbb" } });
    expect(unknown.status).toBe(404);
  });

  it("answer a visitor's browser with a plain page, not the API's JSON, and programs with the envelope", async () => {
    const { site, pageUrl } = await capturedBlog();
    const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    // A document the site does not have (its collection shows no list, so no sitemap), asked by a browser.
    const missing = await rendered(site, `${pathOf(pageUrl)}no-such-post/extra`, html);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await missing.text()).toContain("Page not found");
    // The plan dropped below SEO Engine: visitors are told the page is not available, not why.
    await callJson("PATCH", `/workspaces/${site.workspaceId}`, { auth: "test-operator-token", body: { plan: "pro" } });
    const refused = await rendered(site, pathOf(pageUrl), html);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
    expect(refused.headers.get("cache-control")).toMatch(/no-store/);
    expect(refused.headers.get("x-robots-tag")).toBe("noindex");
    const text = await refused.text();
    expect(text).toContain("This page is not available");
    expect(text).not.toMatch(/plan|seo_engine|\{"error"/i);
    // An unknown token through the proxy, from a browser.
    const unknown = await call("GET", pathOf(pageUrl), {
      headers: { "x-service-token": "pk_aaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbb", ...html },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Page not found");
    // A program that does not ask for HTML keeps the documented envelope.
    expect(await (await rendered(site, pathOf(pageUrl), { accept: "application/json" })).json()).toMatchObject({
      error: { code: "plan_required" },
    });
  });

  it("are served from the edge cache and invalidated by publish, edit, unpublish and delete", async () => {
    const { site, pageUrl } = await capturedBlog([{ slug: "first", data: { title: "First" } }]);
    const base = pathOf(pageUrl);
    const miss = await rendered(site, base);
    expect(miss.headers.get("x-cache")).toBe("MISS");
    await miss.text();
    const hit = await rendered(site, base);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    const etag = hit.headers.get("etag")!;
    expect((await rendered(site, base, { "if-none-match": etag })).status).toBe(304);

    const second = await publishedPost(site, "second", { title: "Second" });
    expect((await renderedHtml(site, base)).html).toContain("Second");
    await callJson("PATCH", `/sites/${site.id}/collections/posts/items/${second.id}`, {
      auth: site.adminKey,
      body: { data: { title: "Edited" } },
    });
    expect((await renderedHtml(site, base)).html).toContain("Edited");
    await callJson("POST", `/sites/${site.id}/collections/posts/items/${second.id}/unpublish`, { auth: site.adminKey });
    expect((await renderedHtml(site, base)).html).not.toContain("Edited");
    const all = await callJson<{ items: { id: string; slug: string }[] }>("GET", `/sites/${site.id}/collections/posts/items`, {
      auth: site.adminKey,
    });
    const first = all.body.items.find((i) => i.slug === "first")!;
    await callJson("DELETE", `/sites/${site.id}/collections/posts/items/${first.id}`, { auth: site.adminKey });
    const after = await renderedHtml(site, base);
    expect(after.html).not.toContain(">First<");
    expect(after.res.headers.get("etag")).not.toBe(etag);
  });

  it("stream: the response is a stream the client reads as it arrives", async () => {
    const { site, pageUrl } = await capturedBlog([{ slug: "a", data: { title: "A" } }]);
    const res = await rendered(site, pathOf(pageUrl));
    expect(res.body).toBeInstanceOf(ReadableStream);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
  });
});
