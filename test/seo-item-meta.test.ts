import { describe, expect, it } from "vitest";
import { ORIGIN, addItem, callJson, expectStatus, newBlog } from "./helpers";
import { itemPage, listPage } from "./fixtures/blog-pages";
import { capture, pathOf, publishedPost, putPage, renderedHtml } from "./ssr-helpers";
import { one, readHead } from "./seo-helpers";

const CAPTURED_HEAD = `
  <title>Blog list</title>
  <meta name="description" content="All our posts">
  <link rel="canonical" href="https://www.example.com/blog/">
  <meta property="og:title" content="Blog list"><meta property="og:type" content="website">
  <meta name="twitter:card" content="summary"><meta name="twitter:title" content="Blog list">
  <meta property="og:site_name" content="Example Co">
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"CollectionPage","name":"Blog"}</script>
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Example Co"}</script>`;

function pageWithHead(token: string, head = CAPTURED_HEAD): string {
  return listPage({ service: ORIGIN, token }).replace(/<head>[\s\S]*<\/head>/, `<head><meta charset="utf-8">${head}</head>`);
}

async function blog(opts: { seo?: Record<string, unknown>; showsList?: boolean; page?: (token: string) => string } = {}) {
  const site = await newBlog("seo_engine");
  await addItem(site, "authors", { slug: "ada", publish: true, data: { name: "Ada Lovelace" } });
  const pageUrl = await putPage((opts.page ?? pageWithHead)(site.token), { path: `/s-${crypto.randomUUID().slice(0, 8)}/blog/` });
  await expectStatus(capture(site, { pageUrl, publicUrl: `https://www.example.com${pathOf(pageUrl)}`, collection: "posts", ...opts }), 201);
  return { site, base: pathOf(pageUrl) };
}

const FULL_POST = {
  title: "Baking bread at home",
  summary: "Flour, water, salt and time: a first loaf.",
  body: "<p>Long <strong>body</strong> text.</p>",
  cover: { url: "https://cdn.example.com/bread.jpg", alt: "A loaf", width: 1600, height: 900 },
  author: "ada",
  date: "2024-05-01",
};

