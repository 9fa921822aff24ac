import { beforeAll, describe, expect, it } from "vitest";
import type { PublicItem } from "../src/contract/responses";
import { addItem, call, callJson, expectStatus, newBlog, type TestSite } from "./helpers";

type Item = PublicItem;
interface Page {
  items: Item[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}
interface Err {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

let site: TestSite;
const list = (q = "") => callJson<Page & Err>("GET", `/v1/${site.token}/collections/posts/items${q}`);
const slugs = async (q: string) => {
  const r = await list(q);
  if (r.status !== 200) throw new Error(`${q}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.items.map((i) => i.slug);
};

beforeAll(async () => {
  site = await newBlog("pro");
  await addItem(site, "authors", { slug: "ada", data: { name: "Ada" }, publish: true });
  await addItem(site, "authors", { slug: "hidden", data: { name: "Hidden" } });
  const rows = [
    {
      slug: "alpha",
      data: {
        title: "Alpha Dogs",
        summary: "Training a PUPPY",
        views: 10,
        featured: true,
        date: "2024-01-05",
        author: "ada",
        website: "https://a.test",
      },
    },
    {
      slug: "bravo",
      data: {
        title: "Bravo",
        summary: "taxes and receipts",
        views: 2,
        featured: false,
        date: "2024-03-01T12:00:00+02:00",
        author: "hidden",
      },
    },
    { slug: "charlie", data: { title: "Charlie Über", summary: "ÜBER cool", views: 10, featured: false, date: "2023-12-31" } },
    {
      slug: "delta",
      data: {
        title: "Delta",
        views: 100,
        date: "2024-02-10",
        cover: { url: "https://img.test/d.jpg", alt: "", width: 1000 },
        coauthors: ["ada", "hidden"],
      },
    },
    { slug: "echo", data: { title: "Echo", views: 7 } },
  ];
  await expectStatus(
    callJson("POST", `/sites/${site.id}/collections/posts/items:batch`, {
      auth: site.adminKey,
      body: { items: rows.map((r) => ({ ...r, publish: true })) },
    }),
    201,
  );
  await addItem(site, "posts", { slug: "draft", data: { title: "Draft", views: 1000 } });
});

describe("content API list: paging", () => {
  it("lists published items only, with paging metadata", async () => {
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, limit: 24, total: 5, totalPages: 1 });
    expect(r.body.items.map((i) => i.slug)).not.toContain("draft");
  });

  it.each([
    ["?page=2&limit=2", 2, 2],
    ["?page=0", 1, 24],
    ["?page=-3", 1, 24],
    ["?page=abc", 1, 24],
    ["?page=1.5", 1, 24],
    ["?limit=0", 1, 1],
    ["?limit=-10", 1, 1],
    ["?limit=1000", 1, 100],
    ["?limit=abc", 1, 24],
    ["?limit=2.9", 1, 2],
    ["?limit=", 1, 24],
  ])("%s → page %i, limit %i (never an error)", async (q, page, limit) => {
    const r = await list(q);
    expect(r.status).toBe(200);
    expect(r.body.page).toBe(page);
    expect(r.body.limit).toBe(limit);
    expect(r.body.items.length).toBeLessThanOrEqual(limit);
  });

  it("returns an empty page past the end", async () => {
    const r = await list("?page=99");
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([]);
    expect(r.body.total).toBe(5);
  });
});

describe("content API list: sort", () => {
  it("sorts by a number descending with a deterministic tie-break", async () => {
    const first = await slugs("?sort=-views");
    expect(first).toEqual(["delta", "charlie", "alpha", "echo", "bravo"]);
    expect(await slugs("?sort=-views")).toEqual(first);
  });

  it("sorts by several keys", async () => {
    expect(await slugs("?sort=-views,title")).toEqual(["delta", "alpha", "charlie", "echo", "bravo"]);
  });

  it("sorts dates as dates, whatever offset they were written with", async () => {
    expect(await slugs("?sort=date&filter[date][gte]=2000-01-01")).toEqual(["charlie", "alpha", "delta", "bravo"]);
  });

  it("sorts by system keys", async () => {
    expect(await slugs("?sort=slug")).toEqual(["alpha", "bravo", "charlie", "delta", "echo"]);
  });

  it("refuses an unknown sort key with the allowed keys and the closest one", async () => {
    const r = await list("?sort=-veiws");
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("bad_request");
    expect(r.body.error.details).toMatchObject({ parameter: "sort", field: "veiws", suggestion: "views" });
    expect(r.body.error.details?.allowed).toContain("title");
  });

  it("refuses a non-indexed sort key", async () => {
    const r = await list("?sort=website");
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain("not an indexed field");
    expect(r.body.error.details?.allowed).not.toContain("website");
  });
});

describe("content API list: filter", () => {
  it.each([
    ["filter[views]=10", ["alpha", "charlie"]],
    ["filter[views][eq]=10", ["alpha", "charlie"]],
    ["filter[views][ne]=10", ["bravo", "delta", "echo"]],
    ["filter[views][gt]=9", ["alpha", "charlie", "delta"]],
    ["filter[views][gte]=10", ["alpha", "charlie", "delta"]],
    ["filter[views][lt]=10", ["bravo", "echo"]],
    ["filter[views][lte]=7", ["bravo", "echo"]],
    ["filter[views][in]=2,100", ["bravo", "delta"]],
    ["filter[views][gt]=9&filter[views][lt]=50", ["alpha", "charlie"]],
    ["filter[featured]=true", ["alpha"]],
    ["filter[featured][ne]=true", ["bravo", "charlie", "delta", "echo"]],
    ["filter[date][lt]=2024-01-01", ["charlie"]],
    ["filter[date][gte]=2024-02-10", ["bravo", "delta"]],
    ["filter[date]=2024-03-01T10:00:00Z", ["bravo"]],
    ["filter[title][contains]=ÜBER", ["charlie"]],
    ["filter[title][contains]=dogs", ["alpha"]],
    ["filter[title][in]=Echo,Delta", ["delta", "echo"]],
    ["filter[author]=ada", ["alpha"]],
    ["filter[author][ne]=ada", ["bravo", "charlie", "delta", "echo"]],
  ])("%s", async (q, expected) => {
    expect(await slugs(`?${q}&sort=slug`)).toEqual(expected);
  });

  it("compares numbers as numbers, not text", async () => {
    expect(await slugs("?filter[views][gt]=9&sort=slug")).not.toContain("echo");
  });

  it.each([
    ["filter[views]=ten", "filter[views]"],
    ["filter[featured]=maybe", "filter[featured]"],
    ["filter[date][gt]=soon", "filter[date][gt]"],
    ["filter[views][contains]=1", "filter[views][contains]"],
    ["filter[views][like]=1", "filter[views][like]"],
    ["filter[website]=x", "filter[website]"],
    ["filter[nope]=x", "filter[nope]"],
    ["filter=x", "filter"],
    ["filter[views][in]=", "filter[views][in]"],
  ])("refuses %s naming the parameter", async (q, param) => {
    const r = await list(`?${q}`);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("bad_request");
    expect(r.body.error.details?.parameter).toBe(param);
  });
});

describe("content API list: search", () => {
  it("matches a case-insensitive substring over indexed text fields", async () => {
    expect(await slugs("?search=puppy&sort=slug")).toEqual(["alpha"]);
    expect(await slugs("?search=RECEIPTS")).toEqual(["bravo"]);
    expect(await slugs("?search=über&sort=slug")).toEqual(["charlie"]);
  });

  it("combines search and filters", async () => {
    expect(await slugs("?search=a&filter[views][gte]=10&sort=slug")).toEqual(["alpha", "charlie", "delta"]);
  });

  it("does not search non-indexed fields", async () => {
    expect(await slugs("?search=a.test")).toEqual([]);
  });
});

describe("content API: items", () => {
  it("returns a single published item in the public shape", async () => {
    const r = await callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/posts/items/delta`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.item).sort()).toEqual(["collection", "data", "id", "publishedAt", "slug", "updatedAt"]);
    expect(r.body.item.publishedAt).toMatch(/Z$/);
    expect(r.body.item.updatedAt).toMatch(/Z$/);
  });

  it("expands media to a MediaRef whose srcset names the original on a plain image host, and keeps an empty alt", async () => {
    const r = await callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/posts/items/delta`);
    const cover = r.body.item.data.cover as { mediaId: string; url: string; srcset: string; alt: string };
    expect(cover.url).toBe("https://img.test/d.jpg");
    expect(cover.alt).toBe("");
    expect(cover.mediaId).toMatch(/^md_/);
    // /cdn-cgi/image/ only exists on a Cloudflare zone with Image Resizing: anywhere else it is a 404.
    expect(cover.srcset).toBe("https://img.test/d.jpg 1000w");
  });

  it("gives resized srcset candidates once the site says its image host resizes, and takes them back", async () => {
    const cover = async () =>
      (
        (await callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/posts/items/delta`)).body.item.data.cover as {
          srcset: string;
        }
      ).srcset;
    const patched = await callJson<{ site: { imageResizingHosts: string[] } }>("PATCH", `/sites/${site.id}`, {
      auth: site.adminKey,
      body: { imageResizingHosts: ["IMG.test", "img.test"] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.site.imageResizingHosts).toEqual(["img.test"]);
    expect(await cover()).toBe(
      "https://img.test/cdn-cgi/image/width=320,format=auto/d.jpg 320w, https://img.test/cdn-cgi/image/width=640,format=auto/d.jpg 640w, https://img.test/cdn-cgi/image/width=960,format=auto/d.jpg 960w, https://img.test/cdn-cgi/image/width=1000,format=auto/d.jpg 1000w",
    );
    const bad = await callJson<{ error: { code: string; details: { issues: { path: string }[] } } }>("PATCH", `/sites/${site.id}`, {
      auth: site.adminKey,
      body: { imageResizingHosts: ["https://img.test/"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0]!.path).toBe("imageResizingHosts.0");
    await expectStatus(callJson("PATCH", `/sites/${site.id}`, { auth: site.adminKey, body: { imageResizingHosts: [] } }), 200);
    expect(await cover()).toBe("https://img.test/d.jpg 1000w");
  });

  it("resolves references one level deep to published items only", async () => {
    const alpha = await callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/posts/items/alpha`);
    expect(alpha.body.item.data.author).toMatchObject({ slug: "ada", collection: "authors", data: { name: "Ada" } });
    const bravo = await callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/posts/items/bravo`);
    expect(bravo.body.item.data.author).toBeNull();
    const delta = await callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/posts/items/delta`);
    expect((delta.body.item.data.coauthors as Item[]).map((a) => a.slug)).toEqual(["ada"]);
  });

  it("keeps dates ISO 8601 UTC and rich text as HTML", async () => {
    const r = await callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/posts/items/bravo`);
    expect(r.body.item.data.date).toBe("2024-03-01T10:00:00.000Z");
  });

  it("answers 404 for a draft, a missing item, a missing collection and a wrong token", async () => {
    for (const path of [
      `/v1/${site.token}/collections/posts/items/draft`,
      `/v1/${site.token}/collections/posts/items/nope`,
      `/v1/${site.token}/collections/nope/items`,
      `/v1/pk_aaaaaaaaaaaaaaaa_aaaaaaaaaaaaaaaaaaaaaaaa/collections/posts/items`,
      `/v1/nonsense/collections/posts/items`,
    ]) {
      const r = await callJson<Err>("GET", path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
  });

  it("allows any origin to read (CORS)", async () => {
    const r = await call("GET", `/v1/${site.token}/collections/posts/items`, { headers: { origin: "https://customer.test" } });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const pre = await call("OPTIONS", `/v1/${site.token}/collections/posts/items`);
    expect(pre.status).toBe(204);
  });
});

describe("content API: plans", () => {
  it("refuses filter and search below Pro with plan_required", async () => {
    const starter = await newBlog("starter");
    await addItem(starter, "posts", { slug: "a", data: { title: "A", views: 1 }, publish: true });
    for (const q of ["?search=a", "?filter[views]=1", "?filter[views][gt]=0"]) {
      const r = await callJson<Err>("GET", `/v1/${starter.token}/collections/posts/items${q}`);
      expect(r.status, q).toBe(403);
      expect(r.body.error.code).toBe("plan_required");
    }
    expect((await callJson("GET", `/v1/${starter.token}/collections/posts/items?sort=-views`)).status).toBe(200);
  });
});
