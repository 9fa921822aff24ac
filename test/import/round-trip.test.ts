import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { addItem, call, callJson, expectStatus, newBlog, newSite, type TestSite } from "../helpers";
import { putPage } from "../ssr-helpers";
import { get, mediaFile } from "../media/helpers";
import { csvOf, importFile, start, until, upload } from "./helpers";

/** The blog of the export tests: authors, and posts using every field type, a draft among them. */
async function blogWithPosts(plan?: Parameters<typeof newBlog>[0]): Promise<TestSite> {
  const site = await newBlog(plan);
  // Its image and video as URL media on a plain local host (as a customer's files are on theirs).
  const dir = `/rt-${crypto.randomUUID().slice(0, 8)}`;
  const cover = await putPage(mediaFile("small.jpg"), { path: `${dir}/cover.jpg`, type: "image/jpeg" });
  const clip = await putPage(mediaFile("clip.mp4"), { path: `${dir}/clip.mp4`, type: "video/mp4" });
  const ada = await addItem(site, "authors", { slug: "ada", data: { name: "Ada" }, publish: true });
  const bob = await addItem(site, "authors", { slug: "bob", data: { name: "Bob" } });
  await addItem(site, "posts", {
    slug: "hello",
    publish: true,
    data: {
      title: 'Hello, "world"',
      summary: "=1+1 looks like a formula",
      body: "<p>First line</p>\r\n<p>second, with a comma</p>",
      views: 12,
      featured: true,
      date: "2025-08-12T07:53:00.000Z",
      website: "https://example.com/a?b=c",
      author: ada.id,
      coauthors: [ada.id, bob.id],
      cover: { url: cover, alt: "Cover" },
      clip: { url: clip },
    },
  });
  await addItem(site, "posts", { slug: "draft", data: { title: "A draft", featured: false, views: 0 } });
  await addItem(site, "posts", { slug: "later", publish: true, data: { title: "Later", author: bob.id, notes: "line one\nline two" } });
  return site;
}

const rowsOf = (text: string) => parse(text, { bom: true, columns: true }) as Record<string, string>[];

/**
 * The columns that name this site's ids and times, and the media cells (the import copied those
 * files into the new site's library: compared by their bytes instead); the rest must be the same.
 */
const blank = (text: string) =>
  rowsOf(text).map((r) => ({
    ...r,
    "Collection ID": "",
    "Item ID": "",
    "Created On": "",
    "Updated On": "",
    ...("cover" in r ? { cover: "", clip: "" } : {}),
  }));

/** Each media cell of `again` names a file of `to`'s library with the bytes the same cell of `first` pointed at. */
async function sameFiles(to: TestSite, first: string, again: string): Promise<number> {
  const a = rowsOf(first);
  const b = rowsOf(again);
  let n = 0;
  for (const [i, row] of a.entries()) {
    for (const column of ["cover", "clip"]) {
      if (!row[column]) continue;
      const copy = b[i]![column]!;
      expect(copy).toMatch(new RegExp(`/m/${to.id}/`));
      const bytes = async (url: string) => new Uint8Array(await (await (url.includes("/m/") ? get(url) : fetch(url))).arrayBuffer());
      expect(await bytes(copy)).toEqual(await bytes(row[column]!));
      n++;
    }
  }
  return n;
}

