/**
 * Gallery fields (a shop's product photos) through the real API: media ids in order on write,
 * MediaRefs in the content API, media usage and delete, and a CSV export → import round trip.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, callJson, newSite, putCollection, type TestSite } from "./helpers";
import { csvOf, importFile } from "./import/helpers";

interface Err {
  error: { code: string; details?: { issues?: { path: string; message: string }[]; usedBy?: { slug: string; field: string }[] } };
}
interface MediaRef {
  mediaId: string;
  url: string;
  alt: string;
}

const PRODUCTS = {
  name: "Products",
  fields: [
    { key: "name", type: "text", required: true },
    { key: "photos", type: "gallery" },
  ],
};
const URLS = ["https://img.test/front.jpg", "https://img.test/back.jpg", "https://img.test/side.jpg"];

let site: TestSite;
let ids: string[];
let planterId: string;

/** Creates an item and answers its stored data (a gallery: its media ids). */
async function create(s: TestSite, item: Record<string, unknown>): Promise<{ id: string; data: { photos: string[] } }> {
  const r = await callJson<{ item: { id: string; data: { photos: string[] } } }>("POST", `/sites/${s.id}/collections/products/items`, {
    auth: s.adminKey,
    body: item,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.item;
}

beforeAll(async () => {
  site = await newSite("pro");
  await putCollection(site, "products", PRODUCTS);
  const made = await create(site, {
    slug: "planter",
    publish: true,
    data: { name: "Planter", photos: URLS.map((url, i) => ({ url, alt: `Planter ${i + 1}` })) },
  });
  ids = made.data.photos;
  planterId = made.id;
});

const publicItem = async (slug: string) =>
  (await callJson<{ item: { data: { photos?: MediaRef[] } } }>("GET", `/v1/${site.token}/collections/products/items/${slug}`)).body.item;

describe("fields: gallery", () => {
  it("stores media ids in the order given, each new URL registered with its alt text", async () => {
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^md_/);
    const mixed = await create(site, {
      slug: "pot",
      data: { name: "Pot", photos: [ids[2], { url: "https://img.test/pot.jpg" }, ids[0], ids[2]] },
    });
    const photos = mixed.data.photos;
    // The same image twice is kept once, at its first place.
    expect(photos).toHaveLength(3);
    expect([photos[0], photos[2]]).toEqual([ids[2], ids[0]]);
  });

  it("answers the content API with MediaRefs in order, each with its own alt text", async () => {
    const item = await publicItem("planter");
    expect(item.data.photos?.map((m) => [m.mediaId, m.url, m.alt])).toEqual(URLS.map((url, i) => [ids[i], url, `Planter ${i + 1}`]));
  });

  it("refuses what is no gallery, an unknown id and more than the maximum, naming the entry", async () => {
    for (const [photos, message] of [
      ["https://img.test/a.jpg", /array/],
      [["md_nope"], /\[0\] no media "md_nope"/],
      [[ids[0], { url: "javascript:alert(1)" }], /\[1\] url must be an absolute http/],
      [Array.from({ length: 51 }, (_, i) => ({ url: `https://img.test/${i}.jpg` })), /more than 50/],
    ] as const) {
      const bad = await callJson<Err>("POST", `/sites/${site.id}/collections/products/items`, {
        auth: site.adminKey,
        body: { slug: "bad", data: { name: "Bad", photos } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details?.issues?.[0]?.path).toBe("data.photos");
      expect(bad.body.error.details?.issues?.[0]?.message).toMatch(message);
    }
  });

  it("a required gallery needs at least one image", async () => {
    await putCollection(site, "looks", { name: "Looks", fields: [{ key: "photos", type: "gallery", required: true }] });
    const empty = await callJson<Err>("POST", `/sites/${site.id}/collections/looks/items`, {
      auth: site.adminKey,
      body: { slug: "a", data: { photos: [] } },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details?.issues?.[0]).toEqual({ path: "data.photos", message: "is required" });
  });

  it("names the items a gallery shows a media entry in, and shows its new alt text", async () => {
    const entry = await callJson<{ media: { usedBy: { slug: string; field: string }[] }[] }>(
      "GET",
      `/sites/${site.id}/media?ids=${ids[1]}`,
      { auth: site.adminKey },
    );
    expect(entry.body.media[0]?.usedBy).toEqual([expect.objectContaining({ slug: "planter", field: "photos" })]);
    const patched = await call("PATCH", `/sites/${site.id}/media/${ids[1]}`, { auth: site.adminKey, body: { alt: "Planter, back" } });
    expect(patched.status).toBe(200);
    expect((await publicItem("planter")).data.photos?.[1]?.alt).toBe("Planter, back");
  });

  it("gives back every image, in order, through a CSV export and import", async () => {
    const csv = await csvOf(site, "products");
    expect(csv).toContain(URLS.join(" | "));
    const to = await newSite("pro");
    await putCollection(to, "products", PRODUCTS);
    const done = await importFile(to, "products", csv);
    expect(done.done).toMatchObject({ created: 2, failed: 0 });
    const back = await callJson<{ items: { slug: string; data: { photos: string[] } }[] }>(
      "GET",
      `/sites/${to.id}/collections/products/items?sort=slug`,
      { auth: to.adminKey },
    );
    expect(back.status).toBe(200);
    const listed = await callJson<{ media: { mediaId: string; url: string }[] }>("GET", `/sites/${to.id}/media?limit=100`, {
      auth: to.adminKey,
    });
    const urlOf = new Map(listed.body.media.map((m) => [m.mediaId, m.url]));
    const planter = back.body.items.find((i) => i.slug === "planter");
    expect(planter?.data.photos.map((id) => urlOf.get(id))).toEqual(URLS);
  });

  it("a media entry a gallery uses: delete refused, then detached from the array alone", async () => {
    const refused = await callJson<Err>("DELETE", `/sites/${site.id}/media/${ids[1]}`, { auth: site.adminKey });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details?.usedBy).toEqual([expect.objectContaining({ slug: "planter", field: "photos" })]);
    const done = await callJson<{ detached: number }>("DELETE", `/sites/${site.id}/media/${ids[1]}?detach=true`, { auth: site.adminKey });
    expect(done.status).toBe(200);
    expect(done.body.detached).toBe(1);
    const stored = await callJson<{ item: { data: { photos: string[]; name: string } } }>(
      "GET",
      `/sites/${site.id}/collections/products/items/${planterId}`,
      { auth: site.adminKey },
    );
    expect(stored.body.item.data).toEqual({ name: "Planter", photos: [ids[0], ids[2]] });
    expect((await publicItem("planter")).data.photos?.map((m) => m.mediaId)).toEqual([ids[0], ids[2]]);
  });
});
