// A shop owner's products from the dashboard alone: a decimal price with its currency, an option
// with labels, and the price kept as typed ("34.90") through save and reload.
import { describe, expect, it } from "vitest";
import { api, pageServer, putPage, service } from "./harness";
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

  it("gives snippets for a host without rewrites whose links open the right product", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string; token: string } }>("POST", "/sites", OPERATOR, {
      name: "Static shop",
      plan: "starter",
    });
    await api("PUT", `/sites/${site.id}/collections/products`, site.adminKey, {
      name: "Products",
      fields: [
        { key: "name", type: "text", required: true },
        { key: "price", type: "decimal", currency: "EUR" },
        {
          key: "stock",
          type: "option",
          options: [
            { value: "in-stock", label: "In stock" },
            { value: "sold-out", label: "Sold out" },
          ],
        },
      ],
    });
    for (const [slug, name, price, stock] of [
      ["oak-planter", "Oak planter", "34.90", "sold-out"],
      ["clay-pot", "Clay pot", "1250", "in-stock"],
    ])
      await api("POST", `/sites/${site.id}/collections/products/items`, site.adminKey, {
        slug,
        publish: true,
        data: { name, price, stock },
      });

    const page = await newPage();
    await signIn(page, site.adminKey);
    await expect.poll(() => page.locator(".checklist.setup").textContent()).toContain("Put the widget on your page (to do)");
    await page.goto(`${service()}/dashboard/#/${site.id}/integrate`);
    await page.getByRole("radio", { name: /A static host without rewrites/ }).check();
    await checkScreen(page, "62-integrate-static-host");
    const snippet = (label: string) => page.getByLabel(label, { exact: true }).innerText();
    const script = await snippet("Embed script tag");
    const list = await snippet("List widget for Products");
    const item = await snippet("Item page widget for Products");
    expect(list).toContain('data-oc-link="/products/item.html?slug={slug}"');

    // The customer's site: two plain files on a server that answers only the paths it holds.
    const root = `/static-shop-${site.id}`;
    const html = (body: string) =>
      `<!doctype html><html lang="en"><head><title>Shop</title><link rel="icon" href="data:,">${script}</head><body>${body}</body></html>`;
    const listUrl = await putPage(`${root}/products/`, html(list.replaceAll("/products/", `${root}/products/`)));
    await putPage(`${root}/products/item.html`, html(item.replaceAll("/products/", `${root}/products/`)));

    await page.goto(listUrl);
    await page.getByRole("link", { name: "Clay pot" }).waitFor();
    await page.getByRole("link", { name: "Oak planter" }).click();
    await page.waitForURL(`${pageServer()}${root}/products/item.html?slug=oak-planter`);
    const product = page.locator("article[data-oc-item]");
    await page.locator("article[data-oc-item][data-oc-rendered]").waitFor();
    expect(await product.getByRole("heading", { level: 1 }).innerText()).toBe("Oak planter");
    expect((await product.innerText()).replace(/\s/g, " ")).toContain("€34.90");
    expect(await product.innerText()).toContain("Sold out");

    // Back to the list, then the page opened without any item in its address.
    await page.goBack();
    await page.getByRole("link", { name: "Clay pot" }).waitFor();
    await page.goto(`${pageServer()}${root}/products/item.html`);
    await page.getByText("This item is not available.").waitFor();
    expect(await product.getByRole("heading").count()).toBe(0);
    // An address by fragment: another item without a reload.
    await page.goto(`${pageServer()}${root}/products/item.html#clay-pot`);
    await expect.poll(() => product.getByRole("heading", { level: 1 }).innerText()).toBe("Clay pot");
    expect((await product.innerText()).replace(/\s/g, " ")).toContain("€1,250.00");
    await page.evaluate(() => (location.hash = "#oak-planter"));
    await expect.poll(() => product.getByRole("heading", { level: 1 }).innerText()).toBe("Oak planter");

    // The embed script reported the page it rendered on: the checklist's last step on a Starter site ticks, and the card goes.
    await page.goto(`${service()}/dashboard/#/${site.id}`);
    await page.getByRole("heading", { level: 1, name: "Static shop" }).waitFor();
    await page.getByText("Clay pot").first().waitFor();
    await expect.poll(() => page.locator(".checklist.setup").count()).toBe(0);
    await page.close();
  });

  it("orders fields by dragging and with the keyboard, and the item form follows", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, { name: "Order", plan: "starter" });
    await api("PUT", `/sites/${site.id}/collections/jobs`, site.adminKey, {
      name: "Jobs",
      fields: [
        { key: "title", name: "Title", type: "text", required: true },
        { key: "company", name: "Company", type: "text" },
        { key: "salary", name: "Salary", type: "decimal", currency: "EUR" },
      ],
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/jobs`);
    const labels = () =>
      page.locator(".field-row").evaluateAll((rows) => rows.map((r) => (r.querySelector("input") as HTMLInputElement).value));
    await expect.poll(labels).toEqual(["Title", "Company", "Salary"]);

    // Salary's handle dropped on the first row.
    // Both rows in view, as on an owner's screen where the drag starts and ends.
    await page.setViewportSize({ width: 1280, height: 1800 });
    await page.getByRole("button", { name: /Move field 3 \(Salary\)/ }).dragTo(page.locator(".field-row").first());
    await expect.poll(labels).toEqual(["Salary", "Title", "Company"]);
    // The keyboard: the handle takes the arrow keys and keeps the focus on the moved field.
    await page.getByRole("button", { name: /Move field 1 \(Salary\)/ }).focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(labels).toEqual(["Title", "Salary", "Company"]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toContain("(Salary)");
    await page.getByRole("button", { name: "Move field 3 up" }).click();
    await expect.poll(labels).toEqual(["Title", "Company", "Salary"]);
    await page.getByRole("button", { name: /Move field 2 \(Company\)/ }).focus();
    await page.keyboard.press("ArrowUp");
    await expect.poll(labels).toEqual(["Company", "Title", "Salary"]);
    await checkScreen(page, "63-collection-field-order");
    await page.getByRole("button", { name: "Save fields" }).click();
    await page.getByText("Saved.").waitFor();

    const { collection } = await api<{ collection: { fields: { key: string }[] } }>(
      "GET",
      `/sites/${site.id}/collections/jobs`,
      site.adminKey,
    );
    expect(collection.fields.map((f) => f.key)).toEqual(["company", "title", "salary"]);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/jobs/new`);
    await page.getByLabel("Company").waitFor();
    const order = await page.locator("form label").evaluateAll((ls) => ls.map((l) => l.textContent ?? ""));
    const at = (name: string) => order.findIndex((t) => t.startsWith(name));
    expect(at("Company")).toBeLessThan(at("Title"));
    expect(at("Title")).toBeLessThan(at("Salary"));
    await page.close();
  });
});
