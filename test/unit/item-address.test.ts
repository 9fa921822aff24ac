/** How the embed finds an item page's item, and where item links lead (src/shared/binding/). */
import { describe, expect, it } from "vitest";
import { slugFromAddress } from "../../src/shared/binding/item-address";
import { type BindContext, bindingOps, readBindings } from "../../src/shared/binding/rules";
import { SLUG_PATTERN } from "../../src/contract/slug";

const at = (href: string) => {
  const u = new URL(href, "https://shop.example");
  return slugFromAddress({ pathname: u.pathname, search: u.search, hash: u.hash });
};

describe("an item page's address", () => {
  it("names its item by ?slug=, then #slug, then the last path segment", () => {
    expect(at("/products/item.html?slug=oak-planter")).toBe("oak-planter");
    expect(at("/products/item?utm_source=x&slug=oak-planter#clay-pot")).toBe("oak-planter");
    expect(at("/products/item.html#clay-pot")).toBe("clay-pot");
    expect(at("/products/oak-planter")).toBe("oak-planter");
    expect(at("/products/oak-planter/")).toBe("oak-planter");
    expect(at("/products/item.html#reviews?x")).toBeNull();
  });

  it("names no item where no part is a slug", () => {
    for (const href of [
      "/products/item.html",
      "/products/Item",
      "/",
      "/products/item.html?slug=",
      "/p/item.html?slug=%E0%A4%A",
      "/p/x.html#",
    ])
      expect(at(href), href).toBeNull();
    expect(at(`/p/${"a".repeat(129)}`)).toBeNull();
  });

  it("accepts exactly the slugs the content API writes", () => {
    for (const s of ["a", "oak-planter", "x1-2-3", "-a", "a-", "a--b", "A", "a_b", "é"])
      expect(at(`/p/item.html?slug=${encodeURIComponent(s)}`) === s, s).toBe(SLUG_PATTERN.test(s));
  });
});

describe("item links", () => {
  const bindings = (link: string) => readBindings(["data-oc-link"], (n) => (n === "data-oc-link" ? link : null))!;
  const item = { id: "it_1", slug: "oak-planter", collection: "products", publishedAt: "2026-01-01T00:00:00.000Z", data: {} };
  const ctx: BindContext = { schema: {}, labels: {}, base: "/products/" };
  const href = (link: string, c = ctx) => bindingOps("a", bindings(link), item, c);

  it("go to the base path plus the slug by default, and to a written address with {slug}", () => {
    expect(href("")).toEqual([{ op: "set", name: "href", value: "/products/oak-planter" }]);
    expect(href("/products/item.html?slug={slug}")).toEqual([{ op: "set", name: "href", value: "/products/item.html?slug=oak-planter" }]);
    expect(href("item#{slug}")).toEqual([{ op: "set", name: "href", value: "item#oak-planter" }]);
  });

  it("keep the base path on served pages, and for an address without {slug} or one that could run script", () => {
    expect(href("/products/item.html?slug={slug}", { ...ctx, routed: true })[0]).toMatchObject({ value: "/products/oak-planter" });
    expect(href("/products/item.html")[0]).toMatchObject({ value: "/products/oak-planter" });
    expect(href("javascript:alert('{slug}')")[0]).toMatchObject({ value: "/products/oak-planter" });
  });
});
