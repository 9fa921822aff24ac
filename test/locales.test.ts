// Locales through the real front Worker and site object: the site's set and its plan count,
// translations with slugs unique per locale, and reads in a locale (fallback per field along
// the chain, in filters, sort and search too; alternates; the cache key; unknown locales).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addItem, call, callJson, expectStatus, newSite, putCollection, type TestSite } from "./helpers";
import { settleIndex } from "./search-helpers";

type Item = {
  slug: string;
  data: Record<string, unknown>;
  locale?: string;
  alternates?: { locale: string; slug: string }[];
  fallbacks?: Record<string, string>;
};
type List = { items: Item[]; total: number };

const setLocales = (site: TestSite, body: unknown) =>
  callJson<{ locales: { code: string; chain: string[]; translations: number }[] }>("PUT", `/sites/${site.id}/locales`, {
    auth: site.adminKey,
    body,
  });
const translate = (site: TestSite, id: string, locale: string, body: unknown) =>
  callJson<{ translation: { slug: string; data: Record<string, unknown> } }>(
    "PUT",
    `/sites/${site.id}/collections/products/items/${id}/locales/${locale}`,
    { auth: site.adminKey, body },
  );
const list = (site: TestSite, query: string) => callJson<List>("GET", `/v1/${site.token}/collections/products/items?${query}`);
const slugsOf = async (site: TestSite, query: string) => (await expectStatus(list(site, query), 200)).items.map((i) => i.slug);

/** A shop with a primary (en), French and Canadian French (falling back to French), and three products. */
async function shop(): Promise<{ site: TestSite; ids: Record<string, string> }> {
  const site = await newSite("pro");
  await putCollection(site, "products", {
    name: "Products",
    fields: [
      { key: "name", type: "text", indexed: true, required: true, localized: true },
      { key: "blurb", type: "text", indexed: true, localized: true },
      { key: "price", type: "number", indexed: true },
    ],
  });
  await expectStatus(setLocales(site, { primary: "en", secondary: [{ code: "fr" }, { code: "fr-ca", fallback: "fr" }] }), 200);
  const ids: Record<string, string> = {};
  for (const [slug, name, blurb, price] of [
    ["apple", "Apple", "Crisp and red", 3],
    ["bread", "Bread", "Baked this morning", 5],
    ["cheese", "Cheese", "Aged twelve months", 9],
  ] as const) {
    ids[slug] = (await addItem(site, "products", { slug, data: { name, blurb, price }, publish: true })).id;
  }
  return { site, ids };
}

describe("site locales", () => {
  it("stores codes in canonical form with their chains, and counts them against the plan", async () => {
    const site = await newSite("starter");
    const set = await expectStatus(setLocales(site, { primary: "EN", secondary: [{ code: "es-mx" }] }), 200);
    expect(set.locales.map((l) => [l.code, l.chain])).toEqual([
      ["en", ["en"]],
      ["es-MX", ["es-MX", "en"]],
    ]);
    // Starter allows two locales, the primary included.
    const over = await setLocales(site, { primary: "en", secondary: [{ code: "es-MX" }, { code: "fr" }] });
    expect(over.status).toBe(403);
    expect(JSON.stringify(over.body)).toContain("plan_required");
    const bad = await setLocales(site, { primary: "en", secondary: [{ code: "not a tag" }] });
    expect(bad.status).toBe(400);
    const circle = await setLocales(site, { primary: "en", secondary: [{ code: "fr", fallback: "fr" }] });
    expect(circle.status).toBe(400);
  });

  it("refuses a fallback circle between secondaries and a secondary made the primary", async () => {
    const { site } = await shop();
    const circle = await setLocales(site, {
      primary: "en",
      secondary: [
        { code: "fr", fallback: "fr-CA" },
        { code: "fr-CA", fallback: "fr" },
      ],
    });
    expect(circle.status).toBe(400);
    expect(JSON.stringify(circle.body)).toContain("every chain must end at the primary");
    const swap = await setLocales(site, { primary: "fr", secondary: [{ code: "en" }] });
    expect(swap.status).toBe(409);
  });

  it("says what removing a locale takes away, removes it only when confirmed, and a code added again starts empty", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme" } }), 200);
    const asked = await setLocales(site, { primary: "en", secondary: [{ code: "fr-CA" }] });
    expect(asked.status).toBe(409);
    expect((asked.body as unknown as { error: { details: unknown } }).error.details).toEqual({
      removes: [{ locale: "fr", translations: 1 }],
    });
    expect(await slugsOf(site, "locale=fr")).toEqual(["pomme"]);
    await expectStatus(setLocales(site, { primary: "en", secondary: [{ code: "fr-CA" }], remove: ["fr"] }), 200);
    expect((await list(site, "locale=fr")).status).toBe(400);
    const again = await expectStatus(setLocales(site, { primary: "en", secondary: [{ code: "fr-CA" }, { code: "fr" }] }), 200);
    expect(again.locales.find((l) => l.code === "fr")?.translations).toBe(0);
    expect(await slugsOf(site, "locale=fr")).toEqual([]);
  });
});

