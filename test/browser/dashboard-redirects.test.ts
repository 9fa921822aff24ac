// An owner on the SEO Engine screen: the crawler preview says a product page cannot show as a
// product until its price field is chosen, then that it can; old addresses are sent to new ones
// in the Redirects card, one by one and from a CSV file, and the rendered site follows.
import { describe, expect, it } from "vitest";
import { api, putPage, putPhoto, service, type Site } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

const shopPage = (token: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Planters</title>
<link rel="icon" href="data:,"></head><body><div data-oc-list="products"><article><a data-oc-link><h2 data-oc-field="name">Name</h2></a></article></div>
<script src="${service()}/embed.js" data-oc-token="${token}" defer></script></body></html>`;

/** A rendered page as a visitor's browser asks for it (the service's routing by token), not followed. */
const visit = (site: Site, path: string) =>
  fetch(`${service()}${path}`, { headers: { "x-service-token": site.token }, redirect: "manual" });

describe("dashboard: the crawler preview's rich result and the Redirects card", () => {
  it("turns a product page eligible in the preview, and sends old addresses to new ones", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Planters", plan: "seo_engine" });
    await api("PUT", `/sites/${site.id}/collections/products`, site.adminKey, {
      name: "Products",
      fields: [
        { key: "name", type: "text", required: true },
        { key: "retail", name: "Retail (EUR)", type: "decimal", currency: "EUR" },
        { key: "photo", type: "image" },
      ],
    });
    await api("POST", `/sites/${site.id}/collections/products/items`, site.adminKey, {
      slug: "oak-planter",
      publish: true,
      data: {
        name: "Oak planter",
        retail: "34.90",
        photo: { url: await putPhoto(`/planters-${site.id}/img/oak.jpg`), alt: "Oak planter" },
      },
    });
    const base = `/planters-${site.id}/products/`;
    const pageUrl = await putPage(base, shopPage(site.token));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "products" });

    const page = await newPage(1280);
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/seo`);

    // The preview of the product page: not a product result yet, and what to do about it.
    const preview = page.locator(".preview-card");
    await preview.getByLabel("Page to preview").selectOption({ label: "Oak planter" });
    await preview.getByRole("button", { name: "Show preview" }).click();
    const verdict = preview.getByRole("alert").filter({ hasText: "Not eligible as a product yet" });
    await verdict.waitFor();
    expect(await verdict.innerText()).toContain("fill Price (choose its field under Rich results)");

    const rich = page.locator(".card").filter({ has: page.getByRole("heading", { name: "Rich results" }) });
    await rich.getByLabel("Field for Price").selectOption({ label: "Retail (EUR)" });
    await rich.getByRole("button", { name: "Save rich results" }).click();
    await rich.getByText("Saved. Every item page follows at once.").waitFor();
    await preview.getByRole("button", { name: "Reload preview" }).click();
    await preview.getByText("Eligible: Google can show this page as a product.").waitFor();
    await checkScreen(page, "80-preview-rich-result-eligible");

    // One redirect from the form.
    const card = page.locator(".redirects-card");
    await card.getByText("No redirects yet.", { exact: false }).waitFor();
    await card.getByLabel("Old path").fill(`${base}oak-tub`);
    await card.getByLabel("Leads to").fill(`${base}oak-planter`);
    await card.getByRole("button", { name: "Add redirect" }).click();
    await card.getByText(`Added: ${base}oak-tub now leads to ${base}oak-planter.`).waitFor();
    const moved = await visit(site, `${base}oak-tub?ref=old`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`${base}oak-planter?ref=old`);

    // A loop is refused, saying why, and the form keeps what was typed.
    expectConsoleError(/400 \(Bad Request\) \(.*\/ssr\/redirects(\/import)?\)/);
    await card.getByLabel("Old path").fill(`${base}oak-planter`);
    await card.getByLabel("Leads to").fill(`${base}oak-tub`);
    await card.getByRole("button", { name: "Add redirect" }).click();
    await card.getByText("This rule would make a loop", { exact: false }).waitFor();
    expect(await card.getByLabel("Old path").inputValue()).toBe(`${base}oak-planter`);

    // Changed to temporary from its row.
    await card.getByRole("button", { name: `Edit the redirect from ${base}oak-tub` }).click();
    expect(await card.getByLabel("Old path").inputValue()).toBe(`${base}oak-tub`);
    await card.getByLabel("Kind").selectOption("302");
    await card.getByRole("button", { name: "Save changes" }).click();
    await card.getByText(`Changed: ${base}oak-tub now leads to ${base}oak-planter.`).waitFor();
    expect((await visit(site, `${base}oak-tub`)).status).toBe(302);

    // A CSV with a bad line: nothing imported, the line named.
    const file = card.getByLabel("Import a CSV file");
    await file.setInputFiles({
      name: "bad.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("from,to\r\n/old-shop/pots,/x\r\nno-slash,/y\r\n"),
    });
    await card.getByRole("list", { name: "Lines to fix" }).getByText("line 3", { exact: false }).waitFor();
    // The shop's old platform export (its own column names): imported whole.
    const csv = `Redirect from,Redirect to\r\n/old-shop/pots,${base}oak-planter\r\n/old-shop/,https://planters.example.com/\r\n`;
    await file.setInputFiles({ name: "old-shop.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await card.getByText("Imported old-shop.csv: 2 added, 0 changed, 0 already there.").waitFor();
    await card.getByRole("cell", { name: "/old-shop/pots", exact: true }).waitFor();
    expect(await card.getByText("3 redirects", { exact: false }).count()).toBe(1);
    await checkScreen(page, "81-redirects-card");

    // Found by text, then the download holds every rule.
    await card.getByLabel("Find a redirect").fill("planters.example");
    await card.getByRole("cell", { name: "/old-shop/pots", exact: true }).waitFor({ state: "detached" });
    expect(await card.getByRole("row").count()).toBe(2);
    await card.getByRole("cell", { name: "https://planters.example.com/" }).waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("link", { name: "Download as CSV" }).click()]);
    const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(4);

    // Deleted after a question; the old address answers as if there had been no rule.
    await card.getByLabel("Find a redirect").fill("");
    await card.getByRole("button", { name: `Delete the redirect from ${base}oak-tub` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete redirect" }).click();
    await card.getByText(`Deleted the redirect from ${base}oak-tub.`).waitFor();
    expect((await visit(site, `${base}oak-tub`)).status).toBe(404);

    // Reloaded, the list is what the service holds.
    await page.reload();
    await page.locator(".redirects-card").getByRole("cell", { name: "/old-shop/pots", exact: true }).waitFor();
    expect(await page.locator(".redirects-card").getByText("2 redirects", { exact: false }).count()).toBe(1);
    await page.close();
  });
});