describe("import: round trips", () => {
  it("export CSV → import into an empty site → export again gives the same file apart from ids and times", async () => {
    const from = await blogWithPosts();
    const authors = await csvOf(from, "authors");
    const posts = await csvOf(from, "posts");
    // An empty site with the same collections (newBlog creates them, without items).
    const to = await newBlog();
    expect((await importFile(to, "authors", authors)).done).toEqual({ created: 2, updated: 0, skipped: 0, failed: 0 });
    expect((await importFile(to, "posts", posts)).done).toEqual({ created: 3, updated: 0, skipped: 0, failed: 0 });
    // The formula-looking summary is written as text in the file and comes back as it was.
    expect(rowsOf(posts).find((r) => r.Slug === "hello")!.summary).toBe("'=1+1 looks like a formula");
    const hello = await callJson<{ item: { data: { summary: string } } }>("GET", `/v1/${to.token}/collections/posts/items/hello`);
    expect(hello.body.item.data.summary).toBe("=1+1 looks like a formula");
    const again = await csvOf(to, "posts");
    expect(again.split("\r\n")[0]).toBe(posts.split("\r\n")[0]);
    expect(blank(again)).toEqual(blank(posts));
    expect(await sameFiles(to, posts, again)).toBe(2);
    expect(blank(await csvOf(to, "authors"))).toEqual(blank(authors));
    // The same file imported again changes nothing: every row is unchanged.
    expect((await importFile(to, "posts", posts)).done).toEqual({ created: 0, updated: 0, skipped: 3, failed: 0 });
  });

  it("a site export imported into a new site answers every public list and item the same", async () => {
    // On the SEO Engine plan, whose redirects travel with the export.
    const from = await blogWithPosts("seo_engine");
    // An item whose references were changed after it was created (its stored order differs from the file's).
    const c = await addItem(from, "authors", { slug: "carol", data: { name: "Carol" }, publish: true });
    await expectStatus(
      callJson("PATCH", `/sites/${from.id}/collections/posts/items/${(await idOf(from, "posts", "hello"))!}`, {
        auth: from.adminKey,
        body: { data: { coauthors: [c.id] } },
      }),
      200,
    );
    // Old addresses: an owner's rule, and a renamed item's old slug.
    await expectStatus(
      callJson("POST", `/sites/${from.id}/ssr/redirects`, {
        auth: from.adminKey,
        body: { from: "/old/blog", to: "https://example.com/", status: 302 },
      }),
      201,
    );
    await expectStatus(
      callJson("PATCH", `/sites/${from.id}/collections/authors/items/${c.id}`, { auth: from.adminKey, body: { slug: "carol-smith" } }),
      200,
    );
    const exported = await (await call("GET", `/sites/${from.id}/export.json`, { auth: from.adminKey })).text();
    const to = await newSite();
    const up = await upload(to, null, exported, "site.json", "application/json");
    expect(up.status).toBe(201);
    expect(up.body.import).toMatchObject({ kind: "site", state: "checking" });
    const checked = await until(to, up.body.import.id, ["checked"]);
    expect(checked.planned).toEqual({ create: 6, update: 0, skip: 0, error: 0 });
    await start(to, up.body.import.id);
    const done = await until(to, up.body.import.id, ["done", "failed"]);
    expect(done.done).toEqual({ created: 6, updated: 0, skipped: 0, failed: 0 });

    for (const collection of ["authors", "posts"]) {
      for (const query of ["", "?sort=-publishedAt", "?limit=1", "?sort=slug&limit=2"]) {
        const a = await call("GET", `/v1/${from.token}/collections/${collection}/items${query}`);
        const b = await call("GET", `/v1/${to.token}/collections/${collection}/items${query}`);
        expect(b.status).toBe(a.status);
        expect(await b.json()).toEqual(await a.json());
      }
      const list = (await (await call("GET", `/v1/${from.token}/collections/${collection}/items?limit=100`)).json()) as {
        items: { slug: string }[];
      };
      expect(list.items.length).toBeGreaterThan(0);
      for (const item of list.items) {
        const a = await call("GET", `/v1/${from.token}/collections/${collection}/items/${item.slug}`);
        const b = await call("GET", `/v1/${to.token}/collections/${collection}/items/${item.slug}`);
        expect(b.status).toBe(200);
        expect(await b.json()).toEqual(await a.json());
      }
    }
    const rules = async (site: TestSite) =>
      (
        await callJson<{ redirects: { from: string; to: string; status: number }[] }>("GET", `/sites/${site.id}/ssr/redirects`, {
          auth: site.adminKey,
        })
      ).body.redirects.map(({ from, to, status }) => ({ from, to, status }));
    expect(await rules(to)).toEqual([{ from: "/old/blog", to: "https://example.com/", status: 302 }]);
    const moved = await call("GET", `/v1/${to.token}/collections/authors/items/carol`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`/v1/${to.token}/collections/authors/items/carol-smith`);
    // A site export goes into an empty site only.
    const twice = await upload(to, null, exported, "site.json", "application/json");
    expect(twice.status).toBe(409);
  });
});

async function idOf(site: TestSite, collection: string, slug: string): Promise<string | undefined> {
  const r = await callJson<{ items: { id: string; slug: string }[] }>(
    "GET",
    `/sites/${site.id}/collections/${collection}/items?limit=100`,
    {
      auth: site.adminKey,
    },
  );
  return r.body.items.find((i) => i.slug === slug)?.id;
}
