// `search` through the trigram index: the same items and totals a scan of every item gives, for
// long and short terms, literal `%` and `_`, accents, after edits, deletes and unpublishing, and
// on a site whose index is still being filled on the alarm (its searches scan until it is done).
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newSite, putCollection, type TestSite } from "./helpers";
import { buildListQuery } from "../actors/site/reads/list-query";
import { readCollections } from "../actors/site/content/collections";
import { searchMatch } from "../actors/site/storage/search-index";
import { foldForSearch } from "../actors/site/content/search-text";

const TITLES = [
  "Sourdough for beginners",
  "A rough guide to dough",
  "Through the woods",
  "Café au lait, at home",
  "100% rye, 50_50 flour",
  "Łódź in the rain",
  "Zebra crossing",
  "Bread",
  "Oat cookies",
  "Cookie jar",
];

async function site(): Promise<{ site: TestSite; ids: Map<string, string> }> {
  const site = await newSite("pro");
  await putCollection(site, "posts", {
    name: "Posts",
    fields: [
      { key: "title", type: "text", indexed: true },
      { key: "tag", type: "text", indexed: true },
    ],
  });
  const ids = new Map<string, string>();
  for (const [i, title] of TITLES.entries())
    ids.set(title, (await addItem(site, "posts", { slug: `p${i}`, publish: true, data: { title, tag: i % 2 ? "odd" : "even" } })).id);
  return { site, ids };
}

const found = async (site: TestSite, search: string) => {
  const r = await expectStatus(
    callJson<{ items: { data: { title: string } }[]; total: number }>(
      "GET",
      `/v1/${site.token}/collections/posts/items?limit=100&sort=slug&search=${encodeURIComponent(search)}`,
    ),
    200,
  );
  expect(r.total, search).toBe(r.items.length);
  return r.items.map((i) => i.data.title);
};

/** What a scan finds: every item whose folded title or tag holds the folded term. */
const fold = (t: string) =>
  t
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace("ł", "l");
const scan = (items: readonly { title: string; tag: string }[], term: string) =>
  items.filter((i) => fold(i.title).includes(fold(term)) || fold(i.tag).includes(fold(term))).map((i) => i.title);

const TERMS = [
  "ough",
  "dough",
  "rough guide",
  "ou",
  "z",
  "cafe",
  "CAFÉ",
  "100%",
  "50_50",
  "%",
  "_",
  "lodz",
  "ok",
  "kie",
  "nothing-like-this",
  "e",
];

const stub = (s: TestSite) => env.SITE.get(env.SITE.idFromName(s.id));
const builtTo = (s: TestSite) =>
  runInDurableObject(
    stub(s),
    (_i: unknown, state: DurableObjectState) =>
      state.storage.sql.exec<{ built_to: number }>("SELECT built_to FROM search_index_state").one().built_to,
  );

