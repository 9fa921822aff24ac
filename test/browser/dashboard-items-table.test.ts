// A shop owner's items table: the columns they choose (a thumbnail, a price, an availability
// label), filters by any indexed field, Duplicate and a bulk change of availability.
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, pageServer, service } from "./harness";
import { checkScreen, dashboardBrowser, OPERATOR, signIn } from "./dashboard-harness";
import { mediaFile } from "../fixtures/media-files";

const { newPage } = dashboardBrowser();

interface Listed {
  items: { id: string; slug: string; status: string; data: Record<string, unknown> }[];
}

async function shop() {
  const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, {
    name: "Plant shop",
    plan: "starter",
  });
  await api("PUT", `/sites/${site.id}/collections/products`, site.adminKey, {
    name: "Products",
    fields: [
      { key: "name", name: "Name", type: "text", required: true, indexed: true },
      { key: "photo", name: "Photo", type: "image" },
      { key: "price", name: "Price", type: "decimal", currency: "EUR", indexed: true },
      {
        key: "stock",
        name: "Availability",
        type: "option",
        indexed: true,
        options: [
          { value: "in-stock", label: "In stock" },
          { value: "sold-out", label: "Sold out" },
        ],
      },
    ],
  });
  const photoUrl = `${pageServer()}/plant-shop-${site.id}/oak.png`;
  await fetch(`${pageServer()}/__pages/plant-shop-${site.id}/oak.png`, {
    method: "PUT",
    headers: { "x-content-type": "image/png" },
    body: Buffer.from(mediaFile("photo.png")),
  });
  const { media } = await api<{ media: { mediaId: string } }>("POST", `/sites/${site.id}/media`, site.adminKey, {
    url: photoUrl,
    alt: "An oak planter",
  });
  for (const [slug, name, price, stock, photo] of [
    ["oak-planter", "Oak planter", "34.90", "in-stock", media.mediaId],
    ["clay-pot", "Clay pot", "12.50", "in-stock", null],
    ["steel-trough", "Steel trough", "149.00", "sold-out", null],
  ] as const)
    await api("POST", `/sites/${site.id}/collections/products/items`, site.adminKey, {
      slug,
      publish: slug !== "clay-pot",
      data: { name, price, stock, ...(photo ? { photo } : {}) },
    });
  return site;
}

