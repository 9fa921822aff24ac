// A Webflow localized CMS export (an item's rows in each locale share its Item ID; Locale ID is
// Webflow's id of each locale) imported into a site with three locales, exported again with locale
// columns, and imported back: into a new site (the same translations) and into itself (nothing changes).
import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import localizedCsv from "../fixtures/webflow-localized.csv?raw";
import { call, callJson, expectStatus, newSite, putCollection, type TestSite } from "../helpers";
import { csvOf, importFile, rowsOf, setMapping, start, until, upload } from "./helpers";

const EN = "6650a1b2c3d4e5f6012345aa";
const FR = "6650a1b2c3d4e5f6012345bb";
const DE = "6650a1b2c3d4e5f6012345cc";

type Item = { id: string; slug: string; data: Record<string, unknown>; locale?: string; alternates?: { locale: string; slug: string }[] };

/** A blog in English, French and German (de falls back to fr), its title, body and summary translated. */
async function multilingualBlog(): Promise<TestSite> {
  const site = await newSite("pro");
  await putCollection(site, "posts", {
    name: "Posts",
    fields: [
      { key: "title", type: "text", required: true, localized: true, indexed: true },
      { key: "body", type: "richText", name: "Post Body", localized: true },
      { key: "summary", type: "text", name: "Post Summary", localized: true },
      { key: "readingTime", type: "number", name: "Reading Time" },
    ],
  });
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/locales`, {
      auth: site.adminKey,
      body: { primary: "en", secondary: [{ code: "fr" }, { code: "de", fallback: "fr" }] },
    }),
    200,
  );
  return site;
}

const read = async (site: TestSite, query: string) =>
  (await expectStatus(callJson<{ items: Item[] }>("GET", `/v1/${site.token}/collections/posts/items?${query}`), 200)).items;

/** Every item's translations as the dashboard reads them, by primary slug. */
async function translationsOf(site: TestSite): Promise<Record<string, unknown>> {
  const items = (
    await expectStatus(
      callJson<{ items: Item[] }>("GET", `/sites/${site.id}/collections/posts/items?limit=100`, { auth: site.adminKey }),
      200,
    )
  ).items;
  const out: Record<string, unknown> = {};
  for (const item of items) {
    const body = await expectStatus(
      callJson<{ translations: { locale: string; slug: string; data: Record<string, unknown> }[] }>(
        "GET",
        `/sites/${site.id}/collections/posts/items/${item.id}/locales`,
        { auth: site.adminKey },
      ),
      200,
    );
    out[item.slug] = {
      data: item.data,
      translations: body.translations.map((t) => ({ locale: t.locale, slug: t.slug, data: t.data })),
    };
  }
  return out;
}

describe("import: a Webflow localized CSV", () => {
  it("proposes each Locale ID as a site locale, forecasts the translations, and writes them", async () => {
    const site = await multilingualBlog();
    const up = await upload(site, "posts", localizedCsv, "Posts (all locales).csv");
    expect(up.status).toBe(201);
    const imp = up.body.import;
    const byColumn = Object.fromEntries(imp.mapping.map((m) => [m.column, m]));
    expect(byColumn["Locale ID"]).toMatchObject({ use: "locale", locales: { [EN]: "en", [FR]: "fr", [DE]: "de" } });
    expect(byColumn["Item ID"]).toMatchObject({ use: "itemId" });
    await setMapping(site, imp.id, imp.mapping);
    const checked = await until(site, imp.id, ["checked"]);
    // Three items and five translations (the draft's German is missing from the file).
    expect(checked.planned).toEqual({ create: 8, update: 0, skip: 0, error: 0 });
    expect(checked.translations?.planned).toEqual({ create: 5, update: 0, skip: 0, error: 0 });
    expect(await read(site, "")).toEqual([]);
    await start(site, imp.id);
    const done = await until(site, imp.id, ["done", "failed"]);
    expect(done).toMatchObject({ state: "done", done: { created: 8, updated: 0, skipped: 0, failed: 0 } });
    expect(done.translations?.done).toEqual({ created: 5, updated: 0, skipped: 0, failed: 0 });
    const rows = await rowsOf(site, imp.id);
    expect(rows.filter((r) => r.locale === "fr").map((r) => r.slug)).toEqual([
      "bonjour-le-monde",
      "levain-pour-debutants",
      "notes-pour-plus-tard",
    ]);
    // Each locale reads its own slugs and values; a field left empty falls back along the chain.
    const fr = await read(site, "locale=fr&sort=title");
    expect(fr.map((i) => [i.slug, i.data.title, i.data.summary])).toEqual([
      ["bonjour-le-monde", "Bonjour, le monde", "Là où tout commence"],
      ["levain-pour-debutants", "Le levain pour débutants", "A starter in a week"],
    ]);
    const de = await read(site, "locale=de&sort=title");
    expect(de.map((i) => [i.slug, i.data.title, i.data.body])).toEqual([
      ["hallo-welt", "Hallo, Welt", "<p>Der erste Beitrag.</p>"],
      ["sauerteig-fur-anfanger", "Sauerteig für Anfänger", "<p>De la farine et de l'eau.</p>"],
    ]);
    expect(de[0]!.data.readingTime).toBe(5);
    expect(de[0]!.alternates).toEqual([
      { locale: "en", slug: "hello-world" },
      { locale: "fr", slug: "bonjour-le-monde" },
      { locale: "de", slug: "hallo-welt" },
    ]);
  });

  it("says which rows cannot be translations, and why", async () => {
    const site = await multilingualBlog();
    const lines = localizedCsv.trim().split("\n");
    const broken = [
      ...lines,
      // Its item is in no row of the primary, and the collection has no item with that id.
      lines[4]!.replaceAll("a001", "a999").replace("bonjour-le-monde", "orphelin"),
      // A second French row with a slug the first French row has.
      lines[5]!.replace("6650a1b2c3d4e5f60123a002", "6650a1b2c3d4e5f60123a003"),
      // A locale of the file no locale of the site was chosen for.
      lines[4]!.replace(FR, "6650a1b2c3d4e5f6012345dd").replace("bonjour-le-monde", "hola-mundo"),
    ].join("\n");
    const up = await upload(site, "posts", broken, "broken.csv");
    const mapping = up.body.import.mapping;
    const locale = mapping.find((m) => m.use === "locale")!;
    // A fourth Locale ID has no locale left to take: the dry run asks for one.
    expect(locale.locales?.["6650a1b2c3d4e5f6012345dd"]).toBe("");
    await setMapping(site, up.body.import.id, mapping);
    const checked = await until(site, up.body.import.id, ["checked"]);
    expect(checked.planned).toEqual({ create: 8, update: 0, skip: 0, error: 3 });
    const errors = await rowsOf(site, up.body.import.id, "error");
    expect(errors.map((r) => [r.row, r.problems.map((p) => `${p.column}: ${p.reason}`)])).toEqual([
      [9, [expect.stringMatching(/^Item ID: no row of the primary locale with this item id imports without errors/)]],
      [10, ["Slug: is also the fr slug on row 5"]],
      [11, [expect.stringMatching(/^Locale ID: is not one of this site's locales \(en, fr, de\): choose its locale/)]],
    ]);
  });

  it("exports a row per locale and imports back the same translations, into a new site and into itself", async () => {
    const site = await multilingualBlog();
    await importFile(site, "posts", localizedCsv);
    const before = await translationsOf(site);
    const csv = await csvOf(site, "posts");
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r["Locale ID"], r.Slug])).toEqual([
      ["en", "hello-world"],
      ["fr", "bonjour-le-monde"],
      ["de", "hallo-welt"],
      ["en", "sourdough-for-beginners"],
      ["fr", "levain-pour-debutants"],
      ["de", "sauerteig-fur-anfanger"],
      ["en", "notes-for-later"],
      ["fr", "notes-pour-plus-tard"],
    ]);
    // A translation's row holds its own values: what falls back stays empty.
    expect(rows[4]!["Post Summary"]).toBe("");
    expect(new Set(rows.slice(0, 3).map((r) => r["Item ID"])).size).toBe(1);

    const copy = await multilingualBlog();
    const into = await importFile(copy, "posts", csv);
    expect(into.done).toEqual({ created: 8, updated: 0, skipped: 0, failed: 0 });
    expect(await translationsOf(copy)).toEqual(before);

    const again = await importFile(site, "posts", csv);
    expect(again.done).toEqual({ created: 0, updated: 0, skipped: 8, failed: 0 });
    expect(await translationsOf(site)).toEqual(before);
  });

  it("carries the locales and every translation through a site export into a new site", async () => {
    const site = await multilingualBlog();
    await importFile(site, "posts", localizedCsv);
    const exported = await (await call("GET", `/sites/${site.id}/export.json`, { auth: site.adminKey })).text();
    const to = await newSite("pro");
    const up = await upload(to, null, exported, "site.json", "application/json");
    expect(up.status).toBe(201);
    await until(to, up.body.import.id, ["checked"]);
    await start(to, up.body.import.id);
    const done = await until(to, up.body.import.id, ["done", "failed"]);
    expect(done.done).toEqual({ created: 3, updated: 0, skipped: 0, failed: 0 });
    const locales = await expectStatus(
      callJson<{ locales: { code: string; chain: string[] }[] }>("GET", `/sites/${to.id}/locales`, { auth: to.adminKey }),
      200,
    );
    expect(locales.locales.map((l) => [l.code, l.chain])).toEqual([
      ["en", ["en"]],
      ["fr", ["fr", "en"]],
      ["de", ["de", "fr", "en"]],
    ]);
    expect(await translationsOf(to)).toEqual(await translationsOf(site));
    for (const query of ["locale=fr", "locale=de&sort=title", "locale=de&fallback=false"]) {
      const a = await call("GET", `/v1/${site.token}/collections/posts/items?${query}`);
      const b = await call("GET", `/v1/${to.token}/collections/posts/items?${query}`);
      expect(await b.json(), query).toEqual(await a.json());
    }
  });

  it("imports as before on a site with one locale: Locale ID and Item ID are ignored", async () => {
    const site = await newSite("pro");
    await putCollection(site, "posts", {
      name: "Posts",
      fields: [
        { key: "title", type: "text", required: true },
        { key: "body", type: "richText", name: "Post Body" },
      ],
    });
    const primaryRows = localizedCsv.trim().split("\n").slice(0, 4).join("\n");
    const up = await upload(site, "posts", primaryRows, "posts.csv");
    const use = Object.fromEntries(up.body.import.mapping.map((m) => [m.column, m.use]));
    expect(use).toMatchObject({ "Locale ID": "ignore", "Item ID": "ignore" });
    expect(up.body.import.translations).toBeUndefined();
  });
});
