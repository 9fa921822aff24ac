// An owner makes a shop bilingual from the dashboard alone: adds French under Settings →
// Languages, marks the product name as translated in the collection editor, translates a product
// in its editor (the missing-translation state goes), and the French page renders through the
// service's routing with its hreflang. Removing French says how many translations go and asks.
import { describe, expect, it } from "vitest";
import { api, putPage, service, type Site } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

const shopPage = (token: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Planters</title>
<link rel="icon" href="data:,"></head><body><div data-oc-list="products"><article><a data-oc-link><h2 data-oc-field="name">Name</h2></a></article></div>
<script src="${service()}/embed.js" data-oc-token="${token}" defer></script></body></html>`;

describe("dashboard: languages and translations", () => {
  it("adds French, translates a product in its editor, and renders its French page", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Planters", plan: "seo_engine" });
    await api("PUT", `/sites/${site.id}/collections/products`, site.adminKey, {
      name: "Products",
      fields: [
        { key: "name", type: "text", required: true },
        { key: "price", type: "number" },
      ],
    });
    const made = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/products/items`, site.adminKey, {
      slug: "oak-planter",
      publish: true,
      data: { name: "Oak planter", price: 35 },
    });
    const base = `/planters-${site.id}/products/`;
    const pageUrl = await putPage(base, shopPage(site.token));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "products" });

    const page = await newPage(1280);
    await signIn(page, site.adminKey);

    // Settings → Languages: English is the primary, French is added.
    await page.goto(`${service()}/dashboard/#/${site.id}/settings`);
    const card = page.locator("form.card").filter({ has: page.getByRole("heading", { name: "Languages" }) });
    await card.getByLabel("Primary language").fill("en");
    await card.getByLabel("Add a language").fill("fr");
    await card.getByRole("button", { name: "Add", exact: true }).click();
    await card.getByRole("button", { name: "Save languages" }).click();
    await card.getByText("Saved. Pages, sitemap and feeds follow at once.").waitFor();
    await card.getByRole("row", { name: /French/ }).waitFor();
    await checkScreen(page, "90-settings-languages");

    // The collection editor: the name is translated.
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/products`);
    await page.getByLabel("Field 1 is translated (a value per language)").check();
    await page.getByRole("button", { name: "Save fields" }).click();
    await page.getByText("Saved.", { exact: true }).waitFor();

    // The items table finds what is not translated yet; the product opens from there.
    await page.goto(`${service()}/dashboard/#/${site.id}/items/products`);
    await page.getByLabel("Translation").selectOption({ label: "Missing translation: French (fr)" });
    await page.getByRole("link", { name: "Oak planter" }).click();

    // The product's editor: French is missing, then translated.
    await page.waitForURL(`**/items/products/${made.item.id}`);
    const translations = page.locator(".card.translations");
    await translations.getByText("Missing translation: this item is not listed in French").waitFor();
    expect(await translations.getByLabel("Language").inputValue()).toBe("fr");
    await translations.getByText("English: Oak planter").waitFor();
    await translations.getByLabel(/name in French/).fill("Jardinière en chêne");
    await translations.getByLabel("Slug in French").fill("jardiniere-en-chene");
    await translations.getByRole("button", { name: "Save French translation" }).click();
    await translations.getByText("Saved the French translation.").waitFor();
    // The language now reads as translated, and the missing-translation state is gone.
    await translations.locator("option", { hasText: "French (fr) · translated" }).waitFor({ state: "attached" });
    expect(await translations.getByText("Missing translation: this item").count()).toBe(0);
    expect(await translations.getByText("Saved the French translation.").isVisible()).toBe(true);
    await checkScreen(page, "91-item-translation");

    // Back in the table, the same filter now has nothing left to translate.
    await page.goBack();
    await page.getByText("No products match.", { exact: false }).waitFor();
    expect(await page.getByLabel("Translation").inputValue()).toBe("fr");

    // The French page as a visitor's browser gets it through the service's routing.
    const fr = await fetch(`${service()}/fr${base}jardiniere-en-chene`, { headers: { "x-service-token": site.token } });
    expect(fr.status).toBe(200);
    const html = await fr.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain(`hreflang="en" href="${new URL(pageUrl).origin}${base}oak-planter"`);

    // Removing French says what goes and asks first.
    await page.goto(`${service()}/dashboard/#/${site.id}/settings`);
    // The first answer is the 409 that says what would go; the browser logs it.
    expectConsoleError(/409 \(Conflict\)/);
    await card.getByRole("button", { name: "Remove fr" }).click();
    await card.getByRole("button", { name: "Save languages" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove languages and their translations?" });
    await dialog.getByText("1 translated item").waitFor();
    await dialog.getByRole("button", { name: "Remove with translations" }).click();
    await card.getByText("Saved. Pages, sitemap and feeds follow at once.").waitFor();
    expect(await card.getByRole("row", { name: /French/ }).count()).toBe(0);
    await page.close();
  });
});
