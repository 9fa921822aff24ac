import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPage } from "../fixtures/blog-pages";
import { type Site, addPosts, api, blogSite, launch, putPage, service } from "./harness";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("the embed script in Chromium", () => {
  it("renders a static page's list widget from the content API", async () => {
    const site = await blogSite();
    await addPosts(site);
    const base = `/embed-${site.id}/blog/`;
    const url = await putPage(base, listPage({ service: service(), token: site.token }));
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector("[data-oc-list][data-oc-rendered]");
    const cards = await page.$$eval(".posts > article.card", (els) =>
      els.map((el) => ({
        title: el.querySelector("h2")?.textContent,
        href: el.querySelector("a.card-link")?.getAttribute("href"),
        body: el.querySelector(".body")?.innerHTML,
        src: el.querySelector("img.cover")?.getAttribute("src"),
        srcset: el.querySelector("img.cover")?.getAttribute("srcset"),
        alt: el.querySelector("img.cover")?.getAttribute("alt"),
        date: el.querySelector("time")?.textContent,
        datetime: el.querySelector("time")?.getAttribute("datetime"),
        defaultDate: el.querySelector("time.default-date")?.textContent,
        views: el.querySelector(".views")?.textContent,
        website: el.querySelector("a.website")?.getAttribute("href"),
        author: el.querySelector(".author")?.textContent,
        coauthors: el.querySelector(".coauthors")?.textContent,
        summaryShown: el.querySelector(".summary") !== null,
        noSummaryShown: el.querySelector(".no-summary") !== null,
        featured: el.querySelector(".featured") !== null,
        unsafeHref: el.querySelector("a.unsafe")?.getAttribute("href") ?? null,
      })),
    );
    expect(cards).toHaveLength(2);
    const [first, second] = cards;
    expect(first).toMatchObject({
      title: `Hello & <World> "quoted"`,
      href: `${base}hello-world`,
      body: `<p>Rich <strong>text</strong> &amp; <a href="https://example.com/">a link</a></p><ul><li>one</li><li>two</li></ul>`,
      src: "https://cdn.example.com/cover.jpg",
      alt: "A cover",
      date: "1 May 2024",
      datetime: "2024-05-01T09:30:00.000Z",
      defaultDate: "May 1, 2024",
      views: "1234",
      website: "https://example.com/a?b=1&c=2",
      author: "Ada <Lovelace>",
      coauthors: "Ada <Lovelace>, Grace Hopper",
      summaryShown: true,
      noSummaryShown: false,
      featured: true,
      unsafeHref: null,
    });
    // A plain image host: the srcset names the original only (no /cdn-cgi/image/ candidates that would 404).
    expect(first!.srcset).toBe("https://cdn.example.com/cover.jpg");
    expect(second).toMatchObject({ title: "Second post", alt: "", summaryShown: false, noSummaryShown: true, featured: false, views: "0" });
    expect(await page.$(".posts > .empty")).toBeNull();
    expect(await page.textContent(".posts")).not.toContain("Second sample card");
    await page.close();
  });

  it("shows the empty state when the collection has nothing published", async () => {
    const site = await blogSite();
    const url = await putPage(`/embed-empty-${site.id}/blog/`, listPage({ service: service(), token: site.token }));
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector("[data-oc-list][data-oc-rendered]");
    expect(await page.$$(".posts > article")).toHaveLength(0);
    expect(await page.isVisible(".posts > .empty")).toBe(true);
    expect(await page.textContent(".posts > .empty")).toBe("No posts yet.");
    await page.close();
  });

  it("reads in the page's locale: its <html lang> when the site has it, or the script's data-oc-locale", async () => {
    const site = await blogSite();
    await addPosts(site);
    await localize(site);
    const base = `/embed-locale-${site.id}/blog/`;
    const html = listPage({ service: service(), token: site.token });
    const titles = async (url: string) => {
      const page = await browser.newPage();
      const reads: string[] = [];
      page.on("request", (r) => void (r.url().includes("/items") && reads.push(new URL(r.url()).search)));
      await page.goto(url);
      await page.waitForSelector("[data-oc-list][data-oc-rendered]");
      const shown = await page.$$eval(".posts > article.card", (els) =>
        els.map((el) => `${el.querySelector("h2")?.textContent} ${el.querySelector("a.card-link")?.getAttribute("href")}`),
      );
      await page.close();
      return { shown, reads };
    };
    const fr = await titles(await putPage(`/fr${base}`, html.replace('<html lang="en">', '<html lang="fr">')));
    expect(fr.shown).toEqual([`Bonjour le monde /fr${base}bonjour-le-monde`]);
    expect(fr.reads.some((q) => q.includes("locale=fr"))).toBe(true);
    const named = await titles(await putPage(`/x${base}`, html.replace("data-oc-token=", 'data-oc-locale="fr" data-oc-token=')));
    expect(named.shown).toEqual([`Bonjour le monde /x${base}bonjour-le-monde`]);
    // A language the site does not have: the items' own values, read once.
    const de = await titles(await putPage(`/de${base}`, html.replace('<html lang="en">', '<html lang="de">')));
    expect(de.shown.map((t) => t.split(" /")[0])).toEqual([`Hello & <World> "quoted"`, "Second post"]);
    expect(de.reads.filter((q) => q.includes("locale"))).toEqual([]);
  });
});

/** The blog with French: its title localized, and the first post translated. */
async function localize(site: Site): Promise<void> {
  const { collection } = await api<{ collection: { name: string; fields: { key: string }[] } }>(
    "GET",
    `/sites/${site.id}/collections/posts`,
    site.adminKey,
  );
  await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
    name: collection.name,
    fields: collection.fields.map((f) => (f.key === "title" ? { ...f, localized: true } : f)),
  });
  await api("PUT", `/sites/${site.id}/locales`, site.adminKey, { primary: "en", secondary: [{ code: "fr" }] });
  const { items } = await api<{ items: { id: string; slug: string }[] }>("GET", `/sites/${site.id}/collections/posts/items`, site.adminKey);
  const hello = items.find((i) => i.slug === "hello-world")!;
  await api("PUT", `/sites/${site.id}/collections/posts/items/${hello.id}/locales/fr`, site.adminKey, {
    slug: "bonjour-le-monde",
    data: { title: "Bonjour le monde" },
  });
}
