/** The dashboard's items list filters as the content API does, drafts included; the media list by ids. */
import { describe, expect, it } from "vitest";
import { callJson, expectStatus, newSite } from "./helpers";

interface Listed {
  items: { slug: string; status: string }[];
  total: number;
}

describe("the dashboard's items list", () => {
  it("filters by option and price range over drafts and published items, with exact totals", async () => {
    const site = await newSite("starter");
    const auth = site.adminKey;
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/products`, {
        auth,
        body: {
          name: "Products",
          fields: [
            { key: "name", type: "text", required: true },
            { key: "price", type: "decimal", indexed: true },
            { key: "stock", type: "option", indexed: true, options: [{ value: "in-stock" }, { value: "sold-out" }] },
            { key: "note", type: "text" },
          ],
        },
      }),
      201,
    );
    for (const [slug, price, stock, publish] of [
      ["a", "9.50", "in-stock", true],
      ["b", "34.90", "in-stock", false],
      ["c", "149.00", "sold-out", true],
      ["d", "100", "in-stock", false],
    ] as const)
      await expectStatus(
        callJson("POST", `/sites/${site.id}/collections/products/items`, {
          auth,
          body: { slug, publish, data: { name: slug, price, stock } },
        }),
        201,
      );
    const list = (q: string) => callJson<Listed>("GET", `/sites/${site.id}/collections/products/items?${q}`, { auth });

    const inStock = await list("filter[stock]=in-stock&sort=slug");
    expect(inStock.body.items.map((i) => i.slug)).toEqual(["a", "b", "d"]);
    expect(inStock.body.total).toBe(3);
    // Numeric order, not text: "100" sits between 34.90 and 149.00.
    const range = await list("filter[price][gte]=20&filter[price][lte]=120&sort=-price");
    expect(range.body.items.map((i) => i.slug)).toEqual(["d", "b"]);
    const drafts = await list("filter[stock]=in-stock&status=draft&search=b");
    expect(drafts.body.items.map((i) => i.slug)).toEqual(["b"]);

    const notIndexed = await callJson<{ error: { code: string; details: { allowed: string[] } } }>(
      "GET",
      `/sites/${site.id}/collections/products/items?filter[note]=x`,
      { auth },
    );
    expect(notIndexed.status).toBe(400);
    expect(notIndexed.body.error.details.allowed).toContain("price");
    const badNumber = await list("filter[price][gte]=cheap");
    expect(badNumber.status).toBe(400);
  });

  it("gives the media entries a page of the table names, and refuses too many ids", async () => {
    const site = await newSite("starter");
    const auth = site.adminKey;
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const { body } = await callJson<{ media: { mediaId: string } }>("POST", `/sites/${site.id}/media`, {
        auth,
        body: { url: `https://images.example/${n}.png`, alt: `Picture ${n}` },
      });
      ids.push(body.media.mediaId);
    }
    const { body } = await callJson<{ media: { mediaId: string; alt: string }[]; total: number }>(
      "GET",
      `/sites/${site.id}/media?ids=${ids[0]},${ids[2]},md_unknown`,
      { auth },
    );
    expect(body.media.map((m) => m.mediaId).sort()).toEqual([ids[0], ids[2]].sort());
    expect(body.total).toBe(2);
    const many = Array.from({ length: 101 }, (_, i) => `md_${i}`).join(",");
    const refused = await callJson<{ error: { code: string } }>("GET", `/sites/${site.id}/media?ids=${many}`, { auth });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("bad_request");
  });
});
