// Rendered pages of a site with locales, through the customer's proxy path: each secondary under
// its prefix of the routed base, `<html lang>`, canonical per locale, hreflang alternates only
// where the item exists (reciprocal, self-referencing, x-default), og:locale, JSON-LD inLanguage,
// and the template's links into the routed base sent to the page's locale.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, type TestSite, call, callJson, expectStatus, newBlog } from "./helpers";
import { listPage } from "./fixtures/blog-pages";
import { capture, publishedPost, putPage, rendered, renderedHtml } from "./ssr-helpers";

/** hreflang → href of a page's alternate links. */
function alternates(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)) out[m[1]!] = m[2]!;
  return out;
}
const canonical = (html: string) => /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1];

async function localizedBlog(): Promise<{ site: TestSite; base: string; origin: string }> {
  const site = await newBlog("seo_engine");
  const base = `/p-${crypto.randomUUID().slice(0, 8)}/blog/`;
  // The template links to its own list and to a post by the post's own slug, as a site builder writes them.
  const extra = `<nav><a class="all" href="${base}">All posts</a> <a class="pinned" href="${base}hello">Pinned</a> <a class="out" href="/about">About</a></nav>`;
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token, extra }), { path: base });
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/collections/posts`, {
      auth: site.adminKey,
      body: {
        name: "Posts",
        fields: [
          { key: "title", type: "text", indexed: true, required: true, localized: true },
          { key: "summary", type: "text", localized: true },
          { key: "date", type: "date", indexed: true },
        ],
      },
    }),
    200,
  );
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/locales`, {
      auth: site.adminKey,
      body: { primary: "en", secondary: [{ code: "fr" }, { code: "de" }] },
    }),
    200,
  );
  const hello = await publishedPost(site, "hello", { title: "Hello", summary: "A first post", date: "2024-05-01" });
  await publishedPost(site, "second", { title: "Second", date: "2024-04-01" });
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/collections/posts/items/${hello.id}/locales/fr`, {
      auth: site.adminKey,
      body: { slug: "bonjour", data: { title: "Bonjour" } },
    }),
    200,
  );
  await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
  return { site, base, origin: new URL(pageUrl).origin };
}

describe("rendered pages in a locale", () => {
  it("render an item in its locale with hreflang for the locales it exists in, reciprocal and self-referencing", async () => {
    const { site, base, origin } = await localizedBlog();
    const fr = await renderedHtml(site, `/fr${base}bonjour`);
    expect(fr.status).toBe(200);
    expect(fr.html).toContain('<html lang="fr">');
    expect(fr.html).toContain("<title>Bonjour</title>");
    expect(canonical(fr.html)).toBe(`${origin}/fr${base}bonjour`);
    const expected = {
      en: `${origin}${base}hello`,
      fr: `${origin}/fr${base}bonjour`,
      "x-default": `${origin}${base}hello`,
    };
    // No alternate for German: the item is not translated into it.
    expect(alternates(fr.html)).toEqual(expected);
    expect(fr.html).toContain('<meta property="og:locale" content="fr">');
    expect(fr.html).toContain('<meta property="og:locale:alternate" content="en">');
    expect(fr.html).toContain('"inLanguage":"fr"');
    // The same set from the primary's page: reciprocal.
    const en = await renderedHtml(site, `${base}hello`);
    expect(en.status).toBe(200);
    expect(en.html).toContain('<html lang="en">');
    expect(alternates(en.html)).toEqual(expected);
    expect(canonical(en.html)).toBe(`${origin}${base}hello`);
    // An item without a translation has only its own.
    const second = await renderedHtml(site, `${base}second`);
    expect(alternates(second.html)).toEqual({ en: `${origin}${base}second`, "x-default": `${origin}${base}second` });
  });

  it("sends the item's own slug under a locale to its slug there, and has no page where it is not translated", async () => {
    const { site, base } = await localizedBlog();
    const moved = await rendered(site, `/fr${base}hello?ref=nav`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`/fr${base}bonjour?ref=nav`);
    expect((await rendered(site, `/de${base}hello`)).status).toBe(404);
    expect((await rendered(site, `/fr${base}second`)).status).toBe(404);
    const upper = await rendered(site, `/FR${base}bonjour`);
    expect(upper.status).toBe(301);
    expect(upper.headers.get("location")).toBe(`/fr${base}bonjour`);
  });

  it("sends a renamed translation's old slugs to its slug now, in pages and the content API", async () => {
    const { site, base } = await localizedBlog();
    const { items } = await expectStatus(
      callJson<{ items: { id: string; slug: string }[] }>("GET", `/sites/${site.id}/collections/posts/items`, { auth: site.adminKey }),
      200,
    );
    const hello = items.find((i) => i.slug === "hello")!;
    for (const slug of ["salut", "coucou"])
      await expectStatus(
        callJson("PUT", `/sites/${site.id}/collections/posts/items/${hello.id}/locales/fr`, {
          auth: site.adminKey,
          body: { slug, data: { title: "Bonjour" } },
        }),
        200,
      );
    // Both old slugs lead to the slug now in one hop; German never had them.
    for (const old of ["bonjour", "salut"]) {
      const page = await rendered(site, `/fr${base}${old}?ref=mail`);
      expect(page.status, old).toBe(301);
      expect(page.headers.get("location")).toBe(`/fr${base}coucou?ref=mail`);
      const api = await call("GET", `/v1/${site.token}/collections/posts/items/${old}?locale=fr`);
      expect(api.status).toBe(301);
      expect(api.headers.get("location")).toBe(`/v1/${site.token}/collections/posts/items/coucou?locale=fr`);
    }
    expect((await rendered(site, `/de${base}bonjour`)).status).toBe(404);
    expect((await rendered(site, `/fr${base}coucou`)).status).toBe(200);
    // The item's own slug in a locale leads to its slug there, as its page does.
    const own = await call("GET", `/v1/${site.token}/collections/posts/items/hello?locale=fr&fields=title`);
    expect(own.status).toBe(301);
    expect(own.headers.get("location")).toBe(`/v1/${site.token}/collections/posts/items/coucou?locale=fr&fields=title`);
    expect((await call("GET", `/v1/${site.token}/collections/posts/items/hello?locale=de`)).status).toBe(404);
    // The old slug taken by another item's translation is that item's page again.
    const second = items.find((i) => i.slug === "second")!;
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts/items/${second.id}/locales/fr`, {
        auth: site.adminKey,
        body: { slug: "bonjour", data: { title: "Deuxième" } },
      }),
      200,
    );
    expect((await renderedHtml(site, `/fr${base}bonjour`)).html).toContain("<title>Deuxième</title>");
    // A translation deleted leaves no redirect behind.
    await expectStatus(
      callJson("DELETE", `/sites/${site.id}/collections/posts/items/${hello.id}/locales/fr`, { auth: site.adminKey }),
      200,
    );
    expect((await rendered(site, `/fr${base}salut`)).status).toBe(404);
  });

  it("renders the list in a locale with its items' slugs there, every locale's alternates and the template's links moved", async () => {
    const { site, base, origin } = await localizedBlog();
    const fr = await renderedHtml(site, `/fr${base}`);
    expect(fr.status).toBe(200);
    expect(fr.html).toContain('<html lang="fr">');
    // Only the translated post is listed in French, linked by its French slug.
    expect(fr.html).toContain(`href="/fr${base}bonjour"`);
    expect(fr.html).toContain("Bonjour");
    expect(fr.html).not.toContain("Second");
    expect(canonical(fr.html)).toBe(`${origin}/fr${base}`);
    expect(alternates(fr.html)).toEqual({
      en: `${origin}${base}`,
      fr: `${origin}/fr${base}`,
      de: `${origin}/de${base}`,
      "x-default": `${origin}${base}`,
    });
    expect(fr.html).toContain(`<a class="all" href="/fr${base}">`);
    expect(fr.html).toContain(`<a class="pinned" href="/fr${base}hello">`);
    expect(fr.html).toContain('<a class="out" href="/about">');
    const en = await renderedHtml(site, base);
    expect(en.html).toContain(`<a class="all" href="${base}">`);
    expect(alternates(en.html)).toEqual(alternates(fr.html));
  });

  it("lists every locale version in the sitemap with the same hreflang set, and gives each secondary its feeds", async () => {
    const { site, base, origin } = await localizedBlog();
    await runDurableObjectAlarm(env.SITE.get(env.SITE.idFromName(site.id)));
    const xml = await (await rendered(site, `${base}sitemap.xml`)).text();
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    // Each <url> with the hreflang → href of its xhtml:links.
    const urls = new Map<string, Record<string, string>>();
    for (const m of xml.matchAll(/<url><loc>([^<]+)<\/loc>.*?<\/url>/g)) {
      const links: Record<string, string> = {};
      for (const l of m[0].matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)) links[l[1]!] = l[2]!;
      urls.set(m[1]!, links);
    }
    const hello = { en: `${origin}${base}hello`, fr: `${origin}/fr${base}bonjour`, "x-default": `${origin}${base}hello` };
    // One URL per locale version, each naming the same set (itself included): reciprocal.
    expect(urls.get(`${origin}${base}hello`)).toEqual(hello);
    expect(urls.get(`${origin}/fr${base}bonjour`)).toEqual(hello);
    expect(urls.has(`${origin}/de${base}hello`)).toBe(false);
    expect(urls.get(`${origin}${base}second`)).toEqual({ en: `${origin}${base}second`, "x-default": `${origin}${base}second` });
    expect(urls.get(`${origin}/de${base}`)).toEqual({
      en: `${origin}${base}`,
      fr: `${origin}/fr${base}`,
      de: `${origin}/de${base}`,
      "x-default": `${origin}${base}`,
    });
    // The secondary's sitemap is the one sitemap; its feeds are its own.
    const moved = await rendered(site, `/fr${base}sitemap.xml`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`${base}sitemap.xml`);
    const rss = await (await rendered(site, `/fr${base}rss.xml`)).text();
    expect(rss).toContain("<title>Bonjour</title>");
    expect(rss).toContain(`${origin}/fr${base}bonjour`);
    expect(rss).not.toContain("Second");
    const feed = (await (await rendered(site, `/fr${base}feed.json`)).json()) as { items: { url: string }[] };
    expect(feed.items.map((i) => i.url)).toEqual([`${origin}/fr${base}bonjour`]);
    const enFeed = (await (await rendered(site, `${base}feed.json`)).json()) as { items: { url: string }[] };
    expect(enFeed.items).toHaveLength(2);
    expect((await rendered(site, `/de${base}rss.xml`)).status).toBe(200);
  });
});
