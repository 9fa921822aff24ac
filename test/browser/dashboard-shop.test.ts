// A shop owner's products from the dashboard alone: a decimal price with its currency, an option
// with labels, and the price kept as typed ("34.90") through save and reload.
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

interface Listed {
  items: { id: string; slug: string; data: Record<string, unknown> }[];
}

describe("dashboard: a shop's products", () => {
  it("makes a price field in euros, keeps 34.90 as typed, and reloads it the same", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, { name: "Shop", plan: "starter" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/new`);
    await page.getByLabel("Collection name").fill("Products");
    await page.getByRole("button", { name: "Add a field" }).click();
    const n = await page.locator(".field-row").count();
    await page.getByLabel(`Field ${n} key`).fill("price");
    await page.getByLabel(`Field ${n} type`).selectOption({ label: "Decimal / price" });
    await page.getByLabel(`Field ${n} currency`).fill("eur");
    await checkScreen(page, "60-collection-decimal-field");
    await page.getByRole("button", { name: "Create collection" }).click();
    await page.getByRole("heading", { name: "Products" }).waitFor();
    const { collection } = await api<{ collection: { fields: Record<string, unknown>[] } }>(
      "GET",
      `/sites/${site.id}/collections/products`,
      site.adminKey,
    );
    expect(collection.fields.find((f) => f["key"] === "price")).toMatchObject({ type: "decimal", currency: "EUR" });

    await page.getByRole("link", { name: "New item" }).click();
    await page.getByLabel("title (required)").fill("Oak planter");
    const price = page.getByLabel("price");
    expect(await price.getAttribute("inputmode")).toBe("decimal");
    await price.fill("34,90");
    expectConsoleError(`status of 400 (Bad Request) (${service()}/sites/${site.id}/collections/products/items)`);
    await page.getByRole("button", { name: "Save and publish" }).click();
    // The service's reason comes back to the field; the owner corrects it there.
    await expect.poll(() => page.getByText("must be a decimal number").count()).toBeGreaterThan(0);
    await price.fill("34.90");
    await page.getByRole("button", { name: "Save and publish" }).click();
    await page.getByText("Published", { exact: true }).first().waitFor();
    await checkScreen(page, "61-item-decimal-price");

    const { items } = await api<Listed>("GET", `/sites/${site.id}/collections/products/items`, site.adminKey);
    expect(items[0]!.data["price"]).toBe("34.90");
    await page.reload();
    await expect.poll(() => price.inputValue()).toBe("34.90");
    await page.close();
  });
});
