import { request } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, signIn, signUpFrom } from "./dashboard-harness";
import { uniqueEmail } from "../helpers/mail";
import { api, putPage, service, type Site } from "./harness";

const { newPage, browser } = dashboardBrowser();

/** A customer's blog page as a site builder makes it: a list widget and the embed script with the site's token. */
const blogPage = (token: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Field notes</title><meta name="description" content="Notes from the field.">
<link rel="icon" href="data:,"><style>h1 { color: teal }</style></head>
<body style="margin: 2rem"><h1>Field notes</h1>
<div data-oc-list="posts" data-oc-sort="-date"><article><a data-oc-link><h2 data-oc-field="title">Title</h2></a><p data-oc-field="summary"></p></article></div>
<script src="${service()}/embed.js" data-oc-token="${token}" defer></script></body></html>`;

async function seoSite(): Promise<Site> {
  const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Field notes", plan: "seo_engine" });
  await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
    name: "Posts",
    fields: [
      { key: "title", type: "text", indexed: true, required: true },
      { key: "summary", type: "text" },
      { key: "date", type: "date", indexed: true },
    ],
  });
  await api("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
    slug: "river-walk",
    publish: true,
    data: { title: "A walk along the river", summary: "Herons, willows and a quiet Sunday.", date: "2026-05-01" },
  });
  await api("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
    slug: "secret-draft",
    data: { title: "Secret draft post", summary: "Not for anyone's eyes yet.", date: "2026-06-01" },
  });
  return site;
}

/** What the service answers on a custom hostname, asked the way a browser on this machine would. */
function onHost(host: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(service());
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { host: `${host}:${url.port}` } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the dashboard's SEO Engine, Domains, Search and Plan screens in Chromium", () => {
  it("captures a page from the form, previews items as crawlers see them, and never exposes a previewed draft", async () => {
    const site = await seoSite();
    const pageUrl = await putPage(`/notes-${site.id}/`, blogPage(site.token));
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "SEO Engine" }).click();
    await page.getByRole("heading", { level: 1, name: "SEO Engine" }).waitFor();
    await checkScreen(page, "20-seo-engine-empty");

    // A failed capture says why, in words (its 422 shows in the console too).
    expectConsoleError(`status of 422 (Unprocessable Entity) (${service()}/sites/${site.id}/ssr/capture)`);
    await page.getByLabel("Page URL").fill(`${new URL(pageUrl).origin}/missing-page/`);
    await page.getByRole("button", { name: "Capture page" }).click();
    await page.getByText("The page could not be captured.").waitFor();
    await page.getByText("answered with an error").waitFor();

    await page.getByLabel("Page URL").fill(pageUrl);
    expect(await page.getByLabel("This URL shows a list of items").isChecked()).toBe(true);
    await page.getByRole("button", { name: "Capture page" }).click();
    await page.getByText("Captured for the first time. Your pages are now rendered").waitFor();
    await page.getByRole("button", { name: "Refresh now" }).click();
    await page.getByText("Refreshed: the page was fetched again.").waitFor();
    expect(await page.getByText("/hooks/ssr/").first().isVisible()).toBe(true);

    // The published item as a crawler receives it.
    await page.getByLabel("Page to preview").selectOption({ label: "A walk along the river" });
    await page.getByRole("button", { name: "Show preview" }).click();
    const snippet = page.getByLabel("Search result snippet");
    await expect.poll(() => snippet.textContent()).toContain("A walk along the river");
    expect(await snippet.textContent()).toContain("Herons, willows and a quiet Sunday.");
    expect(await snippet.textContent()).toContain(`${pageUrl}river-walk`);
    await page.getByText("Article", { exact: true }).waitFor();
    await page.getByText("BreadcrumbList", { exact: true }).waitFor();
    const frame = page.frameLocator('iframe[title="Rendered page preview"]');
    await frame.getByRole("heading", { name: "A walk along the river" }).waitFor();
    await checkScreen(page, "21-seo-engine-preview");

    // A draft can be previewed, and stays invisible everywhere else.
    await page.getByLabel("Page to preview").selectOption({ label: "Secret draft post (draft)" });
    await page.getByRole("button", { name: "Reload preview" }).click();
    await expect.poll(() => snippet.textContent()).toContain("Secret draft post");
    const base = new URL(pageUrl).pathname;
    const asVisitor = async (path: string) => {
      const r = await fetch(`${service()}${path}`, { headers: { "x-service-token": site.token } });
      return { status: r.status, body: await r.text() };
    };
    expect((await asVisitor(`${base}secret-draft`)).status).toBe(404);
    expect((await asVisitor(base)).body).not.toContain("Secret draft post");
    for (const doc of ["sitemap.xml", "rss.xml", "feed.json"])
      expect((await asVisitor(`${base}${doc}`)).body).not.toContain("secret-draft");
    expect((await fetch(`${service()}/v1/${site.token}/collections/posts/items/secret-draft`)).status).toBe(404);
    const items = await fetch(`${service()}/v1/${site.token}/collections/posts/items`).then((r) => r.text());
    expect(items).not.toContain("Secret draft post");
    // The preview itself needs the owner's session or key.
    const items2 = await api<{ items: { id: string; slug: string }[] }>(
      "GET",
      `/sites/${site.id}/collections/posts/items?status=draft`,
      site.adminKey,
    );
    const previewUrl = `${service()}/sites/${site.id}/ssr/preview?item=${items2.items[0]!.id}`;
    expect((await fetch(previewUrl)).status).toBe(401);
    const withKey = await fetch(previewUrl, { headers: { authorization: `Bearer ${site.adminKey}` } });
    expect(withKey.headers.get("cache-control")).toBe("no-store");
    expect(withKey.headers.get("content-security-policy")).toContain("sandbox");
    // Its frame runs no script, so none is sent (Chromium would refuse each and log it); JSON-LD stays.
    const previewed = await withKey.text();
    expect(previewed).not.toContain("/embed.js");
    expect(previewed).toContain('<script type="application/ld+json">');

    // Publish a new item elsewhere: the list preview shows it without capturing again.
    await api("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "new-arrival",
      publish: true,
      data: { title: "A brand new arrival", date: "2026-07-01" },
    });
    await page.getByLabel("Page to preview").selectOption({ label: "The list page" });
    await page.getByRole("button", { name: "Reload preview" }).click();
    await page.frameLocator('iframe[title="Rendered page preview"]').getByRole("heading", { name: "A brand new arrival" }).waitFor();

    // Deleting the collection the pages are rendered from says so before anything is deleted.
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/posts`);
    await page.getByRole("button", { name: "Delete collection" }).click();
    const deleting = page.getByRole("dialog", { name: "Delete Posts?" });
    await deleting.getByText("Your SEO Engine pages are rendered from this collection.").waitFor();
    await checkScreen(page, "20b-delete-rendered-collection");
    await deleting.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("link", { name: "SEO Engine" }).click();
    await page.getByRole("heading", { name: "Captured page" }).waitFor();

    // Stopping the rendering: the confirm says what follows, the pages answer 404, and the screen
    // asks for a first capture again.
    expect((await asVisitor(base)).status).toBe(200);
    await page.getByRole("button", { name: "Stop rendering" }).click();
    const dialog = page.getByRole("dialog", { name: "Stop rendering your pages?" });
    await dialog.getByText("answer “not found” from now on").waitFor();
    await checkScreen(page, "20c-seo-stop-confirm");
    await dialog.getByRole("button", { name: "Stop rendering" }).click();
    await page.getByText("Rendering stopped: your rendered pages answer “not found”.").waitFor();
    await page.getByRole("button", { name: "Capture page" }).waitFor();
    expect((await asVisitor(base)).status).toBe(404);
    await page.close();
  });

  it("warns of a list that cannot render, tells a first capture where the person looks, and shows a failed refresh at once", async () => {
    const site = await seoSite();
    // "summary" is not marked "can be sorted, filtered and searched" in Posts: the API refuses this sort.
    const path = `/unsorted-${site.id}/`;
    const pageUrl = await putPage(path, blogPage(site.token).replace('data-oc-sort="-date"', 'data-oc-sort="-summary"'));
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "SEO Engine" }).click();
    await page.getByRole("heading", { level: 1, name: "SEO Engine" }).waitFor();
    await page.getByLabel("Page URL").fill(pageUrl);
    await page.getByRole("button", { name: "Capture page" }).click();
    const done = page.getByText("Captured for the first time. Your pages are now rendered from this page.");
    await done.waitFor();
    // Where the person is looking: on screen, not below the fold.
    const inView = () =>
      done.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
    await expect.poll(inView).toBe(true);
    const warning = page.getByRole("alert").filter({ hasText: "A list on this page shows no items" });
    expect(await warning.textContent()).toContain('The list widget data-oc-list="posts" sorts by "summary" (data-oc-sort="-summary")');
    expect(await warning.textContent()).toContain('mark "summary" “can be sorted, filtered and searched”, or change the sort');
    const facts = page.locator("dl.facts");
    expect(await facts.textContent()).toContain("Last refreshnone since the capture");
    expect(await facts.textContent()).not.toContain("fetched again");

    // The webhook steps say what the service does: unsigned calls are refused.
    const card = page.locator(".card", { has: page.getByRole("heading", { name: "Captured page" }) });
    expect(await card.textContent()).toContain("Every call must be signed");
    expect(await card.textContent()).not.toContain("signing is now");
    const unsigned = await fetch(`${service()}/hooks/ssr/${site.id}`, { method: "POST", body: "{}" });
    expect(unsigned.status).toBe(401);

    // The preview's checks name the widget too.
    await page.getByRole("button", { name: "Show preview" }).click();
    await page.locator(".head-facts").getByText('sorts by "summary"').waitFor();

    // A refresh that fails shows in "Last refresh" without a reload (and its 422 in the console).
    expectConsoleError(`status of 422 (Unprocessable Entity) (${service()}/sites/${site.id}/ssr/refresh)`);
    await putPage(path, blogPage("pk_aaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbb"));
    await page.getByRole("button", { name: "Refresh now" }).click();
    await page.getByText("another site's token").first().waitFor();
    await expect.poll(() => facts.textContent()).toContain("(Refresh now): failed, the previous template stays.");

    // With the captured collection deleted, the screen says so, not that it lacks an image field.
    await api("DELETE", `/sites/${site.id}/collections/posts`, site.adminKey);
    await page.reload();
    await page.getByText("(collection deleted, shows the list)").waitFor();
    await page.getByText("the captured collection was deleted. Capture a page that shows one of your collections.").waitFor();
    expect(await page.getByText("the collection has no image field").count()).toBe(0);
    await page.close();
  });

  it("connects blog.localhost, turns active by itself once validated, serves the blog there, and detaches", async () => {
    const site = await seoSite();
    const pageUrl = await putPage(`/notes-${site.id}/`, blogPage(site.token));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "posts" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "Domains" }).click();
    await page.getByRole("heading", { level: 1, name: "Domains" }).waitFor();
    await checkScreen(page, "22-domains-empty");

    // An apex gets a warning in words first.
    await page.getByLabel("Hostname").fill("example.com");
    await page.getByRole("button", { name: "Connect hostname" }).click();
    await page.getByRole("dialog").getByText("takes over every path").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });

    const hostname = `blog-${site.id}.localhost`;
    await page.getByLabel("Hostname").fill(hostname);
    await page.getByRole("button", { name: "Connect hostname" }).click();
    await page
      .getByText("Waiting for your DNS records")
      .waitFor()
      .catch(async (err: unknown) => {
        // What the screen said instead, for whoever reads a failed run.
        console.error("domains screen:", await page.locator("main").innerText());
        throw err;
      });
    expect(await page.getByRole("cell", { name: "CNAME", exact: true }).isVisible()).toBe(true);
    // The TXT record only this registration was given, as the owner reads it off the screen.
    const txtRow = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "TXT", exact: true }) });
    const txtName = (await txtRow.locator("td").nth(0).innerText()).trim();
    const txtValue = (await txtRow.locator("td code").nth(1).innerText()).trim();
    expect(txtName).toBe(`_oc-challenge.${hostname}`);
    expect(txtValue).toMatch(/^oc-site-verification=[0-9a-f]{32}$/);
    await checkScreen(page, "23-domains-pending");

    // The local provider's CNAME proof: a request for the hostname with its token arrives here.
    const waiting = (await page.locator("li", { hasText: "/.well-known/oc-hostname/" }).textContent()) ?? "";
    const path = /(\/\.well-known\/oc-hostname\/[^\s)]+)/.exec(waiting)?.[1];
    expect(path).toBeTruthy();
    expect((await onHost(hostname, path!)).status).toBe(200);
    // Not enough without the TXT record: still waiting, and the hostname serves nothing.
    await page.getByRole("button", { name: "Check DNS records now" }).click();
    await page.getByRole("button", { name: "Check DNS records now" }).waitFor();
    expect(await page.getByText("Waiting for your DNS records").isVisible()).toBe(true);
    expect((await onHost(hostname, "/")).status).toBe(404);
    // The owner publishes the TXT record at their DNS provider (here the local resolver), then checks.
    const published = await fetch(`${inject("doh")}/records/${encodeURIComponent(txtName)}?type=TXT`, { method: "PUT", body: txtValue });
    expect(published.status).toBe(204);
    await page.getByRole("button", { name: "Check DNS records now" }).click();
    await page.getByText(/Active since/).waitFor({ timeout: 20_000 });
    await checkScreen(page, "24-domains-active");

    // The rendered blog on the hostname, in the browser (*.localhost is this machine), from the tab's own link.
    const link = page.getByRole("link", { name: `http://${hostname}:${new URL(service()).port}/` });
    const blog = await browser().newPage();
    await blog.goto((await link.getAttribute("href"))!);
    await blog.getByRole("heading", { name: "A walk along the river" }).waitFor();
    await blog.close();

    await page.getByRole("button", { name: `Detach ${hostname}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Detach hostname" }).click();
    await page.getByRole("heading", { name: "Connect a custom domain" }).waitFor();
    expect((await onHost(hostname, "/")).status).toBe(404);
    await page.close();
  });

  it("runs semantic search with scores and related items, and shows plans", async () => {
    const site = await seoSite();
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "Search" }).click();
    await page.getByRole("heading", { level: 1, name: "Search" }).waitFor();
    // The one published item is indexed a moment after it was published.
    await expect
      .poll(() => page.reload().then(() => page.locator(".stat", { hasText: "Items indexed" }).textContent()), { timeout: 30_000 })
      .toMatch(/^1/);
    await page.getByLabel("Search your items").fill("a stroll by the water");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText(/score 0\.\d{3}/).waitFor();
    await page.getByRole("button", { name: "Related to A walk along the river" }).click();
    await page.getByText("No related items.").waitFor();
    await checkScreen(page, "25-search");
    await page.getByRole("link", { name: "Plan", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Plan" }).waitFor();
    await checkScreen(page, "26-plan");
    await page.close();
  });

  it("shows the semantic index filling up, without a reload", async () => {
    const site = await seoSite();
    // 300 more published posts at once, as an import leaves them: each waits to be embedded, and
    // the local model takes longer than signing in and opening the screen.
    await api("POST", `/sites/${site.id}/collections/posts/items:batch`, site.adminKey, {
      items: Array.from({ length: 300 }, (_, i) => ({
        slug: `walk-${i}`,
        publish: true,
        data: { title: `Walk ${i} along the coast`, summary: "Gulls, dunes and wind.", date: "2026-05-02" },
      })),
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "Search" }).click();
    const bar = page.getByRole("progressbar", { name: /^Indexing by meaning: \d+ of 301 items$/ });
    await bar.waitFor();
    await checkScreen(page, "25-search-indexing");
    await bar.waitFor({ state: "detached", timeout: 60_000 });
    await expect.poll(() => page.locator(".stat", { hasText: "Items indexed" }).textContent()).toMatch(/^301/);
    await page.close();
  });

  it("explains what a higher plan adds instead of showing an error", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Small", plan: "starter" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    for (const [link, text] of [
      ["SEO Engine", "included in the SEO Engine plan"],
      ["Search", "included in the Pro plan"],
      ["Domains", "included in the SEO Engine plan"],
    ] as const) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link }).click();
      // The screen keeps its own heading (where Skip to content lands) above the plan's offer.
      await page.getByRole("heading", { name: link, level: 1 }).waitFor();
      await page.getByText(text).waitFor();
    }
    await checkScreen(page, "27-plan-gate");
    await page.close();
  });

  it("lets the Owner change the plan from the Plan screen, after saying what changes; the SEO Engine unlocks", async () => {
    const page = await newPage();
    await page.goto(`${service()}/dashboard/#/sign-up`);
    await signUpFrom(page, "Rosa", uniqueEmail("rosa"));
    await page.getByLabel("Workspace name").fill("Plans Co");
    await page.getByLabel("First site name").fill("Notes");
    await page.getByRole("button", { name: "Create workspace and site" }).click();
    await page.getByText("Your workspace and the site “Notes” are ready.").waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    // The gate leads to the change, not to a sentence.
    await nav.getByRole("link", { name: "SEO Engine" }).click();
    await page.getByText("included in the SEO Engine plan").waitFor();
    await page.getByRole("link", { name: "Change to the SEO Engine plan" }).click();
    await page.getByRole("heading", { level: 1, name: "Plan" }).waitFor();
    // Every plan with its price (wrangler.toml's PLAN_PRICES, as the browser tests' Worker has them) and limits; the current one marked.
    const cards = page
      .getByRole("list", { name: "Plans" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { level: 2 }) });
    expect(await cards.count()).toBe(4);
    const current = page.locator("li[aria-current=true]");
    expect(await current.getByRole("heading", { level: 2 }).textContent()).toBe("FreeCurrent plan");
    expect(await current.getByText("Free of charge").count()).toBe(1);
    await page.getByText("$29 a month").waitFor();
    await page.getByText("$99 a month").waitFor();
    await page.getByText("25 sites").waitFor();
    await checkScreen(page, "40-plan-self-serve");

    await page.getByRole("button", { name: "Upgrade to SEO Engine" }).click();
    const dialog = page.getByRole("dialog", { name: "Change to the SEO Engine plan?" });
    await dialog.getByRole("heading", { name: "What it adds" }).waitFor();
    await dialog.getByText("Semantic search and related items").waitFor();
    await dialog.getByText("Up to 25 sites (now 1 site)").waitFor();
    expect(await dialog.getByRole("heading", { name: "What it takes away" }).count()).toBe(0);
    await checkScreen(page, "41-plan-confirm-upgrade");
    await dialog.getByRole("button", { name: "Change to SEO Engine" }).click();
    await page.getByText("The workspace is now on the SEO Engine plan.").waitFor();
    expect(await page.locator("li[aria-current=true]").getByRole("heading", { level: 2 }).textContent()).toBe("SEO EngineCurrent plan");

    // Unlocked at once, without a reload.
    await nav.getByRole("link", { name: "SEO Engine" }).click();
    await page.getByRole("heading", { level: 1, name: "SEO Engine" }).waitFor();
    await page.getByText("one captured page").waitFor();
    expect(await page.getByText("included in the SEO Engine plan").count()).toBe(0);

    // Down again: the dialog says what goes; Cancel changes nothing, confirming does.
    await nav.getByRole("link", { name: "Plan", exact: true }).click();
    await page.getByRole("button", { name: "Move down to Free" }).click();
    const down = page.getByRole("dialog", { name: "Change to the Free plan?" });
    await down.getByRole("heading", { name: "What it takes away" }).waitFor();
    await down.getByText("Only 1 site (now 25 sites)").waitFor();
    await down.getByText("Only 3 people (now 50 people)").waitFor();
    await checkScreen(page, "42-plan-confirm-downgrade");
    await down.getByRole("button", { name: "Cancel" }).click();
    expect(await page.locator("li[aria-current=true]").getByRole("heading", { level: 2 }).textContent()).toBe("SEO EngineCurrent plan");
    await page.getByRole("button", { name: "Move down to Free" }).click();
    await down.getByRole("button", { name: "Change to Free" }).click();
    await page.getByText("The workspace is now on the Free plan.").waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await checkScreen(page, "43-plan-390");
    await nav.getByRole("link", { name: "Search" }).click();
    await page.getByText("included in the Pro plan").waitFor();
    // Both changes in the workspace's Activity, in words.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("link", { name: "Workspace", exact: true }).click();
    await page.getByRole("cell", { name: "changed the plan from Free to SEO Engine" }).waitFor();
    await page.getByRole("cell", { name: "changed the plan from SEO Engine to Free" }).waitFor();
    await page.close();
  });
});
