// A site in three languages built from a Webflow localized export, from the dashboard alone: the
// import's mapping says which language each of Webflow's Locale IDs is, the dry run forecasts the
// items and their translations, the import writes them, the item editor shows the French, and the
// French page opens in Chromium through the customer's proxy Worker with its hreflang set.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Miniflare } from "miniflare";
import { buildWorker, startProxy } from "../../scripts/workerd-host.mjs";
import { api, putPage, service, type Site } from "./harness";
import { checkScreen, dashboardBrowser, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();
const CSV = readFileSync("test/fixtures/webflow-localized.csv");
const FR = "6650a1b2c3d4e5f6012345bb";

const blogPage = (token: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bakery notes</title>
<link rel="icon" href="data:,"></head><body><nav><a href="BASE">All posts</a></nav>
<main data-oc-list="posts"><article><a data-oc-link><h2 data-oc-field="title">Title</h2></a><p data-oc-field="summary">Summary</p></article></main>
<script src="${service()}/embed.js" data-oc-token="${token}" defer></script></body></html>`;

let proxy: { mf: Miniflare; base: string } | undefined;
afterAll(async () => {
  await proxy?.mf.dispose();
});

describe("dashboard: a Webflow localized CSV into a site in three languages", () => {
  it("maps Webflow's locale ids, imports items with their translations, and serves the French page through the proxy", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Bakery", plan: "seo_engine" });
    await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
      name: "Posts",
      fields: [
        { key: "title", type: "text", required: true, localized: true },
        { key: "body", type: "richText", name: "Post Body", localized: true },
        { key: "summary", type: "text", name: "Post Summary", localized: true },
        { key: "readingTime", type: "number", name: "Reading Time" },
      ],
    });
    await api("PUT", `/sites/${site.id}/locales`, site.adminKey, {
      primary: "en",
      secondary: [{ code: "fr" }, { code: "de", fallback: "fr" }],
    });
    const base = `/bakery-${site.id}/blog/`;
    const pageUrl = await putPage(base, blogPage(site.token).replace("BASE", base));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "posts" });

    const page = await newPage(1280);
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts`);
    await page.getByRole("link", { name: "Import", exact: true }).click();
    await page
      .getByLabel("File to import (CSV or JSON)")
      .setInputFiles({ name: "Posts - all locales.csv", mimeType: "text/csv", buffer: CSV });
    await page.getByRole("button", { name: "Upload and map columns" }).click();
    await page.getByRole("heading", { name: "Import Posts - all locales.csv", level: 1 }).waitFor({ timeout: 30_000 });

    // Locale ID is each row's language, its three ids matched to the site's languages in the file's order.
    expect(await page.getByLabel("Use column Locale ID as").inputValue()).toBe("locale");
    expect(await page.getByLabel("Use column Item ID as").inputValue()).toBe("itemId");
    const values = page.getByRole("group", { name: "Which language is each value of Locale ID?" });
    // The selects appear once the site's languages are read, each with the proposal chosen.
    expect(await values.getByLabel(FR).inputValue()).toBe("fr");
    expect(await values.getByLabel(FR).locator("option:checked").innerText()).toBe("French (fr)");
    await checkScreen(page, "92-import-locales-mapping");
    await page.getByRole("button", { name: "Run the dry run" }).click();
    const forecast = page.getByText("Nothing has been written yet.");
    await forecast.waitFor({ timeout: 60_000 });
    expect(await forecast.innerText()).toContain("create 8");
    expect(await forecast.innerText()).toContain("Of these rows, 5 are translations: 5 new, 0 changed, 0 unchanged.");
    await page.getByRole("button", { name: "Import 8 rows" }).click();
    await page.getByRole("heading", { name: "Import finished", level: 2 }).waitFor({ timeout: 60_000 });
    const summary = await page.getByText(/created, .* updated, .* skipped, .* failed/).innerText();
    expect(summary).toContain("8 created");
    expect(summary).toContain("Translations among them: 5 created, 0 updated, 0 skipped, 0 failed.");
    await checkScreen(page, "93-import-locales-report");

    // The first post's editor shows its French translation beside the English.
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts`);
    await page.getByRole("link", { name: "Hello, world" }).click();
    const translations = page.locator(".card.translations");
    await translations.getByText("English: Hello, world").waitFor();
    expect(await translations.getByLabel(/title in French/).inputValue()).toBe("Bonjour, le monde");
    expect(await translations.getByLabel("Slug in French").inputValue()).toBe("bonjour-le-monde");

    // The French page through the customer's proxy Worker (its route covers /fr/blog/* too).
    const script = buildWorker(".wrangler/proxy-test-build", "proxy/wrangler.toml");
    proxy = await startProxy({ scriptPath: script, ssrUrl: service(), serviceToken: site.token });
    const visitor = await newPage(1280);
    const answer = await visitor.goto(`${proxy.base}/fr${base}bonjour-le-monde`);
    expect(answer?.status()).toBe(200);
    expect(await visitor.locator("html").getAttribute("lang")).toBe("fr");
    expect(await visitor.locator("h2").first().innerText()).toBe("Bonjour, le monde");
    const hreflang = await visitor
      .locator('link[rel="alternate"][hreflang]')
      .evaluateAll((links) => links.map((l) => `${l.getAttribute("hreflang")} ${new URL(l.getAttribute("href")!).pathname}`));
    expect(hreflang).toEqual([
      `en ${base}hello-world`,
      `fr /fr${base}bonjour-le-monde`,
      `de /de${base}hallo-welt`,
      `x-default ${base}hello-world`,
    ]);
    // The template's link into the blog goes to the French list.
    expect(await visitor.getByRole("link", { name: "All posts" }).getAttribute("href")).toBe(`/fr${base}`);
    await checkScreen(visitor, "94-proxy-french-page");
    await visitor.close();
    await page.close();
  }, 300_000);
});
