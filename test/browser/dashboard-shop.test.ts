// A shop owner's products from the dashboard alone: a decimal price with its currency, options
// with labels, a photo and a description, the price kept as typed ("34.90") through save and
// reload, and the shop's pages on a plain static host without rewrites.
import sharp from "sharp";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, pageServer, putPage, service } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, SCREENSHOTS, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

/** The shop's fields after its Name, as the owner adds them in the collection editor. */
const SHOP_FIELDS: [label: string, type: string, extra?: (page: Page, n: number) => Promise<void>][] = [
  ["Price", "Decimal / price", (p, n) => p.getByLabel(`Field ${n} currency`).fill("EUR")],
  ["Availability", "Option (one of a list)", (p, n) => p.getByLabel(`Field ${n} options`).fill("In stock\nLow stock\nSold out")],
  ["Category", "Option (one of a list)", (p, n) => p.getByLabel(`Field ${n} options`).fill("Pots & planters\nTools")],
  ["Photo", "Image"],
  ["Description", "Rich text"],
];

interface Product {
  name: string;
  price: string;
  availability: string;
  category: string;
  colour: string;
  alt: string;
  description: string;
}

const PRODUCTS: Product[] = [
  {
    name: "Oak planter",
    price: "34.90",
    availability: "Sold out",
    category: "Pots & planters",
    colour: "#8a5a2b",
    alt: "Oak planter on a windowsill",
    description: "Solid oak, oiled by hand.",
  },
  {
    name: "Clay pot",
    price: "1250",
    availability: "In stock",
    category: "Pots & planters",
    colour: "#b5562f",
    alt: "A clay pot",
    description: "Fired twice.",
  },
];

/** A product through the item form: its photo uploaded from the computer, published. */
async function newProduct(page: Page, siteId: string, p: Product): Promise<void> {
  await page.goto(`${service()}/dashboard/#/${siteId}/items/products/new`);
  await page.getByLabel("Name (required)").fill(p.name);
  await page.getByLabel("Price").fill(p.price);
  await page.getByLabel("Availability").selectOption({ label: p.availability });
  await page.getByLabel("Category").selectOption({ label: p.category });
  const photo = page.getByRole("group", { name: "Photo" });
  const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: p.colour } })
    .jpeg()
    .toBuffer();
  await photo
    .locator('input[type="file"]')
    .setInputFiles({ name: `${p.name.toLowerCase().replace(" ", "-")}.jpg`, mimeType: "image/jpeg", buffer: jpeg });
  await photo.getByText("1 of 1 uploaded").waitFor({ timeout: 30_000 });
  await page.getByLabel("Photo: alt text").fill(p.alt);
  await page.getByRole("textbox", { name: "Description" }).click();
  await page.keyboard.type(p.description);
  // Leaving the alt text box saved it on the photo's media entry.
  await photo.getByText("Alt text saved.").waitFor();
  await page.getByRole("button", { name: "Save and publish" }).click();
  await page.getByText("Published", { exact: true }).first().waitFor();
}

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

  it("is made from the screens and shows as a shop on a host without rewrites, its links opening the right product", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string; token: string } }>("POST", "/sites", OPERATOR, {
      name: "Static shop",
      plan: "starter",
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/new`);
    await page.getByLabel("Collection name").fill("Products");
    await page.getByLabel("Field 1 label").fill("Name");
    for (const [i, [label, type, extra]] of SHOP_FIELDS.entries()) {
      const n = i + 2;
      await page.getByRole("button", { name: "Add a field" }).click();
      await page.getByLabel(`Field ${n} label`).fill(label);
      await page.getByLabel(`Field ${n} type`).selectOption({ label: type });
      await extra?.(page, n);
    }
    await page.getByRole("button", { name: "Create collection" }).click();
    await page.getByRole("heading", { name: "Products" }).waitFor();
    for (const product of PRODUCTS) await newProduct(page, site.id, product);

    await page.goto(`${service()}/dashboard/#/${site.id}`);
    await expect.poll(() => page.locator(".checklist.setup").textContent()).toContain("Put the widget on your page (to do)");
    await page.goto(`${service()}/dashboard/#/${site.id}/integrate`);
    await page.getByRole("radio", { name: /A static host without rewrites/ }).check();
    await checkScreen(page, "62-integrate-static-host");
    const snippet = (label: string) => page.getByLabel(label, { exact: true }).innerText();
    const script = await snippet("Embed script tag");
    const styles = await snippet("Starter styles");
    const list = await snippet("List widget for Products");
    const item = await snippet("Item page widget for Products");
    expect(list).toContain('data-oc-link="/products/item.html?slug={slug}"');

    // The customer's site: two plain files on a server that answers only the paths it holds.
    const root = `/static-shop-${site.id}`;
    const html = (body: string) =>
      `<!doctype html><html lang="en"><head><title>Shop</title><link rel="icon" href="data:,">${script}${styles}</head><body>${body}</body></html>`;
    const listUrl = await putPage(`${root}/products/`, html(list.replaceAll("/products/", `${root}/products/`)));
    await putPage(`${root}/products/item.html`, html(item.replaceAll("/products/", `${root}/products/`)));

    await page.goto(listUrl);
    await page.getByRole("link", { name: "Clay pot" }).waitFor();
    // The starter styles lay the products out side by side, as cards.
    const cards = page.locator("[data-oc-list] > article");
    const [first, second] = await Promise.all([cards.nth(0).boundingBox(), cards.nth(1).boundingBox()]);
    expect(second!.y).toBe(first!.y);
    await expect
      .poll(() =>
        cards
          .locator("img")
          .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)),
      )
      .toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/69-shop-list-static-host.png`, fullPage: true });
    await page.getByRole("link", { name: "Oak planter" }).click();
    await page.waitForURL(`${pageServer()}${root}/products/item.html?slug=oak-planter`);
    const product = page.locator("article[data-oc-item]");
    await page.locator("article[data-oc-item][data-oc-rendered]").waitFor();
    expect(await product.getByRole("heading", { level: 1 }).innerText()).toBe("Oak planter");
    const shown = (await product.innerText()).replace(/\s+/g, " ");
    for (const text of ["€34.90", "Sold out", "Pots & planters", "Solid oak, oiled by hand."]) expect(shown, text).toContain(text);
    for (const code of ["sold-out", "pots-planters", "34.9 "]) expect(shown, code).not.toContain(code);
    const photo = product.locator("img").first();
    expect(await photo.getAttribute("alt")).toBe("Oak planter on a windowsill");
    await expect.poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}/69-shop-product-static-host.png`, fullPage: true });

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
