/**
 * The defects a new site owner met, each driven in Chromium as they met it, and the
 * content-model basics (display names, help text, Option fields, the media picker, the
 * Integrate explanations, the Overview checklist).
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { api, pageServer, putPage, service, type Site } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, signIn } from "./dashboard-harness";

const { newPage, browser } = dashboardBrowser();

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="1600" height="900" fill="#b45309"/></svg>`;

/** An image on the customer's own, plain image host (no /cdn-cgi/image resizing). */
async function putImage(path: string): Promise<string> {
  const res = await fetch(`${pageServer()}/__pages${path}`, { method: "PUT", headers: { "x-content-type": "image/svg+xml" }, body: SVG });
  if (res.status !== 204) throw new Error(`page server refused ${path}`);
  return `${pageServer()}${path}`;
}

const recipesPage = (token: string, title: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="Our recipes."><link rel="icon" href="data:,"></head>
<body><h1>${title}</h1>
<div data-oc-list="recipes"><article><a data-oc-link><h2 data-oc-field="title">Title</h2></a><img data-oc-field="cover" src="" alt=""></article></div>
<script src="${service()}/embed.js" data-oc-token="${token}" defer></script></body></html>`;

const BODY = "<h2>Ingredients</h2><ul><li>6 ripe tomatoes</li><li>1 onion</li></ul><p>Roast the tomatoes.</p>";

async function recipesSite(plan: "pro" | "seo_engine", name: string): Promise<Site> {
  const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name, plan });
  await api("PUT", `/sites/${site.id}/collections/recipes`, site.adminKey, {
    name: "Recipes",
    fields: [
      { key: "title", type: "text", indexed: true, required: true },
      { key: "body", type: "richText" },
      { key: "cover", name: "Cover image", type: "image" },
    ],
  });
  return site;
}

async function addRecipe(site: Site, slug: string, data: Record<string, unknown>): Promise<string> {
  const r = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/recipes/items`, site.adminKey, {
    slug,
    publish: true,
    data,
  });
  return r.item.id;
}

const activeIsBody = (page: Page) => page.evaluate(() => document.activeElement === document.body || document.activeElement === null);

