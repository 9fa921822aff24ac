/**
 * Decimal fields (prices, salaries) through the real API: exact digits in and out, filters and
 * sorts by value, the dashboard's sort, and a CSV export → import round trip.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { addItem, callJson, newSite, putCollection, type TestSite } from "./helpers";
import { csvOf, importFile } from "./import/helpers";

interface Err {
  error: { code: string; details?: { issues?: { path: string; message: string }[] } };
}
interface Listed {
  items: { slug: string; data: Record<string, unknown> }[];
}

const PRODUCTS = {
  name: "Products",
  fields: [
    { key: "name", type: "text", required: true },
    { key: "price", type: "decimal", indexed: true, currency: "EUR" },
  ],
};
const PRICES: [string, string | number][] = [
  ["planter", "34.90"],
  ["pot", 24],
  ["trough", "1234.50"],
  ["sample", "0.05"],
  ["credit", "-3.5"],
];

let site: TestSite;
beforeAll(async () => {
  site = await newSite("pro");
  await putCollection(site, "products", PRODUCTS);
  for (const [slug, price] of PRICES) await addItem(site, "products", { slug, publish: true, data: { name: slug, price } });
});

const list = (query: string) => callJson<Listed & Err>("GET", `/v1/${site.token}/collections/products/items?${query}`);

describe("fields: decimal", () => {
  it("keeps every digit as given, and the field's currency", async () => {
    const one = await callJson<{ item: { data: Record<string, unknown> } }>("GET", `/v1/${site.token}/collections/products/items/planter`);
    expect(one.body.item.data["price"]).toBe("34.90");
    const pot = await callJson<{ item: { data: Record<string, unknown> } }>("GET", `/v1/${site.token}/collections/products/items/pot`);
    expect(pot.body.item.data["price"]).toBe("24");
    const c = await callJson<{ collection: { fields: Record<string, unknown>[] } }>("GET", `/sites/${site.id}/collections/products`, {
      auth: site.adminKey,
    });
    expect(c.body.collection.fields[1]).toEqual({ key: "price", type: "decimal", indexed: true, currency: "EUR" });
  });

  it("refuses a comma, an exponent, too many digits and a currency that is no ISO code, saying why", async () => {
    for (const price of ["34,90", "1e3", "1234567890123456", "1.123456789", true]) {
      const bad = await callJson<Err>("POST", `/sites/${site.id}/collections/products/items`, {
        auth: site.adminKey,
        body: { slug: "bad", data: { name: "Bad", price } },
      });
      expect(bad.status, String(price)).toBe(400);
      expect(bad.body.error.details?.issues?.[0]?.path).toBe("data.price");
      expect(bad.body.error.details?.issues?.[0]?.message).toMatch(/decimal number/);
    }
    for (const field of [
      { key: "price", type: "decimal", currency: "euro" },
      { key: "price", type: "number", currency: "EUR" },
    ]) {
      const refused = await callJson<Err>("PUT", `/sites/${site.id}/collections/wrong`, {
        auth: site.adminKey,
        body: { name: "Wrong", fields: [field] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details?.issues?.[0]?.path).toBe("fields.0.currency");
    }
  });

  it("filters and sorts by the value as a number, not as text", async () => {
    const sorted = await list("sort=price");
    expect(sorted.body.items.map((i) => i.slug)).toEqual(["credit", "sample", "pot", "planter", "trough"]);
    const cheap = await list("filter[price][lt]=30&sort=-price");
    expect(cheap.body.items.map((i) => i.slug)).toEqual(["pot", "sample", "credit"]);
    const exact = await list("filter[price]=34.9");
    expect(exact.body.items.map((i) => i.slug)).toEqual(["planter"]);
    const between = await list("filter[price][gte]=24&filter[price][lte]=34.90&sort=price");
    expect(between.body.items.map((i) => i.slug)).toEqual(["pot", "planter"]);
    const text = await list("filter[price][contains]=34");
    expect(text.status).toBe(400);
  });

  it("sorts the dashboard's list by value too", async () => {
    const r = await callJson<Listed>("GET", `/sites/${site.id}/collections/products/items?sort=-price`, { auth: site.adminKey });
    expect(r.body.items.map((i) => i.slug)).toEqual(["trough", "planter", "pot", "sample", "credit"]);
  });

  it("gives back every digit through a CSV export and import", async () => {
    const csv = await csvOf(site, "products");
    expect(csv).toContain("34.90");
    const to = await newSite("pro");
    await putCollection(to, "products", PRODUCTS);
    expect((await importFile(to, "products", csv)).done).toEqual({ created: PRICES.length, updated: 0, skipped: 0, failed: 0 });
    const back = await callJson<Listed>("GET", `/sites/${to.id}/collections/products/items?sort=slug`, { auth: to.adminKey });
    expect(Object.fromEntries(back.body.items.map((i) => [i.slug, i.data["price"]]))).toEqual(
      Object.fromEntries(PRICES.map(([slug, price]) => [slug, String(price)])),
    );
  });
});
