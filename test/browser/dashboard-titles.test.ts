// For a collection with fields [name, title] the dashboard once named items by `name` while
// rendered pages took `title`. The service now decides (titleField, seoDefaults) and the
// dashboard shows what it is sent.
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { checkScreen, dashboardBrowser, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

describe("one title rule, decided by the service", () => {
  it("names items by the title field in the list, the editor heading and the SEO Engine's automatic choice", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, {
      name: "People",
      plan: "seo_engine",
    });
    await api("PUT", `/sites/${site.id}/collections/people`, site.adminKey, {
      name: "People",
      fields: [
        { key: "name", type: "text" },
        { key: "title", type: "text" },
        { key: "bio", type: "richText" },
      ],
    });
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/people/items`, site.adminKey, {
      slug: "ada",
      data: { name: "Ada", title: "Countess of Lovelace" },
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/people`);
    await page.getByRole("link", { name: "Countess of Lovelace" }).waitFor();
    expect(await page.getByRole("link", { name: "Ada", exact: true }).count()).toBe(0);
    await checkScreen(page, "42-items-title-field");

    await page.goto(`${service()}/dashboard/#/${site.id}/items/people/${item.id}`);
    await page.getByRole("heading", { name: /Countess of Lovelace/ }).waitFor();

    await page.goto(`${service()}/dashboard/#/${site.id}/seo`);
    await page.getByLabel("Collection").selectOption("people");
    await page.getByText("Advanced: which fields feed titles, descriptions and images").click();
    expect(await page.getByLabel("Title field").locator("option").first().textContent()).toBe("Automatic (title)");
    expect(await page.getByLabel("Description field").locator("option").first().textContent()).toBe("Automatic (bio)");
    await page.close();
  });
});