describe("item page head", () => {
  it("has the item's title, description, canonical, Open Graph and Twitter tags, once each", async () => {
    const { site, base } = await blog();
    await publishedPost(site, "bread", FULL_POST);
    const { html } = await renderedHtml(site, `${base}bread`);
    const h = await readHead(html);
    const canonical = `https://www.example.com${base}bread`;
    expect(h.titles).toEqual(["Baking bread at home"]);
    expect(one(h, "description")).toBe("Flour, water, salt and time: a first loaf.");
    expect(h.canonical).toEqual([canonical]);
    expect(one(h, "og:type")).toBe("article");
    expect(one(h, "og:title")).toBe("Baking bread at home");
    expect(one(h, "og:description")).toBe("Flour, water, salt and time: a first loaf.");
    expect(one(h, "og:url")).toBe(canonical);
    expect(one(h, "og:site_name")).toBe("Example Co");
    expect(one(h, "og:image")).toBe("https://cdn.example.com/bread.jpg");
    expect(one(h, "og:image:alt")).toBe("A loaf");
    expect(one(h, "og:image:width")).toBe("1600");
    expect(one(h, "og:image:height")).toBe("900");
    expect(one(h, "article:published_time")).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(one(h, "article:modified_time")).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(one(h, "twitter:card")).toBe("summary_large_image");
    expect(one(h, "twitter:title")).toBe("Baking bread at home");
    expect(one(h, "twitter:description")).toBe("Flour, water, salt and time: a first loaf.");
    expect(one(h, "twitter:image")).toBe("https://cdn.example.com/bread.jpg");
    expect(one(h, "twitter:image:alt")).toBe("A loaf");
  });

  it("has one Article and one BreadcrumbList JSON-LD, replacing the page's own and keeping others", async () => {
    const { site, base } = await blog({ seo: { publisher: "Example Publishing" } });
    const post = await publishedPost(site, "bread", FULL_POST);
    const h = await readHead((await renderedHtml(site, `${base}bread`)).html);
    const types = h.jsonLd.map((d) => d["@type"]);
    expect(types.sort()).toEqual(["Article", "BreadcrumbList", "Organization"]);
    const article = h.jsonLd.find((d) => d["@type"] === "Article")!;
    expect(article).toEqual({
      "@context": "https://schema.org",
      "@type": "Article",
      headline: "Baking bread at home",
      description: "Flour, water, salt and time: a first loaf.",
      image: { "@type": "ImageObject", url: "https://cdn.example.com/bread.jpg", width: 1600, height: 900, caption: "A loaf" },
      datePublished: expect.stringMatching(/Z$/),
      dateModified: expect.stringMatching(/Z$/),
      author: { "@type": "Person", name: "Ada Lovelace" },
      mainEntityOfPage: { "@type": "WebPage", "@id": `https://www.example.com${base}bread` },
      publisher: { "@type": "Organization", name: "Example Publishing" },
    });
    expect(post.slug).toBe("bread");
    const crumbs = h.jsonLd.find((d) => d["@type"] === "BreadcrumbList")!;
    expect(crumbs.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Example Co", item: "https://www.example.com/" },
      { "@type": "ListItem", position: 2, name: "Blog list", item: `https://www.example.com${base}` },
      { "@type": "ListItem", position: 3, name: "Baking bread at home", item: `https://www.example.com${base}bread` },
    ]);
  });

  it("leaves the list step out of the breadcrumbs when the capture shows no list", async () => {
    const { site, base } = await blog({ showsList: false });
    await publishedPost(site, "bread", FULL_POST);
    const h = await readHead((await renderedHtml(site, `${base}bread`)).html);
    const crumbs = h.jsonLd.find((d) => d["@type"] === "BreadcrumbList")!;
    expect((crumbs.itemListElement as unknown[]).length).toBe(2);
  });

  it("drops empty keys and tags when optional fields are missing", async () => {
    const { site, base } = await blog({ page: (token) => itemPage({ service: ORIGIN, token, title: "Post" }) });
    await publishedPost(site, "bare", { title: "Only a title" });
    const h = await readHead((await renderedHtml(site, `${base}bare`)).html);
    expect(one(h, "description")).toBeUndefined();
    expect(one(h, "og:image")).toBeUndefined();
    expect(one(h, "og:image:alt")).toBeUndefined();
    expect(one(h, "twitter:card")).toBe("summary");
    const article = h.jsonLd.find((d) => d["@type"] === "Article")!;
    expect(Object.keys(article).sort()).toEqual(["@context", "@type", "dateModified", "datePublished", "headline", "mainEntityOfPage"]);
    expect(JSON.stringify(h.jsonLd)).not.toMatch(/:""|:null|:\[\]|:\{\}/);
  });

  it("falls back to the rich text, stripped and cut at a word boundary near 155 characters", async () => {
    const { site, base } = await blog();
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    await publishedPost(site, "long", { title: "Long", body: `<h2>Intro</h2><p>${words} &amp; more</p>` });
    const d = one(await readHead((await renderedHtml(site, `${base}long`)).html), "description")!;
    // The heading ends its own block: a separator, never "Intro word0" run together.
    expect(d.startsWith("Intro. word0 word1")).toBe(true);
    expect(d.length).toBeLessThanOrEqual(156);
    expect(d.length).toBeGreaterThan(120);
    expect(d.endsWith("…")).toBe(true);
    expect(d).not.toContain("<");
    expect(words.split(" ")).toContain(d.slice(7, -1).split(" ").pop());
  });

  it("keeps a separator between the blocks of rich text it draws a description from", async () => {
    const { site, base } = await blog();
    const body = "<h2>Ingredients</h2><ul><li>6 ripe tomatoes</li><li>1 onion</li></ul><p>Roast the tomatoes.</p><p>Blend!</p>";
    await publishedPost(site, "soup", { title: "Soup", body });
    const d = one(await readHead((await renderedHtml(site, `${base}soup`)).html), "description")!;
    expect(d).toBe("Ingredients. 6 ripe tomatoes. 1 onion. Roast the tomatoes. Blend!");
  });

  it("takes its fields from the capture's seo settings", async () => {
    const site = await newBlog("seo_engine");
    const pageUrl = await putPage(pageWithHead(site.token));
    await expectStatus(
      capture(site, {
        pageUrl,
        collection: "posts",
        seo: { titleField: "notes", descriptionField: "website", siteName: "Configured name" },
      }),
      201,
    );
    await publishedPost(site, "x", { title: "Ignored title", notes: "Notes as title", website: "https://example.com/" });
    const h = await readHead((await renderedHtml(site, `${pathOf(pageUrl)}x`)).html);
    expect(h.titles).toEqual(["Notes as title"]);
    expect(one(h, "description")).toBe("https://example.com/");
    expect(one(h, "og:site_name")).toBe("Configured name");
  });

  it("keeps hostile content inside its context: text, attributes and JSON in <script>", async () => {
    const { site, base } = await blog();
    const evil = `</script><script>alert(1)</script><!-- "quoted" & 'single' \u2028 <b>`;
    await publishedPost(site, "evil", { title: evil, summary: evil, cover: { url: "https://cdn.example.com/x.jpg", alt: evil } });
    const { html } = await renderedHtml(site, `${base}evil`);
    expect(html).not.toContain("<script>alert(1)</script>");
    const h = await readHead(html);
    expect(h.titles).toEqual([evil]);
    expect(one(h, "og:title")).toBe(evil);
    expect(one(h, "twitter:image:alt")).toBe(evil);
    const article = h.jsonLd.find((d) => d["@type"] === "Article")!;
    expect(article.headline).toBe(evil);
    for (const raw of h.rawJsonLd) expect(raw).not.toMatch(/[<>]/);
  });

  it("handles very long text: the title whole, the description cut near 155 characters", async () => {
    const { site, base } = await blog();
    const longTitle = "Long ".repeat(2000).trim();
    const longSummary = "A sentence that goes on. ".repeat(400);
    await publishedPost(site, "long", { title: longTitle, summary: longSummary });
    const h = await readHead((await renderedHtml(site, `${base}long`)).html);
    expect(h.titles).toEqual([longTitle]);
    const d = one(h, "description")!;
    expect(d.length).toBeLessThanOrEqual(156);
    expect(d.endsWith("…")).toBe(true);
    expect(one(h, "og:description")).toBe(d);
  });

  it("are added to a captured page that has no <head> element", async () => {
    const site = await newBlog("seo_engine");
    const html = `<!doctype html><title>Minified</title><div data-oc-list="posts"><p data-oc-field="title">x</p></div><script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script>`;
    const pageUrl = await putPage(html);
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    await publishedPost(site, "bread", { ...FULL_POST, author: undefined });
    const h = await readHead((await renderedHtml(site, `${pathOf(pageUrl)}bread`)).html);
    expect(h.titles).toEqual(["Baking bread at home"]);
    expect(h.canonical).toHaveLength(1);
    expect(h.jsonLd.map((d) => d["@type"]).sort()).toEqual(["Article", "BreadcrumbList"]);
    const missing = await renderedHtml(site, `${pathOf(pageUrl)}nope`);
    expect(missing.html).toContain('<meta name="robots" content="noindex">');
  });

  it("leaves list pages' head exactly as captured", async () => {
    const { site, base } = await blog();
    await publishedPost(site, "bread", FULL_POST);
    const { html } = await renderedHtml(site, base);
    expect(html).toContain(CAPTURED_HEAD);
    const h = await readHead(html);
    expect(h.titles).toEqual(["Blog list"]);
    expect(h.meta.get("og:type")).toEqual(["website"]);
  });

  it("changes when the item is edited", async () => {
    const { site, base } = await blog();
    const post = await publishedPost(site, "bread", FULL_POST);
    await readHead((await renderedHtml(site, `${base}bread`)).html);
    await callJson("PATCH", `/sites/${site.id}/collections/posts/items/${post.id}`, {
      auth: site.adminKey,
      body: { data: { title: "New title" } },
    });
    expect((await readHead((await renderedHtml(site, `${base}bread`)).html)).titles).toEqual(["New title"]);
  });
});
