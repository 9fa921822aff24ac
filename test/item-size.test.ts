/**
 * An item's stored size (MAX_ITEM_BYTES): a body is at most 1 MB, but merges grow an item. A write
 * that would make it larger is refused with 413 before anything is written, whatever the path.
 */
import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, putCollection, type TestSite, newSite } from "./helpers";
import { MAX_ITEM_BYTES } from "../src/contract/limits";

const FIELDS = 10;
const itemsPath = (site: TestSite) => `/sites/${site.id}/collections/notes/items`;
const itemPath = (site: TestSite, id: string) => `${itemsPath(site)}/${id}`;
// 200,000 characters (a text field's most), 300,000 bytes of UTF-8 (folded for search as they are): the bytes are what count.
const chunk = (n: number) => "中".repeat(50_000) + String(n).padStart(150_000, "a");
const CHUNK_BYTES = 300_000;
// 200,000 characters of ASCII: eight of them fit.
const ascii = (n: number) => String(n).padStart(200_000, "a");

type TooLarge = { error: { code: string; details: { limit: string; max: number; bytes: number; slug: string } } };
type Item = { id: string; revision: number; data: Record<string, string>; pendingChanges: { data: Record<string, string> } | null };

async function notesSite(indexed = false): Promise<TestSite> {
  const site = await newSite("pro");
  const fields = Array.from({ length: FIELDS }, (_, i) => ({ key: `f${i}`, type: "text", indexed }));
  await putCollection(site, "notes", { name: "Notes", fields: [{ key: "title", type: "text", required: true }, ...fields] });
  return site;
}

const read = (site: TestSite, id: string) =>
  expectStatus(callJson<{ item: Item }>("GET", itemPath(site, id), { auth: site.adminKey }), 200).then((b) => b.item);
const revisions = (site: TestSite, id: string) =>
  expectStatus(callJson<{ total: number }>("GET", `${itemPath(site, id)}/revisions`, { auth: site.adminKey }), 200).then((b) => b.total);

function expectItemLimit(r: { status: number; body: TooLarge }, slug: string): void {
  expect(r.status).toBe(413);
  expect(r.body.error.code).toBe("payload_too_large");
  expect(r.body.error.details).toMatchObject({ limit: "item", max: MAX_ITEM_BYTES, slug });
  expect(r.body.error.details.bytes).toBeGreaterThan(MAX_ITEM_BYTES);
}

describe("item size", () => {
  it.each([
    ["300 KB of mixed text", chunk, CHUNK_BYTES],
    ["200 KB of ASCII", ascii, 200_000],
  ])("refuses the PATCH merge of %s that would pass the limit with 413, and keeps the item as it was", async (_, value, bytes) => {
    const site = await notesSite();
    const a = await addItem(site, "notes", { slug: "a", data: { title: "A" } });
    const fit = Math.floor(MAX_ITEM_BYTES / bytes);
    for (let i = 0; i < fit; i++) {
      const r = await callJson("PATCH", itemPath(site, a.id), { auth: site.adminKey, body: { data: { [`f${i}`]: value(i) } } });
      expect(r.status, `merge ${i}`).toBe(200);
    }
    const before = await read(site, a.id);
    const history = await revisions(site, a.id);
    // Every further merge is refused, each with the limit and the size it would have made.
    for (let i = fit; i < FIELDS; i++) {
      const r = await callJson<TooLarge>("PATCH", itemPath(site, a.id), { auth: site.adminKey, body: { data: { [`f${i}`]: value(i) } } });
      expectItemLimit(r, "a");
    }
    const after = await read(site, a.id);
    expect(after.revision).toBe(before.revision);
    expect(after.data).toEqual(before.data);
    expect(Object.keys(after.data).sort()).toEqual(["title", ...Array.from({ length: fit }, (_, i) => `f${i}`)].sort());
    expect(await revisions(site, a.id)).toBe(history);
    // A change that keeps it within the limit still goes through.
    const last = `f${FIELDS - 1}`;
    const smaller = await callJson<{ item: Item }>("PATCH", itemPath(site, a.id), {
      auth: site.adminKey,
      body: { data: { f0: null, [last]: value(FIELDS - 1) } },
    });
    expect(smaller.status).toBe(200);
    expect(smaller.body.item.data[last]).toBe(value(FIELDS - 1));
  });

  it("counts the search text of indexed fields, which shares the item's row", async () => {
    const site = await notesSite(true);
    const a = await addItem(site, "notes", { slug: "a", data: { title: "A" } });
    // Indexed, each value is stored twice (its data and its search text): half as many fit.
    const fit = Math.floor(MAX_ITEM_BYTES / (2 * CHUNK_BYTES));
    for (let i = 0; i < fit; i++) {
      await expectStatus(callJson("PATCH", itemPath(site, a.id), { auth: site.adminKey, body: { data: { [`f${i}`]: chunk(i) } } }), 200);
    }
    const r = await callJson<TooLarge>("PATCH", itemPath(site, a.id), { auth: site.adminKey, body: { data: { [`f${fit}`]: chunk(fit) } } });
    expectItemLimit(r, "a");
    expect(Object.keys((await read(site, a.id)).data)).toHaveLength(1 + fit);
  });

  it("refuses pending changes that would pass the limit, and keeps the pending version as it was", async () => {
    const site = await notesSite();
    const a = await addItem(site, "notes", { slug: "a", data: { title: "A" }, publish: true });
    const fit = Math.floor(MAX_ITEM_BYTES / CHUNK_BYTES);
    for (let i = 0; i < fit; i++) {
      const r = await callJson("PUT", `${itemPath(site, a.id)}/pending`, { auth: site.adminKey, body: { data: { [`f${i}`]: chunk(i) } } });
      expect(r.status, `pending merge ${i}`).toBe(200);
    }
    const before = await read(site, a.id);
    const history = await revisions(site, a.id);
    const r = await callJson<TooLarge>("PUT", `${itemPath(site, a.id)}/pending`, {
      auth: site.adminKey,
      body: { data: { [`f${fit}`]: chunk(fit) } },
    });
    expectItemLimit(r, "a");
    const after = await read(site, a.id);
    expect(after.pendingChanges?.data).toEqual(before.pendingChanges?.data);
    expect(after.data).toEqual({ title: "A" });
    expect(await revisions(site, a.id)).toBe(history);
    // What was saved as pending fits, so it can be published.
    await expectStatus(callJson("POST", `${itemPath(site, a.id)}/publish`, { auth: site.adminKey }), 200);
    expect(Object.keys((await read(site, a.id)).data)).toHaveLength(1 + fit);
  });

  it("refuses a create over the limit and writes none of a batch that holds one", async () => {
    const site = await notesSite(true);
    // Three indexed values in one body under 1 MB: 900 KB of data and 900 KB of search text.
    const data = { title: "Big", f0: chunk(0), f1: chunk(1), f2: chunk(2) };
    const one = await callJson<TooLarge>("POST", itemsPath(site), { auth: site.adminKey, body: { slug: "big", data } });
    expectItemLimit(one, "big");
    const batch = await callJson<TooLarge>("POST", `${itemsPath(site)}:batch`, {
      auth: site.adminKey,
      body: {
        items: [
          { slug: "small", data: { title: "Small" } },
          { slug: "big", data },
        ],
      },
    });
    expectItemLimit(batch, "big");
    const list = await expectStatus(callJson<{ total: number }>("GET", itemsPath(site), { auth: site.adminKey }), 200);
    expect(list.total).toBe(0);
  });
});
