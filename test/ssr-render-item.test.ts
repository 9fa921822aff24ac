import { describe, expect, it } from "vitest";
import { ORIGIN, expectStatus, newBlog } from "./helpers";
import { itemPage, listPage } from "./fixtures/blog-pages";
import { capture, pathOf, publishedPost, putPage, renderedHtml } from "./ssr-helpers";
import { addItem } from "./helpers";

async function blogWithAuthor() {
  const site = await newBlog("seo_engine");
  await addItem(site, "authors", { slug: "ada", publish: true, data: { name: "Ada <Lovelace>" } });
  return site;
}

describe("rendered item pages", () => {
  it("bind the page's own item into data-oc-item scopes (item template page, list unchecked)", async () => {
    const site = await blogWithAuthor();
    await publishedPost(site, "hello-world", {
      title: "Hello & <World>",
      summary: "A first post",
      body: "<p>Rich <strong>text</strong></p>",
      date: "2024-05-01",
      website: "https://example.com/a?b=1&c=2",
      cover: { url: "https://cdn.example.com/cover.jpg", alt: "" },
      author: "ada",
    });
    await publishedPost(site, "another", { title: "Another" });
    const pageUrl = await putPage(itemPage({ service: ORIGIN, token: site.token }));
    await expectStatus(capture(site, { pageUrl, collection: "posts", showsList: false }), 201);
    const base = pathOf(pageUrl);
    const { status, html } = await renderedHtml(site, `${base}hello-world`);
    expect(status).toBe(200);
    expect(html).toContain('<article class="post" data-oc-item="posts" data-oc-rendered="1">');
    expect(html).toContain('<h1 data-oc-field="title">Hello &amp; &lt;World&gt;</h1>');
    expect(html).toContain('<div class="body" data-oc-field="body"><p>Rich <strong>text</strong></p></div>');
    // A plain image host: the srcset is the original, never /cdn-cgi/image/ candidates that 404 there.
    expect(html).toContain(
      '<img class="hero" data-oc-field="cover" src="https://cdn.example.com/cover.jpg" alt="" srcset="https://cdn.example.com/cover.jpg">',
    );
    expect(html).toContain('<span data-oc-field="author.name">Ada &lt;Lovelace&gt;</span>');
    expect(html).toContain('<time data-oc-field="date" data-oc-format="YYYY-MM-DD">2024-05-01</time>');
    expect(html).toContain('<a class="website" data-oc-field="website" href="https://example.com/a?b=1&amp;c=2">website</a>');
    expect(html).toContain(`<a class="permalink" data-oc-link href="${base}hello-world">permalink</a>`);
    // Related widgets stay for the browser: untouched, not bound to the page's item.
    expect(html).toContain('<div class="related" data-oc-related="posts"><a data-oc-link data-oc-field="title">related</a></div>');
    // The other list on the page renders normally, its links under the same base.
    expect(html).toContain(`<li><a data-oc-link="" data-oc-field="title" href="${base}another">Another</a></li>`);
    expect(html).toContain(`<li><a data-oc-link="" data-oc-field="title" href="${base}hello-world">Hello &amp; &lt;World&gt;</a></li>`);
    expect((await renderedHtml(site, base)).status).toBe(404);
  });

  it("render the item alone in the list's template when the page has no item scope (one design for both)", async () => {
    const site = await newBlog("seo_engine");
    await publishedPost(site, "one", { title: "One" });
    await publishedPost(site, "two", { title: "Two" });
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    const { html } = await renderedHtml(site, `${pathOf(pageUrl)}two`);
    expect(html.match(/<article class="card"/g)).toHaveLength(1);
    expect(html).toContain(">Two</h2>");
    expect(html).not.toContain(">One</h2>");
  });

  it("answer an unknown or unpublished slug with 404, the template's look and noindex", async () => {
    const site = await newBlog("seo_engine");
    await publishedPost(site, "live", { title: "Live" });
    await addItem(site, "posts", { slug: "draft", data: { title: "Draft" } });
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    for (const slug of ["nope", "draft", "%E2%9C%93"]) {
      const { status, html, res } = await renderedHtml(site, `${pathOf(pageUrl)}${slug}`);
      expect(status, slug).toBe(404);
      expect(res.headers.get("x-robots-tag")).toBe("noindex");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(html).toContain('<meta name="robots" content="noindex"></head>');
      expect(html).toContain("<header><h1>Acme Blog</h1></header>");
      expect(html).not.toContain("Draft");
    }
  });

  it("redirect a trailing slash after the slug to the canonical item URL", async () => {
    const site = await newBlog("seo_engine");
    await publishedPost(site, "live", { title: "Live" });
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    const res = await (await import("./ssr-helpers")).rendered(site, `${pathOf(pageUrl)}live/`);
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(`${pathOf(pageUrl)}live`);
  });

  it("bind only scopes for the page's item: another collection or data-oc-slug is left to the browser", async () => {
    const site = await blogWithAuthor();
    await publishedPost(site, "hello", { title: "Hello" });
    const page = `<html><head><title>t</title></head><body>
      <article data-oc-item="posts"><h1 data-oc-field="title">x</h1></article>
      <aside data-oc-item="authors" data-oc-slug="ada"><b data-oc-field="name">author</b><i data-oc-field="title">keep</i></aside>
      <section data-oc-item="posts" data-oc-slug="another"><h2 data-oc-field="title">other</h2></section>
      <div data-oc-list="posts"><p data-oc-field="title">t</p></div>
      <script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script></body></html>`;
    const pageUrl = await putPage(page);
    await expectStatus(capture(site, { pageUrl, collection: "posts", showsList: false }), 201);
    const { html } = await renderedHtml(site, `${pathOf(pageUrl)}hello`);
    expect(html).toContain('<article data-oc-item="posts" data-oc-rendered="1"><h1 data-oc-field="title">Hello</h1></article>');
    expect(html).toContain(
      '<aside data-oc-item="authors" data-oc-slug="ada"><b data-oc-field="name">author</b><i data-oc-field="title">keep</i></aside>',
    );
    expect(html).toContain('<section data-oc-item="posts" data-oc-slug="another"><h2 data-oc-field="title">other</h2></section>');
  });
});
