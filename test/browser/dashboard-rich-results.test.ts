// A shop owner maps the product collection for Google's product results on the SEO Engine
// screen: the proposed type, a price field the service could not guess chosen by hand, the
// items that lacked it named until then, and the rendered page's JSON-LD that follows.

import { describe, expect, it } from "vitest";
import { api, putPage, putPhoto, renderedByServer, service, type Site } from "./harness";
import { checkScreen, dashboardBrowser, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

const shopPage = (token: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Planters</title>
<link rel="icon" href="data:,"></head><body><div data-oc-list="products"><article><a data-oc-link><h2 data-oc-field="name">Name</h2></a></article></div>
<script src="${service()}/embed.js" data-oc-token="${token}" defer></script></body></html>`;

describe("dashboard: rich results on the SEO Engine screen", () => {
  for (const width of [1280, 390]) {
    it(`proposes Product, takes a hand-picked price field, and the product pages follow (${width} px)`, async () => {
      const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: `Planters ${width}`, plan: "seo_engine" });
      await api("PUT", `/sites/${site.id}/collections/products`, site.adminKey, {
        name: "Products",
        fields: [
          { key: "name", type: "text", required: true },
          // Named in the owner's own words: nothing says "price" to the proposal.
          { key: "retail", name: "Retail (EUR)", type: "decimal", currency: "EUR" },
          { key: "photo", type: "image" },
        ],
      });
      for (const [slug, name, retail] of [
        ["oak-planter", "Oak planter", "34.90"],
        ["clay-pot", "Clay pot", "12.50"],
      ]) {
        const photo = await putPhoto(`/planters-${site.id}/img/${slug}.jpg`);
        await api("POST", `/sites/${site.id}/collections/products/items`, site.adminKey, {
          slug,
          publish: true,
          data: { name, retail, photo: { url: photo, alt: name } },
        });
      }
      const pageUrl = await putPage(`/planters-${site.id}/products/`, shopPage(site.token));
      await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "products" });

      const page = await newPage(width);
      await signIn(page, site.adminKey);
      await page.goto(`${service()}/dashboard/#/${site.id}/seo`);
      const card = page.locator(".card").filter({ has: page.getByRole("heading", { name: "Rich results" }) });
      await card.getByText("0 of 2 published items can show as a product").waitFor();
      expect(await card.getByLabel("Describe each item as").inputValue()).toBe("Product");
      // The items name what they lack and where to fill it.
      const lacking = card.getByRole("listitem").filter({ hasText: "Clay pot" });
      expect(await lacking.innerText()).toContain("Price (choose its field under Rich results)");
      await checkScreen(page, `75-rich-results-proposed-${width}`);

      await card.getByLabel("Field for Price").selectOption({ label: "Retail (EUR)" });
      await card.getByRole("button", { name: "Save rich results" }).click();
      await card.getByText("Saved. Every item page follows at once.").waitFor();
      await card.getByText("2 of 2 published items can show as a product").waitFor();
      expect(await card.getByText("Items that cannot show as a rich result yet").count()).toBe(0);
      await checkScreen(page, `76-rich-results-saved-${width}`);

      // The product page as a crawler gets it: a Product with its Offer in euros.
      const { html } = await renderedByServer(site, `/planters-${site.id}/products/oak-planter`);
      const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
        .map((m) => JSON.parse(m[1]!) as Record<string, unknown>)
        .find((b) => b["@type"] === "Product");
      expect(ld).toMatchObject({ name: "Oak planter", offers: { "@type": "Offer", price: "34.90", priceCurrency: "EUR" } });

      // Reloaded, the choice is the saved one, not a proposal.
      await page.reload();
      await card.getByText("Chosen for this collection.").waitFor();
      expect(await card.getByLabel("Field for Price").inputValue()).toBe("retail");
      await page.close();
    });
  }
});