describe("dashboard: a shop's items table", () => {
  it("shows a thumbnail, the price and the availability label, and keeps the columns chosen", async () => {
    const site = await shop();
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/products`);
    const table = page.getByRole("table", { name: "Items of Products" });
    const headers = () => table.getByRole("columnheader").allInnerTexts();
    await expect.poll(headers).toEqual(["Select", "Name", "Photo", "Price", "Availability", "Status", "Slug", "Last edited"]);
    const oak = table.getByRole("row", { name: /Oak planter/ });
    await expect.poll(() => oak.getByRole("img", { name: "An oak planter" }).count()).toBe(1);
    expect(await oak.innerText()).toContain("34.90 EUR");
    expect(await table.getByRole("row", { name: /Steel trough/ }).innerText()).toContain("Sold out");
    await checkScreen(page, "65-items-table-columns");

    await page.getByText("Columns", { exact: true }).click();
    await page.getByRole("checkbox", { name: "Slug" }).uncheck();
    await page.getByRole("checkbox", { name: "Photo" }).uncheck();
    await expect.poll(headers).toEqual(["Select", "Name", "Price", "Availability", "Status", "Last edited"]);
    await page.reload();
    await expect.poll(headers).toEqual(["Select", "Name", "Price", "Availability", "Status", "Last edited"]);

    // The search box finds names and slugs through the index; "Every field" reads the other values too.
    const names = () => table.locator("tbody tr td:nth-child(2)").allInnerTexts();
    await page.getByLabel("Search items").fill("trough");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(names).toEqual(["Steel trough"]);
    await page.getByLabel("Search items").fill("sold");
    await page.getByLabel("Search items").press("Enter");
    await page.getByText("No products match.", { exact: false }).waitFor();
    await page.getByRole("checkbox", { name: "Every field" }).check();
    await expect.poll(names).toEqual(["Steel trough"]);
    await checkScreen(page, "68-items-search-every-field");
    // On a phone the box, its button and the checkbox still share one line, the hint under them.
    await page.setViewportSize({ width: 390, height: 844 });
    const middle = async (l: Locator) => {
      const b = (await l.boundingBox())!;
      return Math.round(b.y + b.height / 2);
    };
    const box = await middle(page.getByLabel("Search items"));
    expect(Math.abs((await middle(page.getByRole("button", { name: "Search", exact: true }))) - box)).toBeLessThan(4);
    expect(Math.abs((await middle(page.getByRole("checkbox", { name: "Every field" }))) - box)).toBeLessThan(4);
    await checkScreen(page, "68b-items-search-390");
    await page.close();
  });

  it("filters by an option and a price range, duplicates an item, and sets availability on the selected ones", async () => {
    const site = await shop();
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/products`);
    const table = page.getByRole("table", { name: "Items of Products" });
    const names = () => table.locator("tbody tr td:nth-child(2)").allInnerTexts();
    await expect.poll(async () => (await names()).length).toBe(3);

    const filters = page.getByRole("group", { name: "Filter by" });
    await filters.getByLabel("Availability").selectOption({ label: "In stock" });
    await expect.poll(async () => (await names()).sort()).toEqual(["Clay pot", "Oak planter"]);
    await page.getByLabel("Price at least").fill("20");
    await page.getByLabel("Price at least").press("Enter");
    await expect.poll(names).toEqual(["Oak planter"]);
    // The view outlives a reload, as the search and sort do.
    await page.reload();
    await expect.poll(names).toEqual(["Oak planter"]);
    await page.getByLabel("Price at least").fill("");
    await page.getByLabel("Price at least").press("Enter");
    await filters.getByLabel("Availability").selectOption({ label: "Any" });
    await expect.poll(async () => (await names()).length).toBe(3);

    // Duplicate from the editor: a draft copy at its own address; Back returns to the original.
    await table.getByRole("link", { name: "Oak planter" }).click();
    await page.getByRole("button", { name: "Duplicate" }).click();
    await page.getByText("Duplicated: this copy is a draft, “Oak planter (copy)”.").waitFor();
    expect(await page.getByLabel("Slug").inputValue()).toBe("oak-planter-copy");
    await expect.poll(() => page.getByLabel("Price").inputValue()).toBe("34.90");
    await page.goBack();
    await expect.poll(() => page.getByLabel("Slug").inputValue()).toBe("oak-planter");

    await page.goto(`${service()}/dashboard/#/${site.id}/items/products`);
    await expect.poll(async () => (await names()).length).toBe(4);
    await page.getByRole("checkbox", { name: "Select Oak planter", exact: true }).check();
    await page.getByRole("checkbox", { name: "Select Clay pot" }).check();
    await page.getByLabel("Set field").selectOption({ label: "Availability" });
    await page.getByLabel("To", { exact: true }).selectOption({ label: "Sold out" });
    await checkScreen(page, "66-items-bulk-edit");
    await page.getByRole("button", { name: "Apply to selected (2)" }).click();
    await page.getByText("Availability set on 2 items.").waitFor();

    const { items } = await api<Listed>("GET", `/sites/${site.id}/collections/products/items?limit=10`, site.adminKey);
    const stock = Object.fromEntries(items.map((i) => [i.slug, i.data["stock"]]));
    expect(stock).toEqual({
      "oak-planter": "sold-out",
      "clay-pot": "sold-out",
      "steel-trough": "sold-out",
      "oak-planter-copy": "in-stock",
    });
    expect(items.find((i) => i.slug === "oak-planter-copy")?.status).toBe("draft");
    await page.close();
  });

  it("selects every draft of a long list and publishes the first 1,000 of them at once", async () => {
    const site = await shop();
    // 1,200 more drafts, as an import or a script leaves them.
    for (let batch = 0; batch < 2; batch++)
      await api("POST", `/sites/${site.id}/collections/products/items:batch`, site.adminKey, {
        items: Array.from({ length: 600 }, (_, i) => ({
          slug: `seedling-${batch}-${i}`,
          data: { name: `Seedling ${batch}-${i}`, price: "4.00" },
        })),
      });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/products`);
    await page.getByLabel("Show").selectOption({ label: "Drafts" });
    const table = page.getByRole("table", { name: "Items of Products" });
    await expect.poll(() => table.locator("tbody tr").count()).toBe(25);
    await page.getByRole("checkbox", { name: "Select every item on this page" }).check();
    await page.getByText("25 selected.").waitFor();
    await page.getByRole("button", { name: "Select the first 1,000 of 1,201" }).click();
    await page.getByText("1,000 selected.").waitFor();
    await checkScreen(page, "69-items-select-all");
    await page.getByRole("button", { name: "Publish selected (1,000)" }).click();
    await page.getByText("1,000 items published.").waitFor();
    // The list holds what is left: the drafts not selected.
    await expect.poll(() => page.getByRole("navigation", { name: "Pages" }).innerText()).toContain("Page 1 of 9");
    const drafts = await api<{ total: number }>("GET", `/sites/${site.id}/collections/products/items?status=draft&limit=1`, site.adminKey);
    expect(drafts.total).toBe(201);
    expect(await page.getByRole("checkbox", { name: "Select every item on this page" }).isChecked()).toBe(false);
    await page.close();
  });
});
