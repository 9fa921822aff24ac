import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sanitizeRichText } from "../actors/site/content/rich-text";
import { addItem, callJson, newBlog } from "./helpers";

describe("rich text is cleaned on write", () => {
  it("keeps ordinary formatting exactly", () => {
    const html = `<h2 id="intro">Intro</h2><p>Some <strong>bold</strong>, <em>em</em> &amp; <a href="https://example.com/a?b=1&amp;c=2" title="x">a link</a>.</p><ul><li>one</li><li>two</li></ul><img src="/a.jpg" alt="A" width="10"><blockquote cite="https://x.test/">q</blockquote>`;
    expect(sanitizeRichText(html)).toBe(html);
  });

  it("drops script, style, event handlers, javascript: URLs and comments", () => {
    expect(sanitizeRichText(`<p onclick="x()">a<script>alert(1)</script>b<style>p{}</style></p>`)).toBe("<p>ab</p>");
    expect(sanitizeRichText(`<a href="javascript:alert(1)">x</a><a href=" jav&#x61;script:alert(2)">y</a>`)).toBe("<a>x</a><a>y</a>");
    expect(sanitizeRichText(`<img src="data:text/html,x" onerror="alert(1)"><!-- hidden -->`)).toBe("<img>");
    expect(sanitizeRichText(`<iframe src="https://evil.test"><p>inside</p></iframe>after`)).toBe("after");
    expect(sanitizeRichText(`<svg><script>alert(1)</script></svg>ok`)).toBe("ok");
  });

  it("unwraps unknown tags, balances open tags and escapes stray brackets", () => {
    expect(sanitizeRichText(`<custom-el>text</custom-el><font color="red">red</font>`)).toBe("textred");
    expect(sanitizeRichText(`<div><p>unclosed`)).toBe("<div><p>unclosed</p></div>");
    expect(sanitizeRichText(`</div>stray close<b>x</i></b>`)).toBe("stray close<b>x</b>");
    expect(sanitizeRichText(`1 < 2 > 0`)).toBe("1 &lt; 2 &gt; 0");
    const deep = sanitizeRichText("<b>".repeat(30_000) + "x" + "</i>".repeat(30_000));
    expect(deep.match(/<b>/g)).toHaveLength(64);
    expect(deep.endsWith("</b>".repeat(64))).toBe(true);
    expect(sanitizeRichText(`<p title='say "hi"'>x</p>`)).toBe(`<p title="say &quot;hi&quot;">x</p>`);
  });

  it("gives list items and definitions their parent, and drops table parts and links that could not stay inside", () => {
    expect(sanitizeRichText("<li>a</li><li>b</li>")).toBe("<ul><li>a</li><li>b</li></ul>");
    expect(sanitizeRichText("<dt>t</dt><dd>d</dd>")).toBe("<dl><dt>t</dt><dd>d</dd></dl>");
    expect(sanitizeRichText("<tr><td>x</td></tr>")).toBe("x");
    expect(sanitizeRichText("<table><tr><td>x</td></tr></table>")).toBe("<table><tr><td>x</td></tr></table>");
    expect(sanitizeRichText('<a href="/a">1<a href="/b">2</a></a>')).toBe('<a href="/a">12</a>');
  });

  it("adds rel=noopener to links that open a new tab", () => {
    expect(sanitizeRichText(`<a href="https://x.test/" target="_blank">x</a>`)).toBe(
      `<a href="https://x.test/" target="_blank" rel="noopener noreferrer">x</a>`,
    );
    expect(sanitizeRichText(`<a href="/x" target="top">x</a>`)).toBe(`<a href="/x">x</a>`);
  });

  it("stores and serves the cleaned HTML through the API", async () => {
    const site = await newBlog("pro");
    await addItem(site, "posts", {
      slug: "x",
      publish: true,
      data: { title: "X", body: `<p>ok<script>alert(1)</script><img src=x onerror=alert(2)></p>` },
    });
    const { body } = await callJson<{ item: { data: { body: string } } }>("GET", `/v1/${site.token}/collections/posts/items/x`);
    expect(body.item.data.body).toBe('<p>ok<img src="x"></p>');
  });

  it("cleans rich text stored before cleaning existed, once, when the site object starts", async () => {
    const site = await newBlog("pro");
    await addItem(site, "posts", { slug: "old", publish: true, data: { title: "Old", body: "<p>placeholder</p>" } });
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    // As a site written by an older version would hold it: raw HTML, and no record of the clean-up.
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec(
        `UPDATE items SET data = json_set(data, '$.body', ?) WHERE slug = 'old'`,
        `<p>hi<script>alert(1)</script></p>`,
      );
      state.storage.kv.delete("rich-text-cleaned");
    });
    await evictDurableObject(stub);
    const { body } = await callJson<{ item: { data: { body: string } } }>("GET", `/v1/${site.token}/collections/posts/items/old`);
    expect(body.item.data.body).toBe("<p>hi</p>");
  });
});
