import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addItem, call, newBlog } from "./helpers";

const keys = [
  "page",
  "limit",
  "sort",
  "search",
  "filter",
  "filter[views]",
  "filter[views][gt]",
  "filter[title][contains]",
  "filter[date][in]",
  "filter[author]",
  "filter[featured]",
  "filter[nope][eq]",
  "filter[",
  "x",
];

describe("list endpoint under random query strings", () => {
  it("never answers 5xx and always answers valid JSON", async () => {
    const site = await newBlog("pro");
    await addItem(site, "posts", { slug: "a", data: { title: "A", views: 3, date: "2024-01-01" }, publish: true });
    const param = fc.tuple(
      fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 12 })),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.integer().map(String),
        fc.constantFrom("-views", "title,-date", "1e309", "NaN", "-", ",", "%", "'", "\u0000"),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(param, { maxLength: 6 }), async (pairs) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
        const r = await call("GET", `/v1/${site.token}/collections/posts/items?${qs}`);
        expect(r.status, qs).toBeLessThan(500);
        const body = (await r.json()) as Record<string, unknown>;
        expect(body.items !== undefined || body.error !== undefined, qs).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("never answers 5xx to raw, unencoded query strings", async () => {
    const site = await newBlog("pro");
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (raw) => {
        const r = await call("GET", `/v1/${site.token}/collections/posts/items?${raw.replace(/[#\s]/g, "")}`);
        expect(r.status).toBeLessThan(500);
        await r.json();
      }),
      { numRuns: 1000 },
    );
  });
});
