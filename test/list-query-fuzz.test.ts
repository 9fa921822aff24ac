import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addItem, call, newBlog, within } from "./helpers";

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
    // 2,000 requests, most of them cache misses: seconds on a quiet machine, but CI
    // machines are shared, so the limit is the property's, not a speed goal.
  }, 120_000);

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
  }, 120_000);

  it("answers hostile shapes (many repeated parameters, long keys and values, every operator at and over its limit) with the envelope or a success, in bounded time", async () => {
    const site = await newBlog("pro");
    await addItem(site, "authors", { slug: "ada", data: { name: "Ada" }, publish: true });
    await addItem(site, "posts", { slug: "a", data: { title: "A", views: 3, date: "2024-01-01", author: "ada" }, publish: true });
    const fieldKeys = ["title", "summary", "views", "featured", "date", "author", "publishedAt", "slug", "notes", "Title"];
    const ops = ["eq", "ne", "gt", "gte", "lt", "lte", "contains", "in", "nope", ""];
    const scalar = fc.oneof(
      fc.constantFrom("A", "ada", "3", "true", "2024-01-01", "", ",", "\u0000", "1e309"),
      fc.string({ maxLength: 30 }),
    );
    const long = fc.nat({ max: 70_000 }).map((n) => "x".repeat(n));
    // `in` lists around the 50-value limit, of values that do and do not match.
    const inList = fc.integer({ min: 0, max: 55 }).chain((n) => fc.array(scalar, { minLength: n, maxLength: n }).map((v) => v.join(",")));
    const named = (key: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
      fc
        .tuple(key, fc.option(fc.constantFrom(...ops)), value)
        .map(([k, op, v]): [string, string] => [op === null ? `filter[${k}]` : `filter[${k}][${op}]`, v]);
    const known = fc.constantFrom(...fieldKeys);
    const filter = named(
      fc.oneof(
        known,
        long.map((x) => x.replaceAll("x", "k")),
        fc.string({ maxLength: 10 }),
      ),
      fc.oneof(scalar, inList, long),
    );
    const other = fc.oneof(
      fc.tuple(fc.constantFrom("sort", "search", "page", "limit"), fc.oneof(scalar, long)),
      fc.tuple(
        fc.constant("sort"),
        fc.array(fc.constantFrom(...fieldKeys, "-views", "nope"), { maxLength: 200 }).map((a) => a.join(",")),
      ),
    );
    // One parameter repeated up to 120 times (the limit is 40 filters), mixed with others.
    const repeated = fc
      .tuple(named(known, fc.oneof(scalar, inList)), fc.integer({ min: 1, max: 120 }))
      .map(([p, n]) => Array.from({ length: n }, () => p));
    const query = fc.tuple(fc.array(fc.oneof(filter, other), { maxLength: 8 }), fc.option(repeated)).map(([a, r]) => [...a, ...(r ?? [])]);
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
        const r = await within(10, call("GET", `/v1/${site.token}/collections/posts/items?${qs}`));
        const text = await r.text();
        expect(r.status, qs.slice(0, 200)).toBeLessThan(500);
        const body = JSON.parse(text) as { items?: unknown; error?: { code: string; message: string } };
        if (r.status === 200) expect(body.items).toBeDefined();
        else {
          expect(body.error?.code).toBeDefined();
          // Never more than a short prefix of what was sent.
          expect(text.length, qs.slice(0, 200)).toBeLessThan(16_000);
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
