import { describe, expect, it } from "vitest";
import { addItem, call, callJson, expectStatus, newBlog, putCollection, type TestSite } from "./helpers";

const items = (site: TestSite) => `/sites/${site.id}/collections/posts/items`;

async function count(site: TestSite): Promise<number> {
  const r = await callJson<{ total: number }>("GET", items(site), { auth: site.adminKey });
  return r.body.total;
}

describe("item writes", () => {
  it("creates a draft and returns it with status, dates and data", async () => {
    const site = await newBlog();
    const r = await callJson<{ item: Record<string, unknown> }>("POST", items(site), {
      auth: site.adminKey,
      body: { slug: "a", data: { title: "A", date: "2024-05-01" } },
    });
    expect(r.status).toBe(201);
    expect(r.body.item).toMatchObject({
      slug: "a",
      collection: "posts",
      status: "draft",
      publishedAt: null,
      data: { title: "A", date: "2024-05-01T00:00:00.000Z" },
    });
    expect(r.body.item.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("names every problem of a new item at once: a bad slug and a missing required value", async () => {
    const site = await newBlog();
    const r = await callJson<{ error: { code: string; details: { issues: { path: string; message: string }[] } } }>("POST", items(site), {
      auth: site.adminKey,
      body: { slug: "", data: { views: "many" } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details.issues.map((i) => i.path).sort()).toEqual(["data.title", "data.views", "slug"]);
    // In a batch, each item's problems are named under its index.
    const batch = await callJson<{ error: { details: { issues: { path: string }[] } } }>("POST", `${items(site)}:batch`, {
      auth: site.adminKey,
      body: {
        items: [
          { slug: "ok", data: { title: "Fine" } },
          { slug: "Not A Slug", data: {} },
        ],
      },
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error.details.issues.map((i) => i.path).sort()).toEqual(["items.1.data.title", "items.1.slug"]);
    expect(await count(site)).toBe(0);
  });

  it("answers 409 to a duplicate slug in the collection", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    const r = await callJson<{ error: { code: string } }>("POST", items(site), {
      auth: site.adminKey,
      body: { slug: "a", data: { title: "B" } },
    });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("conflict");
  });

  it.each([
    [{ slug: "Not A Slug", data: { title: "x" } }, "slug"],
    [{ slug: "-a", data: { title: "x" } }, "slug"],
    [{ slug: "a", data: { title: 5 } }, "data.title"],
    [{ slug: "a", data: {} }, "data.title"],
    [{ slug: "a", data: { title: "x", tilte: "y" } }, "data.tilte"],
    [{ slug: "a", data: { title: "x", views: "12" } }, "data.views"],
    [{ slug: "a", data: { title: "x", views: [1] } }, "data.views"],
    [{ slug: "a", data: { title: "x", featured: "yes" } }, "data.featured"],
    [{ slug: "a", data: { title: "x", date: "yesterday" } }, "data.date"],
    [{ slug: "a", data: { title: "x", date: "2024-02-30" } }, "data.date"],
    [{ slug: "a", data: { title: "x", website: "javascript:alert(1)" } }, "data.website"],
    [{ slug: "a", data: { title: "x", cover: "md_missing" } }, "data.cover"],
    [{ slug: "a", data: { title: "x", cover: { url: "not a url" } } }, "data.cover"],
    [{ slug: "a", data: { title: "x", author: "nobody" } }, "data.author"],
    [{ slug: "a", data: { title: "x", coauthors: "ada" } }, "data.coauthors"],
    [{ slug: "a", data: { title: "x" }, extra: true }, "(body)"],
  ])("rejects %j with a 400 naming %s and stores nothing", async (body, path) => {
    const site = await newBlog();
    const r = await callJson<{ error: { code: string; message: string; details: { issues: { path: string }[] } } }>("POST", items(site), {
      auth: site.adminKey,
      body,
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("bad_request");
    expect(r.body.error.details.issues.map((i) => i.path)).toContain(path);
    expect(await count(site)).toBe(0);
  });

  it("says which field was meant when a key is misspelled", async () => {
    const site = await newBlog();
    const r = await callJson<{ error: { message: string } }>("POST", items(site), {
      auth: site.adminKey,
      body: { slug: "a", data: { title: "x", sumary: "y" } },
    });
    expect(r.body.error.message).toContain('did you mean "summary"');
  });

  it.each([
    ["{not json", "application/json", 400],
    ["[1,2]", "application/json", 400],
    ["", "application/json", 400],
    ["slug=a", "application/x-www-form-urlencoded", 415],
  ])("rejects the body %j (%s) with %i", async (raw, type, status) => {
    const site = await newBlog();
    const r = await call("POST", items(site), { auth: site.adminKey, body: raw, headers: { "content-type": type } });
    expect(r.status).toBe(status);
    const body = (await r.json()) as { error: { code: string } };
    expect(body.error.code).toBeTypeOf("string");
  });

  it("rejects a body over 1 MB with 413", async () => {
    const site = await newBlog();
    const big = { slug: "a", data: { title: "x", notes: "y".repeat(1024 * 1024) } };
    const r = await callJson<{ error: { code: string } }>("POST", items(site), { auth: site.adminKey, body: big });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("payload_too_large");
    expect(await count(site)).toBe(0);
  });

  it("resolves references by slug and registers inline media", async () => {
    const site = await newBlog();
    const ada = await addItem(site, "authors", { slug: "ada", data: { name: "Ada" } });
    const r = await callJson<{ item: { data: { author: string; coauthors: string[]; cover: string } } }>("POST", items(site), {
      auth: site.adminKey,
      body: {
        slug: "a",
        data: { title: "A", author: "ada", coauthors: [ada.id, "ada"], cover: { url: "https://img.test/a.jpg", alt: "" } },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.item.data.author).toBe(ada.id);
    expect(r.body.item.data.coauthors).toEqual([ada.id]);
    expect(r.body.item.data.cover).toMatch(/^md_/);
  });

  it("keeps a gallery's images in the order given; a PATCH replaces the list and null clears it", async () => {
    const site = await newBlog();
    await putCollection(site, "products", { name: "Products", fields: [{ key: "photos", type: "gallery" }] });
    const url = `/sites/${site.id}/collections/products/items`;
    const made = await callJson<{ item: { id: string; data: { photos: string[] } } }>("POST", url, {
      auth: site.adminKey,
      body: { slug: "pot", data: { photos: [{ url: "https://img.test/1.jpg", alt: "One" }, { url: "https://img.test/2.jpg" }] } },
    });
    expect(made.status).toBe(201);
    const [one, two] = made.body.item.data.photos;
    expect([one, two]).toEqual([expect.stringMatching(/^md_/), expect.stringMatching(/^md_/)]);
    const swapped = await callJson<{ item: { data: { photos: string[] } } }>("PATCH", `${url}/${made.body.item.id}`, {
      auth: site.adminKey,
      body: { data: { photos: [two, one] } },
    });
    expect(swapped.body.item.data.photos).toEqual([two, one]);
    const cleared = await callJson<{ item: { data: Record<string, unknown> } }>("PATCH", `${url}/${made.body.item.id}`, {
      auth: site.adminKey,
      body: { data: { photos: null } },
    });
    expect(cleared.body.item.data).toEqual({});
  });

  it("merges a PATCH, clears a field with null and can change the slug", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A", summary: "S", views: 1 } });
    const r = await callJson<{ item: { slug: string; data: Record<string, unknown> } }>("PATCH", `${items(site)}/${a.id}`, {
      auth: site.adminKey,
      body: { slug: "a2", data: { views: 2, summary: null } },
    });
    expect(r.status).toBe(200);
    expect(r.body.item.slug).toBe("a2");
    expect(r.body.item.data).toEqual({ title: "A", views: 2 });
  });

  it("refuses a PATCH that clears a required field, and keeps the item", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    const r = await callJson("PATCH", `${items(site)}/${a.id}`, { auth: site.adminKey, body: { data: { title: null } } });
    expect(r.status).toBe(400);
    const got = await callJson<{ item: { data: { title: string } } }>("GET", `${items(site)}/${a.id}`, { auth: site.adminKey });
    expect(got.body.item.data.title).toBe("A");
  });

  it("publishes, unpublishes and deletes", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    const pub = await expectStatus(
      callJson<{ item: { status: string; publishedAt: string } }>("POST", `${items(site)}/${a.id}/publish`, { auth: site.adminKey }),
      200,
    );
    expect(pub.item.status).toBe("published");
    expect(pub.item.publishedAt).toMatch(/Z$/);
    const unpub = await expectStatus(
      callJson<{ item: { status: string; publishedAt: string } }>("POST", `${items(site)}/${a.id}/unpublish`, { auth: site.adminKey }),
      200,
    );
    expect(unpub.item.status).toBe("draft");
    expect((await callJson("DELETE", `${items(site)}/${a.id}`, { auth: site.adminKey })).status).toBe(200);
    expect((await callJson("GET", `${items(site)}/${a.id}`, { auth: site.adminKey })).status).toBe(404);
    expect((await callJson("POST", `${items(site)}/${a.id}/publish`, { auth: site.adminKey })).status).toBe(404);
  });

  it("pages the dashboard list with drafts included", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    await addItem(site, "posts", { slug: "b", data: { title: "B" }, publish: true });
    const r = await callJson<{ items: { slug: string }[]; total: number; limit: number }>("GET", `${items(site)}?limit=1&page=2`, {
      auth: site.adminKey,
    });
    expect(r.body.total).toBe(2);
    expect(r.body.items).toHaveLength(1);
    const drafts = await callJson<{ items: { slug: string }[] }>("GET", `${items(site)}?status=draft`, { auth: site.adminKey });
    expect(drafts.body.items.map((i) => i.slug)).toEqual(["a"]);
  });
});

describe("batch writes", () => {
  it("creates up to 1000 items at once", async () => {
    const site = await newBlog();
    const batch = Array.from({ length: 1000 }, (_, i) => ({ slug: `p-${i}`, data: { title: `P ${i}` }, publish: i % 2 === 0 }));
    const r = await callJson<{ count: number }>("POST", `${items(site)}:batch`, { auth: site.adminKey, body: { items: batch } });
    expect(r.status).toBe(201);
    expect(r.body.count).toBe(1000);
    expect(await count(site)).toBe(1000);
  });

  it("refuses more than 1000 items", async () => {
    const site = await newBlog();
    const batch = Array.from({ length: 1001 }, (_, i) => ({ slug: `p-${i}`, data: { title: "P" } }));
    expect((await callJson("POST", `${items(site)}:batch`, { auth: site.adminKey, body: { items: batch } })).status).toBe(400);
  });

  it("is all or nothing: one bad item stores none, naming the bad one", async () => {
    const site = await newBlog();
    const batch = [
      { slug: "ok-1", data: { title: "fine", cover: { url: "https://img.test/1.jpg" } } },
      { slug: "bad", data: { title: 42 } },
    ];
    const r = await callJson<{ error: { details: { issues: { path: string }[] } } }>("POST", `${items(site)}:batch`, {
      auth: site.adminKey,
      body: { items: batch },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details.issues[0]?.path).toBe("items.1.data.title");
    expect(await count(site)).toBe(0);
  });

  it("refuses duplicate slugs inside the batch and against stored items", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "taken", data: { title: "T" } });
    const dup = await callJson("POST", `${items(site)}:batch`, {
      auth: site.adminKey,
      body: {
        items: [
          { slug: "x", data: { title: "a" } },
          { slug: "x", data: { title: "b" } },
        ],
      },
    });
    expect(dup.status).toBe(409);
    const clash = await callJson("POST", `${items(site)}:batch`, {
      auth: site.adminKey,
      body: {
        items: [
          { slug: "y", data: { title: "a" } },
          { slug: "taken", data: { title: "b" } },
        ],
      },
    });
    expect(clash.status).toBe(409);
    expect(await count(site)).toBe(1);
  });
});
