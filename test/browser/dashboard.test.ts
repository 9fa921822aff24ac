import { describe, expect, it } from "vitest";
import { api, pageServer, putPage, service, type Site } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, screenshot, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

async function publicItem(site: Site, slug: string): Promise<{ status: number; body: { item?: { data: Record<string, unknown> } } }> {
  const res = await fetch(`${service()}/v1/${site.token}/collections/articles/items/${slug}`);
  return { status: res.status, body: (await res.json()) as { item?: { data: Record<string, unknown> } } };
}

describe("the dashboard, driven in Chromium as a site owner would", () => {
  it("goes from sign-in to a published item, then unpublishes it, shows API errors by their fields, and signs out", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Owner's blog", plan: "pro" });
    const cover = `${pageServer()}/img/cover.svg`;
    await fetch(`${pageServer()}/__pages/img/cover.svg`, {
      method: "PUT",
      headers: { "x-content-type": "image/svg+xml" },
      body: `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="640" height="360" fill="#3a3fd0"/></svg>`,
    });
    const page = await newPage();
    // The sign-in screen and a wrong key first (refused with a 401, which the console shows).
    expectConsoleError(`status of 401 (Unauthorized) (${service()}/sessions)`);
    await page.goto(`${service()}/dashboard/`);
    await checkScreen(page, "01-sign-in");
    await page.getByLabel("Admin key").fill(site.adminKey.slice(0, -4) + "aaaa");
    await page.getByRole("button", { name: "Sign in with admin key" }).click();
    await expect.poll(() => page.getByText("That key is not right").count()).toBe(1);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, ""]);

    await signIn(page, site.adminKey);
    await checkScreen(page, "02-overview");

    // A collection to refer to, then one with text, rich text, image, date and reference fields.
    await page.getByRole("link", { name: "Collections" }).click();
    await page.getByRole("link", { name: "New collection" }).click();
    await page.getByLabel("Collection name").fill("Writers");
    await page.getByRole("button", { name: "Create collection" }).click();
    await page.getByRole("heading", { name: "Writers" }).waitFor();
    await page.getByRole("link", { name: "New item" }).click();
    await page.getByLabel("title (required)").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Save and publish" }).click();
    await page.getByText("Published", { exact: true }).first().waitFor();

    await page.getByRole("link", { name: "Collections" }).click();
    await page.getByRole("link", { name: "New collection" }).click();
    await page.getByLabel("Collection name").fill("Articles");
    const addField = async (key: string, type: string, target?: string) => {
      await page.getByRole("button", { name: "Add a field" }).click();
      const n = await page.locator(".field-row").count();
      await page.getByLabel(`Field ${n} key`).fill(key);
      await page.getByLabel(`Field ${n} type`).selectOption({ label: type });
      if (target) await page.getByLabel(`Field ${n} refers to`).selectOption({ label: target });
    };
    await addField("body", "Rich text");
    await addField("cover", "Image");
    await addField("date", "Date / date and time");
    await addField("writer", "Reference (one item)", "Writers");
    await addField("website", "Link");
    await checkScreen(page, "03-collection-fields");
    await page.getByRole("button", { name: "Create collection" }).click();
    await page.getByRole("heading", { name: "Articles" }).waitFor();
    await checkScreen(page, "04-items-empty");

    // An item: the API's refusal (a 400) shows next to its field, then a real save.
    expectConsoleError(`status of 400 (Bad Request) (${service()}/sites/${site.id}/collections/articles/items)`);
    await page.getByRole("link", { name: "New item" }).click();
    await page.getByLabel("website").fill("javascript:alert(1)");
    await page.getByLabel("Slug").fill("hello-from-the-dashboard");
    await page.getByRole("button", { name: "Save and publish" }).click();
    const titleError = page.locator(".field.has-error", { has: page.getByLabel("title (required)") }).locator(".error");
    await expect.poll(() => titleError.textContent()).toMatch(/required/);
    const linkError = page.locator(".field.has-error", { has: page.getByLabel("website") }).locator(".error");
    await expect.poll(() => linkError.count()).toBe(1);
    await expect.poll(() => page.getByLabel("title (required)").getAttribute("aria-describedby")).toBeTruthy();

    await page.getByLabel("title (required)").fill("Hello from the dashboard");
    await page.getByLabel("website").fill("https://example.com/");
    const editor = page.getByRole("textbox", { name: "body" });
    await editor.click();
    await page.keyboard.type("Rich ");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type("bold");
    await page.getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type(" text");
    await page.getByLabel("cover: URL").fill(cover);
    await page.getByLabel("cover: alt text").fill("A blue cover");
    await page.getByLabel("date", { exact: true }).fill("2026-03-14");
    await page.getByLabel("Search Writers for writer").fill("ada");
    await page.getByRole("button", { name: "Choose Ada Lovelace" }).click();
    // Chosen, the match says so rather than offering the same choice again.
    await page.getByRole("button", { name: "Chosen: Ada Lovelace", pressed: true }).waitFor();
    await checkScreen(page, "05-item-form");
    await page.getByRole("button", { name: "Save and publish" }).click();
    await page.getByText("Live in the content API").waitFor();

    const published = await publicItem(site, "hello-from-the-dashboard");
    expect(published.status).toBe(200);
    expect(published.body.item!.data).toMatchObject({
      title: "Hello from the dashboard",
      body: "<p>Rich <strong>bold</strong> text</p>",
      cover: { url: cover, alt: "A blue cover" },
      date: "2026-03-14T00:00:00.000Z",
      writer: { slug: "ada-lovelace" },
    });
    await page.getByRole("link", { name: "Back to Articles" }).click();
    await page.getByRole("link", { name: "Hello from the dashboard" }).waitFor();
    await checkScreen(page, "06-items");

    // Unpublish: the public API answers 404.
    await page.getByRole("link", { name: "Hello from the dashboard" }).click();
    await page.getByRole("button", { name: "Unpublish" }).click();
    await checkScreen(page, "07-confirm-unpublish");
    await page.getByRole("dialog").getByRole("button", { name: "Unpublish" }).click();
    await page.getByText("Unpublished: the item is a draft again.").waitFor();
    expect((await publicItem(site, "hello-from-the-dashboard")).status).toBe(404);

    for (const [link, name] of [
      ["Media", "08-media"],
      ["Integrate", "09-integrate"],
      ["Settings", "10-settings"],
    ] as const) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link }).click();
      await page.getByRole("heading", { level: 1, name: link }).waitFor();
      await checkScreen(page, name);
      if (link === "Integrate") expect(await page.getByText(site.token).first().isVisible()).toBe(true);
    }
    await page.getByRole("link", { name: "Media" }).click();
    await page.getByRole("link", { name: "articles/hello-from-the-dashboard" }).waitFor();

    // Sign out: the old cookie is dead for the API too.
    const [cookie] = await page.context().cookies(service());
    expect(cookie).toMatchObject({ name: "oc_session", httpOnly: true, sameSite: "Strict" });
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await page.getByLabel("Admin key").waitFor();
    const after = await fetch(`${service()}/sites/${site.id}`, { headers: { cookie: `oc_session=${cookie!.value}` } });
    expect(after.status).toBe(401);
    await page.close();
  });

  it("refuses a cookie-authenticated change made from another origin, and nothing changes", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Target", plan: "starter" });
    await api("PUT", `/sites/${site.id}/collections/articles`, site.adminKey, {
      name: "Articles",
      fields: [{ key: "title", type: "text" }],
    });
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/articles/items`, site.adminKey, {
      slug: "keep-me",
      publish: true,
      data: { title: "Keep me" },
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    // Another origin on the same site (another port of 127.0.0.1): the browser sends the
    // SameSite=Strict cookie along, so only the Origin check stands between it and the write.
    // (Its icon is given, so the browser asks the page server for no /favicon.ico.)
    const attacker = await putPage("/attack.html", `<!doctype html><title>attack</title><link rel="icon" href="data:,"><p>hi</p>`);
    await page.goto(attacker);
    // A "simple" cross-origin POST: no preflight, so the browser sends it with the cookie (refused: 403).
    expectConsoleError(`status of 403 (Forbidden) (${service()}/sites/${site.id}/collections/articles/items/${item.id}/unpublish)`);
    const sent = page.waitForResponse((r) => r.url().endsWith("/unpublish"));
    await page.evaluate(
      (url) => fetch(url, { method: "POST", mode: "no-cors", credentials: "include" }).then(() => undefined),
      `${service()}/sites/${site.id}/collections/articles/items/${item.id}/unpublish`,
    );
    expect((await sent).status()).toBe(403);
    expect((await publicItem(site, "keep-me")).status).toBe(200);
    expect(new URL(attacker).origin).toBe(pageServer());
    await page.close();
  });

  it("serves the dashboard with a CSP without inline scripts, no framing and a referrer policy", async () => {
    const res = await fetch(`${service()}/dashboard/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
  });

  it("reads well at 360 px wide", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Phone", plan: "pro" });
    await api("PUT", `/sites/${site.id}/collections/notes`, site.adminKey, {
      name: "Notes",
      fields: [{ key: "title", type: "text", required: true }],
    });
    await api("POST", `/sites/${site.id}/collections/notes/items`, site.adminKey, { slug: "one", data: { title: "One note" } });
    const page = await newPage(360);
    await signIn(page, site.adminKey);
    await checkScreen(page, "11-overview-360px");
    await page.goto(`${service()}/dashboard/#/${site.id}/items/notes`);
    await page.getByRole("link", { name: "One note" }).waitFor();
    // Nothing wider than the screen but the table's own scroller.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await checkScreen(page, "12-items-360px");
    await page.close();
  });

  it("works with the keyboard alone, and asks before leaving unsaved changes", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Keys", plan: "starter" });
    await api("PUT", `/sites/${site.id}/collections/notes`, site.adminKey, { name: "Notes", fields: [{ key: "title", type: "text" }] });
    const page = await newPage();
    await page.goto(`${service()}/dashboard/`);
    const focused = () =>
      page.evaluate(() => document.activeElement?.textContent?.trim() || document.activeElement?.getAttribute("aria-label") || "");
    await page.getByLabel("Admin key").waitFor();
    // The account form comes first (email, password, its button and links); Tab reaches the key after it.
    const keyField = await page.getByLabel("Admin key").getAttribute("id");
    for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.id)) !== keyField; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(keyField);
    await page.keyboard.type(site.adminKey);
    await page.keyboard.press("Enter");
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    // Tab to "Collections" in the navigation, Enter, then to the collection's items.
    for (let i = 0; i < 10 && (await focused()) !== "Collections"; i++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("Collections");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Collections" }).waitFor();
    for (let i = 0; i < 20 && (await focused()) !== "Notes"; i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Notes" }).waitFor();
    for (let i = 0; i < 20 && (await focused()) !== "New item"; i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByLabel("title").waitFor();
    await page.getByLabel("title").focus();
    await page.keyboard.type("Half written");
    // Leaving asks first; staying keeps the text.
    const asked = new Promise<string>((resolve) => page.once("dialog", (d) => (resolve(d.message()), void d.dismiss())));
    await page.getByRole("link", { name: "Overview" }).click();
    expect(await asked).toMatch(/unsaved changes/);
    expect(await page.getByLabel("title").inputValue()).toBe("Half written");
    // Enter in a field submits the form (saves a draft).
    await page.getByLabel("title").press("Enter");
    await page.getByText("Draft", { exact: true }).first().waitFor();
    await page.close();
  });

  it("lets the operator create a site and change its plan", async () => {
    const page = await newPage();
    await signIn(page, OPERATOR);
    await page.getByRole("heading", { name: "Operator" }).waitFor();
    await page.getByLabel("New site name").fill("Made by the operator");
    await page.getByLabel("New site plan").selectOption({ label: "Pro" });
    await page.getByRole("button", { name: "Create site" }).click();
    await page.getByText("shown only once").waitFor();
    await checkScreen(page, "13-operator");
    await page.getByRole("link", { name: "Open Made by the operator" }).click();
    await page.getByRole("link", { name: "Plan", exact: true }).click();
    await checkScreen(page, "15-plan-operator");
    // The operator changes any workspace's plan, self-serve or not, through the same confirmation.
    await page.getByRole("button", { name: "Upgrade to SEO Engine" }).click();
    await page
      .getByRole("dialog", { name: "Change to the SEO Engine plan?" })
      .getByRole("button", { name: "Change to SEO Engine" })
      .click();
    await page.getByText("The workspace is now on the SEO Engine plan.").waitFor();
    await page.getByRole("link", { name: "Overview" }).click();
    await page.locator(".stat-value", { hasText: "SEO Engine" }).waitFor();
    await screenshot(page, "14-operator-site-overview");
    await page.close();
  });
});