describe("translations", () => {
  it("keeps slugs unique per locale and takes only localized fields", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme" } }), 200);
    // Another locale may use the same slug, and so may the primary's own slugs.
    await expectStatus(translate(site, ids.apple!, "fr-CA", { slug: "pomme", data: {} }), 200);
    await expectStatus(translate(site, ids.bread!, "fr", { slug: "apple", data: { name: "Pain" } }), 200);
    const taken = await translate(site, ids.cheese!, "fr", { slug: "pomme", data: { name: "Fromage" } });
    expect(taken.status).toBe(409);
    const shared = await translate(site, ids.cheese!, "fr", { slug: "fromage", data: { price: 1 } });
    expect(shared.status).toBe(400);
    expect(JSON.stringify(shared.body)).toContain("price");
    const primary = await translate(site, ids.cheese!, "en", { slug: "cheese", data: {} });
    expect(primary.status).toBe(400);
    const unknown = await translate(site, ids.cheese!, "de", { slug: "kaese", data: {} });
    expect(unknown.status).toBe(404);
  });
});

describe("reads in a locale", () => {
  it("answers without locale exactly as before, and names the site's locales for an unknown one", async () => {
    const { site, ids } = await shop();
    const before = await expectStatus(list(site, "sort=slug"), 200);
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme" } }), 200);
    const after = await expectStatus(list(site, "sort=slug"), 200);
    expect(after).toEqual(before);
    expect(Object.keys(after.items[0]!)).toEqual(["id", "slug", "collection", "publishedAt", "updatedAt", "data"]);
    const unknown = await list(site, "locale=de");
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain("en, fr, fr-CA");
    expect((await list(site, "locale=fr&fallback=maybe")).status).toBe(400);
  });

  it("lists only translated items, each field falling back along the chain, with alternates", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme", blurb: "Croquante" } }), 200);
    await expectStatus(translate(site, ids.bread!, "fr", { slug: "pain", data: { name: "Pain" } }), 200);
    await expectStatus(translate(site, ids.apple!, "fr-CA", { slug: "pomme-qc", data: { blurb: "Croquante en tabarnak" } }), 200);

    const fr = await expectStatus(list(site, "locale=fr&sort=slug"), 200);
    expect(fr.total).toBe(2);
    expect(fr.items.map((i) => [i.slug, i.data.name, i.data.blurb, i.fallbacks])).toEqual([
      ["pain", "Pain", "Baked this morning", { blurb: "en" }],
      ["pomme", "Pomme", "Croquante", {}],
    ]);
    const qc = await expectStatus(list(site, "locale=FR-ca"), 200);
    expect(qc.items).toHaveLength(1);
    expect(qc.items[0]).toMatchObject({
      slug: "pomme-qc",
      locale: "fr-CA",
      data: { name: "Pomme", blurb: "Croquante en tabarnak", price: 3 },
      fallbacks: { name: "fr" },
      alternates: [
        { locale: "en", slug: "apple" },
        { locale: "fr", slug: "pomme" },
        { locale: "fr-CA", slug: "pomme-qc" },
      ],
    });
    // Without fallback, only the locale's own values.
    const own = await expectStatus(list(site, "locale=fr-CA&fallback=false"), 200);
    expect(own.items[0]!.data).toEqual({ blurb: "Croquante en tabarnak", price: 3 });
    // The primary named: every item, its own values, with alternates.
    const en = await expectStatus(list(site, "locale=en&sort=slug"), 200);
    expect(en.items.map((i) => i.slug)).toEqual(["apple", "bread", "cheese"]);
    expect(en.items[0]!.alternates?.map((a) => a.locale)).toEqual(["en", "fr", "fr-CA"]);
  });

  it("reads an item by its slug in the locale; its own slug there leads to it, another locale's is no item", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme" } }), 200);
    const item = (slug: string, q: string) => callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/products/items/${slug}?${q}`);
    const got = await expectStatus(item("pomme", "locale=fr"), 200);
    expect(got.item).toMatchObject({ slug: "pomme", locale: "fr", data: { name: "Pomme", blurb: "Crisp and red" } });
    const own = await call("GET", `/v1/${site.token}/collections/products/items/apple?locale=fr`);
    expect(own.status).toBe(301);
    expect(own.headers.get("location")).toBe(`/v1/${site.token}/collections/products/items/pomme?locale=fr`);
    expect((await item("pomme", "")).status).toBe(404);
    expect((await item("pomme", "locale=fr-ca")).status).toBe(404);
    // An untranslated item has no page in the locale.
    expect((await item("bread", "locale=fr")).status).toBe(404);
  });

  it("filters, sorts and searches the values a reader of the locale sees", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme" } }), 200);
    await expectStatus(translate(site, ids.bread!, "fr", { slug: "pain", data: { name: "Pain" } }), 200);
    await expectStatus(translate(site, ids.cheese!, "fr", { slug: "fromage", data: { name: "Fromage" } }), 200);
    // Sorted by the French names, not the English ones.
    expect(await slugsOf(site, "locale=fr&sort=name")).toEqual(["fromage", "pain", "pomme"]);
    expect(await slugsOf(site, "locale=fr&sort=slug")).toEqual(["fromage", "pain", "pomme"]);
    expect(await slugsOf(site, "locale=fr&filter[name]=Pain")).toEqual(["pain"]);
    expect(await slugsOf(site, "locale=fr&filter[name]=Bread")).toEqual([]);
    // A field the locale has not translated is filtered on its fallback's value.
    expect(await slugsOf(site, "locale=fr&filter[blurb][contains]=morning")).toEqual(["pain"]);
    expect(await slugsOf(site, "locale=fr&fallback=false&filter[blurb][contains]=morning")).toEqual([]);
    // Search: the French name, and the English blurb it falls back to.
    expect(await slugsOf(site, "locale=fr&search=fromag")).toEqual(["fromage"]);
    expect(await slugsOf(site, "locale=fr&search=twelve")).toEqual(["fromage"]);
    expect(await slugsOf(site, "locale=fr&fallback=false&search=twelve")).toEqual([]);
    expect(await slugsOf(site, "locale=fr&search=cheese")).toEqual([]);
    expect(await slugsOf(site, "search=cheese")).toEqual(["cheese"]);
  });

  it("follows an edit of the item's own text in searches of its translations, on the alarm", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.cheese!, "fr", { slug: "fromage", data: { name: "Fromage" } }), 200);
    expect(await slugsOf(site, "locale=fr&search=twelve")).toEqual(["fromage"]);
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/products/items/${ids.cheese}`, {
        auth: site.adminKey,
        body: { data: { blurb: "Aged two years" } },
      }),
      200,
    );
    // The alarm rebuilds the translation's text (migration 38's trigger queued it).
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await runInDurableObject(stub, async (instance: { alarm(): Promise<void> }) => instance.alarm());
    expect(await slugsOf(site, "locale=fr&search=two+years")).toEqual(["fromage"]);
    expect(await slugsOf(site, "locale=fr&search=twelve")).toEqual([]);
  });

  it("keeps each locale's answer under its own cache key, and a translation's change reaches it", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme" } }), 200);
    const first = await list(site, "locale=fr");
    expect(first.body.items[0]!.data.name).toBe("Pomme");
    const again = await list(site, "locale=fr");
    expect(again.res.headers.get("x-cache")).toMatch(/HIT/i);
    expect((await list(site, "locale=FR")).body.items[0]!.data.name).toBe("Pomme");
    const en = await list(site, "sort=slug");
    expect(en.body.items[0]!.data.name).toBe("Apple");
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme rouge" } }), 200);
    expect((await list(site, "locale=fr")).body.items[0]!.data.name).toBe("Pomme rouge");
  });

  it("forgets an item's translations with the item", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme" } }), 200);
    await expectStatus(callJson("DELETE", `/sites/${site.id}/collections/products/items/${ids.apple}`, { auth: site.adminKey }), 200);
    expect(await slugsOf(site, "locale=fr")).toEqual([]);
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const left = await runInDurableObject(
      stub,
      (_i: unknown, state: DurableObjectState) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM item_locales").one().n,
    );
    expect(left).toBe(0);
  });

  it("keeps each locale's total exact through publishing, unpublishing, deleting and translating", async () => {
    const { site, ids } = await shop();
    const total = async (q: string) => (await expectStatus(list(site, q), 200)).total;
    const counted = async () =>
      runInDurableObject(
        env.SITE.get(env.SITE.idFromName(site.id)),
        (_i: unknown, state: DurableObjectState) =>
          state.storage.sql
            .exec<{ n: number }>(
              `SELECT count(*) AS n FROM item_locales t JOIN items i ON i.seq = t.seq JOIN site_locales l ON l.id = t.locale
              WHERE l.code = 'fr' AND i.status = 'published'`,
            )
            .one().n,
      );
    for (const [id, slug] of [
      [ids.apple!, "pomme"],
      [ids.bread!, "pain"],
      [ids.cheese!, "fromage"],
    ] as const)
      await expectStatus(translate(site, id, "fr", { slug, data: {} }), 200);
    expect(await total("locale=fr")).toBe(3);
    const post = (path: string) => callJson("POST", `/sites/${site.id}/collections/products/items/${path}`, { auth: site.adminKey });
    await expectStatus(post(`${ids.apple}/unpublish`), 200);
    expect(await total("locale=fr")).toBe(2);
    await expectStatus(callJson("DELETE", `/sites/${site.id}/collections/products/items/${ids.bread}`, { auth: site.adminKey }), 200);
    expect(await total("locale=fr")).toBe(1);
    await expectStatus(post(`${ids.apple}/publish`), 200);
    expect(await total("locale=fr")).toBe(2);
    await expectStatus(
      callJson("DELETE", `/sites/${site.id}/collections/products/items/${ids.cheese}/locales/fr`, { auth: site.adminKey }),
      200,
    );
    expect(await total("locale=fr")).toBe(1);
    expect(await counted()).toBe(1);
    // A filtered list counts its rows: the same answer by the other way.
    expect(await total("locale=fr&filter[price][gte]=0")).toBe(1);
  });

  it("answers semantic search and related items in a secondary locale with nothing, and refuses an unknown one", async () => {
    const { site } = await shop();
    await settleIndex(site);
    const search = (q: string) => callJson<{ results: unknown[] }>("GET", `/v1/${site.token}/search?q=crisp+red+apple${q}`);
    expect((await expectStatus(search(""), 200)).results.length).toBeGreaterThan(0);
    expect((await expectStatus(search("&locale=en"), 200)).results.length).toBeGreaterThan(0);
    expect(await expectStatus(search("&locale=fr"), 200)).toEqual({ results: [] });
    expect((await search("&locale=de")).status).toBe(400);
    const related = (q: string) => callJson<{ items: unknown[] }>("GET", `/v1/${site.token}/collections/products/items/apple/related${q}`);
    expect((await related("")).status).toBe(200);
    expect(await expectStatus(related("?locale=fr"), 200)).toEqual({ items: [] });
  });

  it("follows a field that stops being translated: its translations' values leave reads and search", async () => {
    const { site, ids } = await shop();
    await expectStatus(translate(site, ids.apple!, "fr", { slug: "pomme", data: { name: "Pomme", blurb: "Croquante" } }), 200);
    expect(await slugsOf(site, "locale=fr&search=croquante")).toEqual(["pomme"]);
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/products`, {
        auth: site.adminKey,
        body: {
          name: "Products",
          fields: [
            { key: "name", type: "text", indexed: true, required: true, localized: true },
            { key: "blurb", type: "text", indexed: true },
            { key: "price", type: "number", indexed: true },
          ],
        },
      }),
      200,
    );
    await runInDurableObject(env.SITE.get(env.SITE.idFromName(site.id)), async (instance: { alarm(): Promise<void> }) => instance.alarm());
    const fr = await expectStatus(list(site, "locale=fr"), 200);
    expect(fr.items[0]!.data).toEqual({ name: "Pomme", blurb: "Crisp and red", price: 3 });
    expect(await slugsOf(site, "locale=fr&search=croquante")).toEqual([]);
    expect(await slugsOf(site, "locale=fr&search=crisp")).toEqual(["pomme"]);
  });
});
