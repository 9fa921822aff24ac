import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemPage, listPage } from "../fixtures/blog-pages";
import { type Site, addPosts, api, blogSite, launch, normalisedDom, putPage, renderedByServer, service } from "./harness";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The page after the embed script ran in Chromium, against the live content API. */
async function clientRendered(url: string, ready: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector(ready);
  return page;
}

/** The server's HTML, shown at the same URL with JavaScript off: exactly what a crawler's first response holds. */
async function serverRendered(url: string, html: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await page.goto(url);
  return page;
}

async function capture(site: Site, body: Record<string, unknown>): Promise<void> {
  await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, body);
}

describe("server rendering matches the embed script", () => {
  it("on list pages: the widget's DOM is the same", async () => {
    const site = await blogSite();
    await addPosts(site);
    const base = `/parity-${site.id}/blog/`;
    const url = await putPage(base, listPage({ service: service(), token: site.token }));
    const client = await clientRendered(url, "[data-oc-list][data-oc-rendered]");
    await capture(site, { pageUrl: url, collection: "posts" });
    const { status, html } = await renderedByServer(site, base);
    expect(status).toBe(200);
    const server = await serverRendered(url, html);
    const expected = await normalisedDom(client, "[data-oc-list]");
    expect(expected[0]).toContain("Hello &amp; &lt;World&gt;"); // rendered, not the template's samples
    expect(await normalisedDom(server, "[data-oc-list]")).toEqual(expected);
    await client.close();
    await server.context().close();
  });

  it("on list pages with nothing published: the empty state is the same", async () => {
    const site = await blogSite();
    const base = `/parity-empty-${site.id}/blog/`;
    const url = await putPage(base, listPage({ service: service(), token: site.token }));
    const client = await clientRendered(url, "[data-oc-list][data-oc-rendered]");
    await capture(site, { pageUrl: url, collection: "posts" });
    const server = await serverRendered(url, (await renderedByServer(site, base)).html);
    expect(await normalisedDom(server, "[data-oc-list]")).toEqual(await normalisedDom(client, "[data-oc-list]"));
    await client.close();
    await server.context().close();
  });

  it("on item pages: the item scope and the other list are the same", async () => {
    const site = await blogSite();
    await addPosts(site);
    const base = `/parity-item-${site.id}/blog/`;
    const url = await putPage(`${base}hello-world`, itemPage({ service: service(), token: site.token }));
    const client = await clientRendered(url, "[data-oc-item][data-oc-rendered]");
    await client.waitForSelector("[data-oc-list][data-oc-rendered]");
    await capture(site, { pageUrl: url, publicUrl: `${new URL(url).origin}${base}`, collection: "posts", showsList: false });
    const { status, html } = await renderedByServer(site, `${base}hello-world`);
    expect(status).toBe(200);
    const server = await serverRendered(url, html);
    for (const selector of ["[data-oc-item]", "[data-oc-list]"]) {
      const expected = await normalisedDom(client, selector);
      expect(await normalisedDom(server, selector), selector).toEqual(expected);
    }
    expect((await normalisedDom(client, "[data-oc-item]"))[0]).toContain("Ada &lt;Lovelace&gt;");
    await client.close();
    await server.context().close();
  });

  it("with option labels and number formats: both show labels and prices the same way", async () => {
    const site = await blogSite();
    await api("PUT", `/sites/${site.id}/collections/products`, site.adminKey, {
      name: "Products",
      fields: [
        { key: "name", type: "text", required: true },
        { key: "price", type: "number" },
        {
          key: "availability",
          type: "option",
          indexed: true,
          options: [{ value: "in-stock", label: "In stock" }, { value: "sold-out", label: "Sold out" }, { value: "pre-order" }],
        },
      ],
    });
    for (const [slug, availability, price] of [
      ["oak-planter", "sold-out", 34.9],
      ["clay-pot", "in-stock", 24],
      ["steel-trough", "pre-order", 1234.5],
    ] as const)
      await api("POST", `/sites/${site.id}/collections/products/items`, site.adminKey, {
        slug,
        publish: true,
        data: { name: slug, availability, price },
      });
    const base = `/parity-labels-${site.id}/shop/`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
      <ul data-oc-list="products" data-oc-sort="slug"><li>
        <span class="name" data-oc-field="name">Name</span>
        <span class="shown" data-oc-field="availability" data-oc-format="label">Availability</span>
        <span class="raw" data-oc-field="availability">code</span>
        <span class="attr" data-oc-attr-data-availability="availability">attr</span>
        <span class="usd" data-oc-field="price" data-oc-format="money:USD">$0</span>
        <span class="eur" data-oc-field="price" data-oc-format="money:EUR" data-oc-locale="de-DE">0 €</span>
        <span class="fixed" data-oc-field="price" data-oc-format="number:2">0</span>
        <span class="plain" data-oc-field="price">0</span>
      </li></ul>
      <script src="${service()}/embed.js" data-oc-token="${site.token}" defer></script></body></html>`;
    const url = await putPage(base, html);
    const client = await clientRendered(url, "[data-oc-list][data-oc-rendered]");
    await capture(site, { pageUrl: url, collection: "products" });
    const { status, html: rendered } = await renderedByServer(site, base);
    expect(status).toBe(200);
    const server = await serverRendered(url, rendered);
    for (const page of [client, server]) {
      expect(await page.locator(".usd").allTextContents()).toEqual(["$24.00", "$34.90", "$1,234.50"]);
      expect((await page.locator(".eur").allTextContents()).map((t) => t.replace(/\s/g, " "))).toEqual([
        "24,00 €",
        "34,90 €",
        "1.234,50 €",
      ]);
      expect(await page.locator(".fixed").allTextContents()).toEqual(["24.00", "34.90", "1,234.50"]);
      expect(await page.locator(".plain").allTextContents()).toEqual(["24", "34.9", "1234.5"]);
      expect(await page.locator(".shown").allTextContents()).toEqual(["In stock", "Sold out", "pre-order"]);
      expect(await page.locator(".raw").allTextContents()).toEqual(["in-stock", "sold-out", "pre-order"]);
      expect(await page.locator(".attr").evaluateAll((els) => els.map((e) => e.getAttribute("data-availability")))).toEqual([
        "in-stock",
        "sold-out",
        "pre-order",
      ]);
    }
    expect(await normalisedDom(server, "[data-oc-list]")).toEqual(await normalisedDom(client, "[data-oc-list]"));
    await client.close();
    await server.context().close();
  });

  it("with a gallery: first image, repeated template and @ bind the same in a list and on an item page", async () => {
    const site = await blogSite();
    await api("PUT", `/sites/${site.id}/collections/products`, site.adminKey, {
      name: "Products",
      fields: [
        { key: "name", type: "text", required: true },
        { key: "photos", type: "gallery" },
      ],
    });
    const photo = (n: string, alt: string) => ({ url: `https://img.test/${n}.jpg`, alt });
    for (const [slug, photos] of [
      ["clay-pot", [photo("pot-front", 'Front <b>"&'), photo("pot-back", "Back")]],
      ["oak-planter", [photo("oak", "Oak")]],
      ["steel-trough", []],
    ] as const)
      await api("POST", `/sites/${site.id}/collections/products/items`, site.adminKey, {
        slug,
        publish: true,
        data: { name: slug, photos },
      });
    const product = `<h2 data-oc-field="name">Name</h2>
          <img class="cover" data-oc-field="photos" src="/sample.jpg" alt="">
          <div class="photos" data-oc-field="photos">
            <figure><img data-oc-field="@" src="" alt=""><figcaption data-oc-field="@.alt">Caption</figcaption><small data-oc-field="name">n</small></figure>
            <p>Ignored: only the first element child repeats.</p>
          </div>`;
    const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
      ${body}
      <script src="${service()}/embed.js" data-oc-token="${site.token}" defer></script></body></html>`;

    const base = `/parity-gallery-${site.id}/shop/`;
    const listUrl = await putPage(base, page(`<ul data-oc-list="products" data-oc-sort="slug"><li>${product}</li></ul>`));
    const listClient = await clientRendered(listUrl, "[data-oc-list][data-oc-rendered]");
    await capture(site, { pageUrl: listUrl, collection: "products" });
    const listServer = await serverRendered(listUrl, (await renderedByServer(site, base)).html);
    for (const p of [listClient, listServer]) {
      expect(await p.locator("figcaption").allTextContents()).toEqual(['Front <b>"&', "Back", "Oak"]);
      expect(await p.locator(".cover").evaluateAll((els) => els.map((e) => e.getAttribute("src")))).toEqual([
        "https://img.test/pot-front.jpg",
        "https://img.test/oak.jpg",
        null,
      ]);
    }
    expect(await normalisedDom(listServer, "[data-oc-list]")).toEqual(await normalisedDom(listClient, "[data-oc-list]"));

    const itemBase = `/parity-gallery-item-${site.id}/shop/`;
    const itemUrl = await putPage(
      `${itemBase}clay-pot`,
      page(
        `<article data-oc-item="products">${product}</article><ul data-oc-list="products" data-oc-limit="2" data-oc-sort="slug"><li data-oc-field="name">more</li></ul>`,
      ),
    );
    const itemClient = await clientRendered(itemUrl, "[data-oc-item][data-oc-rendered]");
    await itemClient.waitForSelector("[data-oc-list][data-oc-rendered]");
    await capture(site, { pageUrl: itemUrl, publicUrl: `${new URL(itemUrl).origin}${itemBase}`, collection: "products", showsList: false });
    const { status, html } = await renderedByServer(site, `${itemBase}clay-pot`);
    expect(status).toBe(200);
    const itemServer = await serverRendered(itemUrl, html);
    for (const p of [itemClient, itemServer]) {
      expect(await p.locator(".photos img").evaluateAll((els) => els.map((e) => [e.getAttribute("src"), e.getAttribute("alt")]))).toEqual([
        ["https://img.test/pot-front.jpg", 'Front <b>"&'],
        ["https://img.test/pot-back.jpg", "Back"],
      ]);
      expect(await p.locator(".photos small").allTextContents()).toEqual(["clay-pot", "clay-pot"]);
    }
    expect(await normalisedDom(itemServer, "[data-oc-item]")).toEqual(await normalisedDom(itemClient, "[data-oc-item]"));
    for (const p of [listClient, listServer, itemClient, itemServer]) await p.context().close();
  });

  it("on a server-rendered page the embed script neither renders again nor asks the API", async () => {
    const site = await blogSite();
    await addPosts(site);
    const base = `/parity-once-${site.id}/blog/`;
    const url = await putPage(base, listPage({ service: service(), token: site.token }));
    await capture(site, { pageUrl: url, collection: "posts" });
    const { html } = await renderedByServer(site, base);
    const page = await browser.newPage();
    const apiCalls: string[] = [];
    let embedLoaded = false;
    page.on("request", (r) => {
      if (r.url().includes("/v1/")) apiCalls.push(r.url());
      if (r.url().endsWith("/embed.js")) embedLoaded = true;
    });
    await page.route(url, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
    const before = await (async () => {
      await page.goto(url, { waitUntil: "networkidle" });
      return page.$$eval(".posts > article.card", (els) => els.length);
    })();
    expect(embedLoaded).toBe(true);
    expect(before).toBe(2);
    expect(apiCalls).toEqual([]);
    await page.close();
  });
});