describe("defects a new site owner met", () => {
  it("images of the owner's plain image host load on their page, and the crawler preview flags a broken one", async () => {
    const site = await recipesSite("seo_engine", "Images");
    const cover = await putImage(`/img-${site.id}/soup.svg`);
    await addRecipe(site, "tomato-soup", { title: "Tomato soup", body: BODY, cover: { url: cover, alt: "A bowl of soup", width: 1600 } });
    const pageUrl = await putPage(`/recipes-${site.id}/`, recipesPage(site.token, "Recipes"));

    // The customer's page, rendered by the embed script: the image shows (no 404 srcset candidate).
    const visitor = await newPage(360);
    await visitor.goto(pageUrl);
    await visitor.waitForSelector("[data-oc-list][data-oc-rendered]");
    const img = visitor.locator('img[data-oc-field="cover"]').first();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    expect(await img.getAttribute("srcset")).toBe(`${cover} 1600w`);
    await visitor.close();

    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "recipes" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/seo`);
    await page.getByLabel("Page to preview").selectOption({ label: "Tomato soup" });
    await page.getByRole("button", { name: "Show preview" }).click();
    await page.getByText(/all \d+ image addresses load|its image loads/).waitFor();

    // A second item whose image is gone from the host: the preview shows it and checks it (404s in the console) and says so.
    expectConsoleError(`status of 404 (Not Found) (${pageServer()}/img-${site.id}/gone.svg)`);
    expectConsoleError(`status of 404 (Not Found) (${pageServer()}/img-${site.id}/gone.svg?oc-check=`);
    await addRecipe(site, "lost-bread", { title: "Lost bread", cover: { url: `${pageServer()}/img-${site.id}/gone.svg`, alt: "Bread" } });
    await page.reload();
    await page.getByLabel("Page to preview").selectOption({ label: "Lost bread" });
    await page.getByRole("button", { name: "Show preview" }).click();
    await page.getByText(`The social image does not load (${pageServer()}/img-${site.id}/gone.svg)`).waitFor();
    await checkScreen(page, "30-seo-broken-image");
    await page.close();
  });

  it("the SEO Engine checks request every item's social image and name the item whose image is broken", async () => {
    const site = await recipesSite("seo_engine", "Social images");
    const cover = await putImage(`/img-${site.id}/soup.svg`);
    await addRecipe(site, "tomato-soup", { title: "Tomato soup", cover: { url: cover, alt: "A bowl of soup" } });
    const gone = `${pageServer()}/img-${site.id}/gone.svg`;
    expect((await fetch(gone)).status).toBe(404);
    expectConsoleError(`status of 404 (Not Found) (${gone}?oc-check=`);
    const breadId = await addRecipe(site, "lost-bread", { title: "Lost bread", cover: { url: gone, alt: "Bread" } });
    const pageUrl = await putPage(`/social-${site.id}/`, recipesPage(site.token, "Recipes"));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "recipes" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/seo`);
    // No preview chosen: the checks look at every published item on their own.
    const card = page.locator(".card", { has: page.getByRole("heading", { name: "Social images" }) });
    const alert = card.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("1 social image does not load");
    expect(await alert.getByRole("listitem").allTextContents()).toEqual([`Lost bread: ${gone}`]);
    await alert.getByRole("link", { name: "Lost bread" }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`/items/recipes/${breadId}$`));

    // The image is put back on the host: the check says every address loads.
    await putImage(`/img-${site.id}/gone.svg`);
    await page.goto(`${service()}/dashboard/#/${site.id}/seo`);
    await card.getByText("All 2 social image addresses load").waitFor();
    await page.close();
  });

  it("a capture elsewhere says what stops being served and asks; after it the preview is not stale", async () => {
    const site = await recipesSite("seo_engine", "Captures");
    await addRecipe(site, "tomato-soup", { title: "Tomato soup", body: BODY });
    await addRecipe(site, "pea-soup", { title: "Pea soup" });
    const blog = await putPage(`/blog-${site.id}/`, recipesPage(site.token, "Blog"));
    const recipes = await putPage(`/recipes-${site.id}/`, recipesPage(site.token, "Recipes page"));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl: blog, collection: "recipes" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/seo`);
    await page.getByLabel("Page to preview").selectOption({ label: "Tomato soup" });
    await page.getByRole("button", { name: "Show preview" }).click();
    const snippet = page.getByLabel("Search result snippet");
    await expect.poll(() => snippet.textContent()).toContain(`${blog}tomato-soup`);

    // 4: capturing another page asks first, naming path, collection and page count.
    await page.getByLabel("Page URL").fill(recipes);
    await page.getByRole("button", { name: "Capture again" }).click();
    const dialog = page.getByRole("dialog", { name: "Replace the captured page?" });
    await dialog.waitFor();
    const words = await dialog.textContent();
    expect(words).toContain(blog);
    expect(words).toContain("Collection: Recipes");
    expect(words).toContain("3 pages");
    await checkScreen(page, "31-seo-replace-capture");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    const kept = await api<{ capture: { basePath: string } }>("GET", `/sites/${site.id}/ssr/capture`, site.adminKey);
    expect(kept.capture.basePath).toBe(new URL(blog).pathname);

    await page.getByRole("button", { name: "Capture again" }).click();
    await dialog.getByRole("button", { name: "Replace and stop serving these pages" }).click();
    await page.getByText("Captured again. Your pages are now rendered").waitFor();
    const moved = await api<{ capture: { basePath: string } }>("GET", `/sites/${site.id}/ssr/capture`, site.adminKey);
    expect(moved.capture.basePath).toBe(new URL(recipes).pathname);

    // 3: nothing of the previous capture's preview stays on screen.
    expect(await page.getByLabel("Search result snippet").count()).toBe(0);
    expect(await page.getByLabel("Page to preview").inputValue()).toBe("");
    await page.getByRole("button", { name: "Show preview" }).click();
    await expect.poll(() => page.getByLabel("Search result snippet").textContent()).toContain("Recipes page");
    await page.close();
  });

  it("replacing the admin key ends the session in the page at once and shows the new key on the sign-in screen", async () => {
    const site = await recipesSite("pro", "Keys");
    const page = await newPage(360);
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/settings`);
    await page.getByRole("button", { name: "Replace admin key" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Replace key" }).click();
    await page.getByRole("heading", { name: "Sign in to your content dashboard" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    const key = page.locator(".token code");
    const newKey = (await key.textContent())!;
    expect(newKey).toMatch(/^sk_/);
    expect(newKey).not.toBe(site.adminKey);
    // 8: the key chip never breaks mid-key, even at 360 px.
    const lines = await key.evaluate((el) => {
      const cs = getComputedStyle(el);
      const lineHeight = parseFloat(cs.lineHeight);
      return el.getBoundingClientRect().height / (Number.isNaN(lineHeight) ? parseFloat(cs.fontSize) * 1.4 : lineHeight);
    });
    expect(lines).toBeLessThan(1.9);
    await checkScreen(page, "32-key-replaced");
    await page.getByLabel("Admin key", { exact: true }).fill(newKey);
    await page.getByRole("button", { name: "Sign in with admin key" }).click();
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    expect(await page.locator(".token code").count()).toBe(0);
    await page.close();
  });

  it("replacing the admin key returns every open tab of the dashboard to sign-in at once", async () => {
    const site = await recipesSite("pro", "Keys, two tabs");
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const first = await context.newPage();
      await signIn(first, site.adminKey);
      // A second tab of the same browser shares the session cookie and shows the site's items.
      const second = await context.newPage();
      await second.goto(`${service()}/dashboard/#/${site.id}/items/recipes`);
      await second.getByRole("navigation", { name: "Main" }).waitFor();
      await first.goto(`${service()}/dashboard/#/${site.id}/settings`);
      await first.getByRole("button", { name: "Replace admin key" }).click();
      await first.getByRole("dialog").getByRole("button", { name: "Replace key" }).click();
      await first.getByRole("heading", { name: "Sign in to your content dashboard" }).waitFor();
      // The other tab makes no request of its own: it is told, and leaves the site at once.
      await second.getByRole("heading", { name: "Sign in to your content dashboard" }).waitFor({ timeout: 5000 });
      expect(await second.getByRole("navigation", { name: "Main" }).count()).toBe(0);
      expect(await second.getByText("Your session has ended. Sign in again to continue.").count()).toBe(1);
      expect(new URL(second.url()).hash).toBe("");
      // The new key stays in the page that replaced it.
      expect(await second.locator(".token code").count()).toBe(0);
      expect(await first.locator(".token code").count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("the description source names the field used, and the drawn description keeps block separators", async () => {
    const site = await recipesSite("seo_engine", "Descriptions");
    await addRecipe(site, "tomato-soup", { title: "Tomato soup", body: BODY });
    const pageUrl = await putPage(`/desc-${site.id}/`, recipesPage(site.token, "Recipes"));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "recipes" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/seo`);
    await page.getByText("Advanced: which fields feed titles, descriptions and images").click();
    const source = page.getByLabel("Description field");
    expect(await source.locator("option").first().textContent()).toBe("Automatic (body)");
    await page.getByLabel("Page to preview").selectOption({ label: "Tomato soup" });
    await page.getByRole("button", { name: "Show preview" }).click();
    await expect
      .poll(() => page.getByLabel("Search result snippet").textContent())
      .toContain("Ingredients. 6 ripe tomatoes. 1 onion. Roast");
    await page.close();
  });

  it("a single word finds the item by its words beside the semantic matches, and results link to their items", async () => {
    const site = await recipesSite("pro", "Search");
    const id = await addRecipe(site, "tomato-soup", { title: "Tomato soup", body: BODY });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/search`);
    await page.getByLabel("Search your items").fill("tomato");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("heading", { name: "By the words" }).waitFor();
    const link = page.getByRole("link", { name: "Tomato soup" }).last();
    await link.waitFor();
    await checkScreen(page, "33-search-words");
    await link.click();
    await expect.poll(() => page.url()).toContain(`/items/recipes/${id}`);
    await expect.poll(() => page.getByLabel("title (required)").inputValue()).toBe("Tomato soup");
    await page.close();
  });

  it("editor details: toolbar, link dialog, focus after save, cover URL, checkbox sizes", async () => {
    const site = await recipesSite("pro", "Details");
    const cover = await putImage(`/img-${site.id}/cover.svg`);
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/recipes/new`);
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await toolbar.getByRole("button", { name: "Heading" }).waitFor();
    await expect.poll(() => toolbar.getByRole("button", { name: "Bold" }).isEnabled()).toBe(true);
    // Nothing looks pressed in a fresh editor.
    for (const b of await toolbar.getByRole("button").all()) expect(await b.getAttribute("aria-pressed")).toBe("false");
    // One Tab stop: arrow keys move inside the toolbar.
    expect(await toolbar.locator('button[tabindex="0"]').count()).toBe(1);
    await page.getByLabel("title (required)").fill("Tomato soup");
    await toolbar.getByRole("button", { name: "Bold" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Italic");
    await page.keyboard.press("End");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Link");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("textbox");

    // The Link button opens a labelled dialog in the page, not a prompt().
    let prompted = false;
    page.on("dialog", (d) => {
      prompted = true;
      void d.dismiss();
    });
    const editor = page.getByRole("textbox", { name: "body" });
    await editor.click();
    await page.keyboard.type("Soup of the day");
    await page.keyboard.press("Shift+Home");
    await toolbar.getByRole("button", { name: "Link" }).click();
    const dialog = page.getByRole("dialog", { name: "Link" });
    await dialog.getByLabel("Link address").fill("javascript:alert(1)");
    await dialog.getByRole("button", { name: "Apply link" }).click();
    await dialog.getByText("Use a web address").waitFor();
    await dialog.getByLabel("Link address").fill("https://example.com/soup");
    await checkScreen(page, "34-link-dialog");
    await dialog.getByRole("button", { name: "Apply link" }).click();
    await expect.poll(() => editor.innerHTML()).toContain('href="https://example.com/soup"');
    expect(prompted).toBe(false);

    await page.getByLabel("Cover image: URL").fill(cover);
    await page.getByLabel("Cover image: alt text").fill("A bowl of soup");
    await page.getByRole("button", { name: "Save as draft" }).click();
    // Focus is on the outcome, never on <body>; the cover URL is a value, not a grey placeholder.
    await page.getByText("Saved as a draft.").waitFor();
    await expect.poll(() => activeIsBody(page)).toBe(false);
    await expect.poll(() => page.getByLabel("Cover image: URL").inputValue()).toBe(cover);
    await page.getByLabel("title (required)").fill("Tomato soup, roasted");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.", { exact: true }).waitFor();
    // The focus moves in an effect after the message is painted.
    await expect.poll(() => activeIsBody(page)).toBe(false);

    // Every checkbox of a field row (sortable, required, translated) is the same size.
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/recipes`);
    const row = page.locator(".field-row").first();
    const sizes = await row.locator('input[type="checkbox"]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    expect(sizes).toHaveLength(3);
    for (const size of sizes) expect(size).toBeCloseTo(sizes[0]!, 1);
    await page.close();
  });
});

describe("content-model basics", () => {
  it("labels, keys and help text, an Option field, and thumbnails in the media picker, from the dashboard", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Model", plan: "pro" });
    const cover = await putImage(`/img-${site.id}/cover.svg`);
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/new`);
    await page.getByLabel("Collection name").fill("Recipes");
    // The first field is new too: its key follows its label until someone types a key.
    await page.getByLabel("Field 1 label").fill("Dish name");
    expect(await page.getByLabel("Field 1 key").inputValue()).toBe("dishName");
    await page.getByLabel("Field 1 label").fill("Title");
    expect(await page.getByLabel("Field 1 key").inputValue()).toBe("title");
    await page.getByRole("button", { name: "Add a field" }).click();
    await page.getByLabel("Field 2 label").fill("Cover image");
    expect(await page.getByLabel("Field 2 key").inputValue()).toBe("coverImage");
    await page.getByLabel("Field 2 key").fill("cover");
    await page.getByLabel("Field 2 type").selectOption({ label: "Image" });
    await page.getByLabel("Field 2 help text").fill("Shown at the top of the recipe.");
    await page.getByRole("button", { name: "Add a field" }).click();
    await page.getByLabel("Field 3 label").fill("Category");
    await page.getByLabel("Field 3 type").selectOption({ label: "Option (one of a list)" });
    await page.getByLabel("Field 3 options").fill("Soup\nMain course\nDessert");
    await page.getByText("Field 3 can be sorted, filtered and searched").click();
    await checkScreen(page, "35-collection-labels-options");
    await page.getByRole("button", { name: "Create collection" }).click();
    await page.getByRole("heading", { name: "Recipes" }).waitFor();
    // The items list names fields by their labels: its sort choices and its title column.
    const sorts = await page.getByLabel("Sort by").locator("option").allTextContents();
    expect(sorts).toEqual(expect.arrayContaining(["Title: A–Z", "Title: Z–A", "Category: A–Z", "Category: Z–A"]));
    expect(sorts.some((t) => /ascending|descending/.test(t))).toBe(false);
    // The list is shown as it was left: a reload keeps the sort and the filter.
    await page.getByLabel("Sort by").selectOption({ label: "Category: Z–A" });
    await page.getByLabel("Show").selectOption({ label: "Drafts" });
    await page.reload();
    await expect.poll(() => page.getByLabel("Sort by").inputValue()).toBe("-category");
    expect(await page.getByLabel("Show").inputValue()).toBe("draft");
    await page.getByLabel("Show").selectOption({ value: "" });

    const { collection } = await api<{ collection: { fields: Record<string, unknown>[] } }>(
      "GET",
      `/sites/${site.id}/collections/recipes`,
      site.adminKey,
    );
    expect(collection.fields[1]).toEqual({ key: "cover", name: "Cover image", help: "Shown at the top of the recipe.", type: "image" });
    expect(collection.fields[2]).toEqual({
      key: "category",
      name: "Category",
      type: "option",
      indexed: true,
      options: [
        { value: "soup", label: "Soup" },
        { value: "main-course", label: "Main course" },
        { value: "dessert", label: "Dessert" },
      ],
    });

    // Two items saved with the same image address: the picker shows it once, as a thumbnail.
    for (const [slug, title] of [
      ["one", "First"],
      ["two", "Second"],
    ])
      await api("POST", `/sites/${site.id}/collections/recipes/items`, site.adminKey, {
        slug,
        data: { title, cover: { url: cover, alt: "A bowl of soup" } },
      });
    await page.getByRole("link", { name: "New item" }).click();
    await page.getByText("Shown at the top of the recipe.").waitFor();
    const picker = page.getByRole("radiogroup", { name: "Cover image: choose from media" });
    await expect.poll(() => picker.getByRole("radio", { name: "A bowl of soup" }).count()).toBe(1);
    expect(await picker.locator("img").first().getAttribute("src")).toBe(cover);
    await page.getByLabel("title (required)").fill("Tomato soup");
    await picker.getByRole("radio", { name: "A bowl of soup" }).check();
    await page.getByLabel("Category").selectOption({ label: "Main course" });
    await checkScreen(page, "36-item-labels-options");
    await page.getByRole("button", { name: "Save and publish" }).click();
    await page.getByText("Published.").waitFor();
    const pub = await fetch(`${service()}/v1/${site.token}/collections/recipes/items/tomato-soup`).then(
      (r) => r.json() as Promise<{ item: { data: Record<string, { url?: string } | string> } }>,
    );
    expect(pub.item.data["category"]).toBe("main-course");
    expect((pub.item.data["cover"] as { url: string }).url).toBe(cover);

    // The key is fixed once items exist; taking a used option off the list is explained, then refused.
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/recipes`);
    await expect.poll(() => page.getByLabel("Field 3 key").getAttribute("readonly")).not.toBeNull();
    await page.getByLabel("Field 3 options").fill("Soup\nDessert");
    await page.getByRole("button", { name: "Save fields" }).click();
    const confirm = page.getByRole("dialog", { name: "Before you save" });
    await confirm.getByText("Taking the option “Main course” off “Category” is refused while any item uses it").waitFor();
    expectConsoleError(`status of 409 (Conflict) (${service()}/sites/${site.id}/collections/recipes)`);
    await confirm.getByRole("button", { name: "Save anyway" }).click();
    await page.getByText('cannot drop option "main-course" (1 item)').waitFor();
    await page.close();
  });

  it("Overview ticks its checklist from the site's state; Integrate explains item pages, search and related widgets", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Fresh", plan: "seo_engine" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    const checklist = page.locator(".checklist.setup");
    await expect.poll(() => checklist.textContent()).toContain("Create a collection (to do)");
    await page.getByText("0 of 5 done").waitFor();
    await checkScreen(page, "37-overview-checklist");
    await api("PUT", `/sites/${site.id}/collections/recipes`, site.adminKey, { name: "Recipes", fields: [{ key: "title", type: "text" }] });
    await api("POST", `/sites/${site.id}/collections/recipes/items`, site.adminKey, {
      slug: "soup",
      publish: true,
      data: { title: "Soup" },
    });
    await page.reload();
    await page.getByText("2 of 5 done").waitFor();
    expect(await checklist.textContent()).toContain("Add an item (done)");

    await page.getByRole("link", { name: "Integrate" }).click();
    await page.getByRole("heading", { name: "2. Item pages: where the links of a list go" }).waitFor();
    // On the SEO Engine plan the service serves item pages: no item widget to paste until another host is chosen.
    expect(await page.getByRole("radio", { name: /The SEO Engine serves my pages/ }).isChecked()).toBe(true);
    expect(await page.getByLabel("Item page widget for Recipes", { exact: true }).count()).toBe(0);
    await page.getByRole("radio", { name: /A static host with rewrites/ }).check();
    expect(await page.getByLabel("List widget for Recipes", { exact: true }).textContent()).toContain("<a data-oc-link>");
    expect(await page.getByLabel("Item page widget for Recipes", { exact: true }).textContent()).toContain('data-oc-item="recipes"');
    expect(await page.getByLabel("Search widget for Recipes", { exact: true }).textContent()).toContain('data-oc-search="recipes"');
    expect(await page.getByLabel("Related items widget for Recipes", { exact: true }).textContent()).toContain('data-oc-related="recipes"');
    expect(await page.getByLabel("_redirects (Cloudflare Pages, Netlify)", { exact: true }).textContent()).toBe(
      "/recipes/*  /recipes/item.html  200",
    );
    await checkScreen(page, "38-integrate-item-pages");
    await page.close();
  });
});
