import { beforeAll, describe, expect, it } from "vitest";
import { addItem, callJson, newBlog, type TestSite } from "./helpers";

// The documented limit (docs/api.md, List parameters).
const MAX_FILTERS = 40;

interface Page {
  items: { slug: string }[];
  total: number;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

let site: TestSite;
const list = (qs: string) => callJson<Page>("GET", `/v1/${site.token}/collections/posts/items?${qs}`);
const repeat = (n: number, param: (i: number) => string) => Array.from({ length: n }, (_, i) => param(i)).join("&");
const values = (n: number, value: (i: number) => string) => Array.from({ length: n }, (_, i) => value(i)).join(",");

beforeAll(async () => {
  site = await newBlog("pro");
  for (const slug of ["ada", "bob", "cy"]) await addItem(site, "authors", { slug, data: { name: slug.toUpperCase() }, publish: true });
  await addItem(site, "posts", { slug: "one", data: { title: "One", views: 1, author: "ada" }, publish: true });
  await addItem(site, "posts", { slug: "two", data: { title: "Two", views: 2, author: "bob" }, publish: true });
  await addItem(site, "posts", { slug: "three", data: { title: "Three", views: 3, author: "cy" }, publish: true });
  await addItem(site, "posts", { slug: "four", data: { title: "Four", views: 4 }, publish: true });
});

describe("filters at and over their documented limits (Durable Object SQLite binds at most 100 values)", () => {
  it("answers filter[author][in] with 50 values (the maximum) with the matching items", async () => {
    const authors = values(50, (i) => (i === 10 ? "ada" : i === 20 ? "cy" : `nobody-${i}`));
    const r = await list(`filter[author][in]=${authors}&sort=views`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.items.map((i) => i.slug)).toEqual(["one", "three"]);
  });

  it("answers two in filters of 50 values each", async () => {
    const views = values(50, (i) => String(i));
    const titles = values(50, (i) => (i === 0 ? "Two" : i === 1 ? "Four" : `T${i}`));
    const r = await list(`filter[views][in]=${views}&filter[title][in]=${titles}&sort=views`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.items.map((i) => i.slug)).toEqual(["two", "four"]);
  });

  it(`answers ${MAX_FILTERS} filters of the costliest kind (reference in, 50 values each) plus search`, async () => {
    const authors = values(50, (i) => (i === 0 ? "bob" : `x-${i}`));
    const r = await list(`${repeat(MAX_FILTERS, () => `filter[author][in]=${authors}`)}&search=tw&page=1&limit=5`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.items.map((i) => i.slug)).toEqual(["two"]);
  });

  it(`answers ${MAX_FILTERS} repeated ne filters on text and on references`, async () => {
    const ne = await list(repeat(MAX_FILTERS, (i) => `filter[title][ne]=T${i}`));
    expect(ne.status, JSON.stringify(ne.body)).toBe(200);
    expect(ne.body.total).toBe(4);
    const refs = await list(repeat(MAX_FILTERS, (i) => `filter[author][ne]=${i % 2 ? "ada" : "bob"}`));
    expect(refs.status, JSON.stringify(refs.body)).toBe(200);
    expect(refs.body.items.map((i) => i.slug).sort()).toEqual(["four", "three"]);
  });

  it(`refuses ${MAX_FILTERS + 1} filters and 100 filters with 400 naming the limit`, async () => {
    for (const n of [MAX_FILTERS + 1, 100]) {
      const r = await list(repeat(n, (i) => `filter[title][ne]=T${i}`));
      expect(r.status).toBe(400);
      expect(r.body.error?.code).toBe("bad_request");
      expect(r.body.error?.message).toContain(String(MAX_FILTERS));
      expect(r.body.error?.details?.max).toBe(MAX_FILTERS);
    }
  });

  it("refuses 51 in values with 400 naming the limit", async () => {
    const r = await list(`filter[author][in]=${values(51, (i) => `a${i}`)}`);
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toContain("50");
  });
});
