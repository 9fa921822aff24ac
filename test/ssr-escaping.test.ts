import { describe, expect, it } from "vitest";
import { ORIGIN, expectStatus, newBlog } from "./helpers";
import { capture, pathOf, publishedPost, putPage, renderedHtml } from "./ssr-helpers";

describe("content in rendered pages is escaped for its context", () => {
  it("text, attributes and URLs from hostile content cannot break out", async () => {
    const site = await newBlog("seo_engine");
    const hostile = `"><script>alert(1)</script><img src=x onerror=alert(2)>&amp;'`;
    await publishedPost(site, "evil", { title: hostile, summary: hostile, notes: "javascript:alert(3)" });
    const widget = `<div data-oc-list="posts"><div class="card">
      <a data-oc-link data-oc-attr-title="title" data-oc-attr-onclick="title" data-oc-attr-style="title"><span data-oc-field="title">t</span></a>
      <a class="notes" data-oc-attr-href="notes">n</a>
    </div></div>`;
    const pageUrl = await putPage(`<body>${widget}<script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script></body>`);
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    const { html } = await renderedHtml(site, pathOf(pageUrl));
    const escapedText = "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&amp;amp;&#39;";
    expect(html).toContain(`title="${escapedText}"`);
    expect(html).toContain(
      `<span data-oc-field="title">"&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&amp;amp;'</span>`,
    );
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toMatch(/\sonclick=/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).toContain('<a class="notes" data-oc-attr-href="notes">n</a>');
    expect(html).not.toContain("javascript:");
  });

  it("a slug with reserved characters is encoded in item links", async () => {
    const site = await newBlog("seo_engine");
    await publishedPost(site, "a-b", { title: "x" });
    const pageUrl = await putPage(
      `<body><ul data-oc-list="posts"><li><a data-oc-link>x</a></li></ul><script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script></body>`,
    );
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    expect((await renderedHtml(site, pathOf(pageUrl))).html).toContain(`href="${pathOf(pageUrl)}a-b"`);
  });

  it("attribute values of the captured page keep their meaning after re-serialisation", async () => {
    const site = await newBlog("seo_engine");
    await publishedPost(site, "a", { title: "x" });
    const pageUrl = await putPage(
      `<body><ul data-oc-list="posts"><li title='say "hi" &amp; bye' data-x=plain><b data-oc-field="title">x</b></li></ul><script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script></body>`,
    );
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    expect((await renderedHtml(site, pathOf(pageUrl))).html).toContain(
      `<li title="say &quot;hi&quot; &amp; bye" data-x="plain"><b data-oc-field="title">x</b></li>`,
    );
  });

  it("content never binds into script, style or base elements", async () => {
    const site = await newBlog("seo_engine");
    await publishedPost(site, "a", { title: "alert(1)", website: "https://evil.example/" });
    const widget = `<div data-oc-list="posts"><div><script data-oc-field="title">safe()</script><script data-oc-attr-src="website"></script><base data-oc-attr-href="website"><style data-oc-field="title"></style><b data-oc-field="title">t</b></div></div>`;
    const pageUrl = await putPage(`<body>${widget}<script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script></body>`);
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    const { html } = await renderedHtml(site, pathOf(pageUrl));
    expect(html).toContain(
      '<script data-oc-field="title">safe()</script><script data-oc-attr-src="website"></script><base data-oc-attr-href="website"><style data-oc-field="title"></style><b data-oc-field="title">alert(1)</b>',
    );
  });
});
