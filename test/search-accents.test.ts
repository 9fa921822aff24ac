// The content API's `search` folds accents as readers type them: "cafe" finds "Café", and a query
// with its accents finds the same items as one without. Text stored before folding existed is
// folded once when the site object starts.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { foldForSearch } from "../actors/site/content/search-text";
import { addItem, callJson, newBlog, type TestSite } from "./helpers";

let site: TestSite;
const found = async (search: string) => {
  const r = await callJson<{ items: { slug: string }[] }>(
    "GET",
    `/v1/${site.token}/collections/posts/items?sort=slug&search=${encodeURIComponent(search)}`,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.items.map((i) => i.slug);
};

beforeAll(async () => {
  site = await newBlog("pro");
  const posts: [string, string, string][] = [
    ["cafe", "Café crème à Paris", "Déjà vu"],
    ["lodz", "Łódź in spring", "Straße und Ærø"],
    ["athens", "Αθήνα", "Ελληνικά"],
    ["hindi", "किताब", "Plain"],
    ["plain", "Coffee", "Nothing special"],
  ];
  for (const [slug, title, summary] of posts) await addItem(site, "posts", { slug, publish: true, data: { title, summary } });
});

describe("search folds accents", () => {
  it("finds accented text with or without its accents, in any case", async () => {
    expect(await found("cafe")).toEqual(["cafe"]);
    expect(await found("CAFÉ CRÈME")).toEqual(["cafe"]);
    expect(await found("deja")).toEqual(["cafe"]);
    expect(await found("lodz")).toEqual(["lodz"]);
    expect(await found("strasse und aero")).toEqual(["lodz"]);
    expect(await found("αθηνα")).toEqual(["athens"]);
    expect(await found("ΑΘΉΝΑ")).toEqual(["athens"]);
    expect(await found("coffee")).toEqual(["plain"]);
  });

  it("folds them in the dashboard's item search too, which also matches any value as stored", async () => {
    const dashboard = async (search: string) => {
      const r = await callJson<{ items: { slug: string }[] }>(
        "GET",
        `/sites/${site.id}/collections/posts/items?sort=slug&search=${encodeURIComponent(search)}`,
        { auth: site.adminKey },
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.items.map((i) => i.slug);
    };
    expect(await dashboard("cafe")).toEqual(["cafe"]);
    expect(await dashboard("lodz")).toEqual(["lodz"]);
    expect(await dashboard("αθηνα")).toEqual(["athens"]);
  });

  it("keeps the marks that are parts of a letter in other scripts", async () => {
    expect(foldForSearch("किताब")).toBe("किताब");
    expect(await found("किताब")).toEqual(["hindi"]);
    expect(await found("कतब")).toEqual([]);
  });

  it("folds the search text a site stored before folding existed, once, when its object starts", async () => {
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    // As an older version stored it: lower-cased only, and no record of the fold.
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE items SET search_text = ? WHERE slug = 'cafe'", "café crème à paris\u001fdéjà vu");
      state.storage.kv.delete("search-text-folded");
    });
    await evictDurableObject(stub);
    expect(await found("creme")).toEqual(["cafe"]);
    const stored = await runInDurableObject(stub, (_i, state) => ({
      text: state.storage.sql.exec<{ t: string }>("SELECT search_text AS t FROM items WHERE slug = 'cafe'").one().t,
      plain: state.storage.sql.exec<{ t: string }>("SELECT search_text AS t FROM items WHERE slug = 'plain'").one().t,
    }));
    expect(stored.text).toBe("cafe creme a paris\u001fdeja vu");
    expect(stored.plain).toBe("coffee\u001fnothing special");
  });
});
