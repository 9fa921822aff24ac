import { describe, expect, it } from "vitest";
import { callJson, expectStatus, newBlog, newSite, type TestSite, within } from "./helpers";

interface Err {
  error: { code: string; message: string; details?: unknown };
}

/** The envelope echoes at most a short prefix of what was sent. */
function expectShortEcho(body: Err, hostile: string): void {
  const text = JSON.stringify(body);
  expect(text.length).toBeLessThan(8000);
  expect(text).not.toContain(hostile.slice(0, 500));
}

async function wideCollection(site: TestSite): Promise<void> {
  const fields = Array.from({ length: 100 }, (_, i) => ({ key: `field_${i}_${"x".repeat(50)}`, type: "text", indexed: i < 60 }));
  await expectStatus(callJson("PUT", `/sites/${site.id}/collections/wide`, { auth: site.adminKey, body: { fields } }), 201);
}

describe("error paths cost bounded work whatever the input", () => {
  it("refuses item data with one unknown 900 KB key at once, echoing only a prefix", async () => {
    const site = await newBlog("pro");
    await wideCollection(site);
    const key = "k".repeat(900 * 1024);
    const r = await within(
      5,
      callJson<Err>("POST", `/sites/${site.id}/collections/wide/items`, { auth: site.adminKey, body: { slug: "a", data: { [key]: 1 } } }),
    );
    expect(r.status).toBe(400);
    expectShortEcho(r.body, key);
  });

  it("refuses a 50 KB filter key on a collection with 100 fields at once, echoing only a prefix", async () => {
    const site = await newBlog("pro");
    await wideCollection(site);
    const key = "f".repeat(50 * 1024);
    const r = await within(5, callJson<Err>("GET", `/v1/${site.token}/collections/wide/items?filter[${key}]=1`));
    expect(r.status).toBe(400);
    expectShortEcho(r.body, key);
    const sort = await within(5, callJson<Err>("GET", `/v1/${site.token}/collections/wide/items?sort=${key}`));
    expect(sort.status).toBe(400);
    expectShortEcho(sort.body, key);
  });

  it("never echoes a long filter value or operator in full", async () => {
    const site = await newBlog("pro");
    const value = "9".repeat(20_000) + "x";
    for (const qs of [
      `filter[views]=${value}`,
      `filter[views][${value}]=1`,
      `filter[date][in]=${value}`,
      `filter[title][contains]=${value}`,
    ]) {
      const r = await within(5, callJson<Err>("GET", `/v1/${site.token}/collections/posts/items?${qs}`));
      expect(r.status, qs.slice(0, 40)).toBe(400);
      expectShortEcho(r.body, value);
    }
  });

  it("refuses a semantic search query far longer than a search box before the model sees it", async () => {
    const site = await newSite("pro");
    const q = "word ".repeat(10_000);
    const r = await within(5, callJson<Err>("GET", `/v1/${site.token}/search?q=${encodeURIComponent(q)}`));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("bad_request");
    expectShortEcho(r.body, q);
  });
});