describe("search through the substring index", () => {
  it("finds exactly what a scan finds, for every kind of term", async () => {
    const { site: s } = await site();
    expect(await builtTo(s)).toBe(Number.MAX_SAFE_INTEGER);
    // In slug order (p0 … p9), as the reads ask.
    const items = TITLES.map((title, i) => ({ title, tag: i % 2 ? "odd" : "even" }));
    for (const term of TERMS) expect(await found(s, term), term).toEqual(scan(items, term));
    // Across fields the text does not run on: "doughodd" is no title nor tag.
    expect(await found(s, "doughodd")).toEqual([]);
  });

  it("answers the dashboard's items table (searchIn=indexed): slugs and indexed fields, drafts included", async () => {
    const { site: s, ids } = await site();
    const auth = s.adminKey;
    await expectStatus(callJson("POST", `/sites/${s.id}/collections/posts/items/${ids.get("Bread")!}/unpublish`, { auth }), 200);
    // A renamed slug is found under its new name only (the index follows slugs too).
    await expectStatus(
      callJson("PATCH", `/sites/${s.id}/collections/posts/items/${ids.get("Oat cookies")!}`, { auth, body: { slug: "oat-biscuits" } }),
      200,
    );
    const slugs = TITLES.map((_, i) => (TITLES[i] === "Oat cookies" ? "oat-biscuits" : `p${i}`));
    const dashboard = async (search: string) => {
      const r = await expectStatus(
        callJson<{ items: { slug: string }[]; total: number }>(
          "GET",
          `/sites/${s.id}/collections/posts/items?limit=100&sort=slug&searchIn=indexed&search=${encodeURIComponent(search)}`,
          { auth },
        ),
        200,
      );
      expect(r.total, search).toBe(r.items.length);
      return r.items.map((i) => i.slug);
    };
    const items = TITLES.map((title, i) => ({ title, tag: i % 2 ? "odd" : "even", slug: slugs[i]! }));
    for (const term of [...TERMS, "p1", "p", "biscuit", "cookies", "p8"]) {
      const expected = items
        .filter((i) => fold(i.title).includes(fold(term)) || fold(i.tag).includes(fold(term)) || i.slug.includes(fold(term)))
        .map((i) => i.slug)
        .sort();
      expect(await dashboard(term), term).toEqual(expected);
    }
    const bad = await callJson("GET", `/sites/${s.id}/collections/posts/items?search=x&searchIn=everything`, { auth });
    expect(bad.status).toBe(400);
  });

  it("follows edits, deletes and unpublishing", async () => {
    const { site: s, ids } = await site();
    const auth = s.adminKey;
    const zebra = ids.get("Zebra crossing")!;
    await expectStatus(
      callJson("PATCH", `/sites/${s.id}/collections/posts/items/${zebra}`, { auth, body: { data: { title: "Giraffe walk" } } }),
      200,
    );
    expect(await found(s, "zebra")).toEqual([]);
    expect(await found(s, "raffe")).toEqual(["Giraffe walk"]);
    await expectStatus(callJson("DELETE", `/sites/${s.id}/collections/posts/items/${ids.get("Bread")!}`, { auth }), 200);
    expect(await found(s, "bread")).toEqual([]);
    await expectStatus(callJson("POST", `/sites/${s.id}/collections/posts/items/${ids.get("Oat cookies")!}/unpublish`, { auth }), 200);
    expect(await found(s, "cookie")).toEqual(["Cookie jar"]);
    await addItem(s, "posts", { slug: "new", publish: true, data: { title: "Cookies again" } });
    expect((await found(s, "cookie")).sort()).toEqual(["Cookie jar", "Cookies again"]);
  });

  it("on a site from before the index: scans until the alarm has filled it, writes meanwhile included", async () => {
    const { site: s, ids } = await site();
    // The site as migration 30 leaves an older site: nothing indexed yet.
    await runInDurableObject(stub(s), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("INSERT INTO items_fts (items_fts) VALUES ('delete-all')");
      state.storage.sql.exec("UPDATE search_index_state SET built_to = 0");
    });
    // Opened again, as after a deploy: the object arms the backfill.
    await evictDurableObject(stub(s));
    expect(await found(s, "ough")).toEqual(["Sourdough for beginners", "A rough guide to dough", "Through the woods"]);
    // Written before the backfill reaches them: an edit and a new item.
    await expectStatus(
      callJson("PATCH", `/sites/${s.id}/collections/posts/items/${ids.get("Bread")!}`, {
        auth: s.adminKey,
        body: { data: { title: "Bread dough" } },
      }),
      200,
    );
    await addItem(s, "posts", { slug: "late", publish: true, data: { title: "Tough crust" } });
    for (let i = 0; i < 5 && (await builtTo(s)) !== Number.MAX_SAFE_INTEGER; i++) await runDurableObjectAlarm(stub(s));
    expect(await builtTo(s)).toBe(Number.MAX_SAFE_INTEGER);
    expect(await found(s, "ough")).toEqual([
      "Tough crust",
      "Sourdough for beginners",
      "A rough guide to dough",
      "Through the woods",
      "Bread dough",
    ]);
    expect(await found(s, "bread")).toEqual(["Bread dough"]);
  });

  it("matches exactly as instr over the folded text, for any characters, and never on the slug", async () => {
    const s = await newSite("pro");
    await putCollection(s, "posts", { name: "Posts", fields: [{ key: "title", type: "text", indexed: true }] });
    const titles = [
      "Straße ſun",
      "ΟΔΟΣ οδος",
      "İstanbul",
      "bread 🍞 and 🍞🍞",
      'a "quoted" word',
      "日本語のテキスト",
      "ǄEMAL džemal",
      "x",
      "post-7",
    ];
    for (const [i, title] of titles.entries()) await addItem(s, "posts", { slug: `post-${i}`, publish: true, data: { title } });
    await runInDurableObject(stub(s), (_i: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      const posts = readCollections(sql).find((c) => c.slug === "posts")!;
      const terms = new Set(["post", "post-", "st-", "-1", '"quoted"', '"', "🍞🍞", "🍞"]);
      for (const t of titles) {
        const chars = [...foldForSearch(t)];
        for (let i = 0; i < chars.length; i++) for (let n = 1; n <= 4; n++) terms.add(chars.slice(i, i + n).join(""));
      }
      for (const term of terms) {
        const folded = foldForSearch(term);
        if (folded.trim() === "") continue;
        const q = buildListQuery(new URLSearchParams({ search: term }), posts, readCollections(sql), (f) => searchMatch(sql, f));
        const viaIndex = sql.exec(`SELECT seq FROM items WHERE ${q.where} ORDER BY seq`, ...q.args).toArray();
        const scanned = sql
          .exec(
            "SELECT seq FROM items WHERE collection_id = ? AND status = 'published' AND instr(search_text, ?) > 0 ORDER BY seq",
            posts.id,
            folded.trim(),
          )
          .toArray();
        expect(q.args, term).toContainEqual(expect.stringContaining("{text}"));
        expect(viaIndex, term).toEqual(scanned);
      }
    });
  });
});
