// Every dashboard form goes through one hook (dashboard/src/use-form.ts) and one typed client
// (dashboard/src/api.ts): these drive two forms in Chromium to show what that gives a person.
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

async function newSite(): Promise<{ id: string; adminKey: string }> {
  const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, { name: "Forms", plan: "starter" });
  return site;
}

describe("dashboard forms, through the one form hook", () => {
  it("shows the service's field error at the field, keeps the button disabled while saving, and saves", async () => {
    const site = await newSite();
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/settings`);
    const hosts = page.getByLabel("Image hosts with Cloudflare Image Resizing");
    await hosts.fill("https://images.example.com/path");
    // Hold the answer back a moment: the form is pending meanwhile, and its button says so by being disabled.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(`**/sites/${site.id}`, async (route) => {
      if (route.request().method() === "PATCH") await held;
      await route.continue();
    });
    const save = page.getByRole("button", { name: "Save image hosts" });
    expectConsoleError(`status of 400 (Bad Request) (${service()}/sites/${site.id})`);
    await save.click();
    await expect.poll(() => save.isDisabled()).toBe(true);
    release();
    await expect.poll(() => save.isDisabled()).toBe(false);
    // The 400 envelope's details.issues come back to the field that caused them, tied to it for screen readers.
    const described = await hosts.getAttribute("aria-describedby");
    expect(described).toBeTruthy();
    const message = await page.locator(`[id="${described!.split(" ").at(-1)}"]`).innerText();
    expect(message).toContain("must be a hostname like images.example.com");
    expect(await page.getByRole("alert").first().innerText()).toContain("Some fields need attention");
    await checkScreen(page, "40-settings-field-error");

    await hosts.fill("images.example.com");
    await save.click();
    await page.getByText("Saved. Published images follow at once.").waitFor();
    const stored = await api<{ site: { imageResizingHosts: string[] } }>("GET", `/sites/${site.id}`, site.adminKey);
    expect(stored.site.imageResizingHosts).toEqual(["images.example.com"]);
    await page.close();
  });

  it("says what to do when the service cannot be reached, and nothing is lost from the form", async () => {
    const site = await newSite();
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/settings`);
    const name = page.getByLabel("Site name");
    await name.fill("Renamed while offline");
    await page.route(`**/sites/${site.id}`, (route) =>
      route.request().method() === "PATCH" ? route.abort("internetdisconnected") : route.continue(),
    );
    expectConsoleError(`net::ERR_INTERNET_DISCONNECTED (${service()}/sites/${site.id})`);
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("The service could not be reached. Check your connection and try again.").waitFor();
    expect(await name.inputValue()).toBe("Renamed while offline");
    await checkScreen(page, "41-settings-offline");

    await page.unroute(`**/sites/${site.id}`);
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("Saved.", { exact: true }).waitFor();
    const stored = await api<{ site: { name: string } }>("GET", `/sites/${site.id}`, site.adminKey);
    expect(stored.site.name).toBe("Renamed while offline");
    await page.close();
  });
  it("names every problem of an empty item at once, and saves a switch left unticked as false", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string; token: string } }>("POST", "/sites", OPERATOR, {
      name: "Switches",
      plan: "pro",
    });
    await api("PUT", `/sites/${site.id}/collections/recipes`, site.adminKey, {
      name: "Recipes",
      fields: [
        { key: "title", type: "text", required: true },
        { key: "vegan", type: "boolean", indexed: true },
      ],
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/recipes`);
    await page.getByRole("link", { name: "New item" }).click();
    // Saved empty, the form names both problems at once: the title and the slug it fills (a 400).
    expectConsoleError(`status of 400 (Bad Request) (${service()}/sites/${site.id}/collections/recipes/items)`);
    await page.getByRole("button", { name: "Save as draft" }).click();
    await page.getByText("is required").waitFor();
    await page.getByText(/must be a slug/).waitFor();
    await page.getByLabel("title (required)").fill("Cheese scone");
    // Each message was said of the value sent: the title typed and the slug it filled clear both.
    await expect.poll(() => page.getByText("is required").count()).toBe(0);
    await expect.poll(() => page.getByText(/must be a slug/).count()).toBe(0);
    expect(await page.getByLabel("Slug").getAttribute("aria-invalid")).toBeNull();
    expect(await page.getByLabel("vegan").isChecked()).toBe(false);
    await page.getByRole("button", { name: "Save and publish" }).click();
    await page.getByText("Published.").waitFor();
    // The new item's address took the form's place: Back returns to the list, not to an empty form.
    await page.goBack();
    await page.getByRole("heading", { name: "Recipes" }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/${site.id}/items/recipes`);
    const res = await fetch(`${service()}/v1/${site.token}/collections/recipes/items?filter[vegan]=false`);
    const body = (await res.json()) as { items: { slug: string; data: Record<string, unknown> }[] };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.items.map((i) => [i.slug, i.data.vegan])).toEqual([["cheese-scone", false]]);
    await page.close();
  });
});
