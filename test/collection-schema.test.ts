import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newBlog, newSite } from "./helpers";

describe("collection schema", () => {
  it("creates, lists, reads, updates and deletes a collection", async () => {
    const site = await newSite();
    const auth = site.adminKey;
    const created = await callJson("PUT", `/sites/${site.id}/collections/jobs`, {
      auth,
      body: { name: "Jobs", fields: [{ key: "role", type: "text" }] },
    });
    expect(created.status).toBe(201);
    const updated = await callJson<{ collection: { name: string; fields: unknown[] } }>("PUT", `/sites/${site.id}/collections/jobs`, {
      auth,
      body: {
        fields: [
          { key: "role", type: "text", indexed: true },
          { key: "salary", type: "number" },
        ],
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.collection.name).toBe("Jobs");
    expect(updated.body.collection.fields).toHaveLength(2);
    const list = await callJson<{ collections: { slug: string }[] }>("GET", `/sites/${site.id}/collections`, { auth });
    expect(list.body.collections.map((c) => c.slug)).toEqual(["jobs"]);
    expect((await callJson("DELETE", `/sites/${site.id}/collections/jobs`, { auth })).status).toBe(200);
    expect((await callJson("GET", `/sites/${site.id}/collections/jobs`, { auth })).status).toBe(404);
  });

  it.each([
    [{ fields: [{ key: "1bad", type: "text" }] }, "fields.0.key"],
    [{ fields: [{ key: "a", type: "colour" }] }, "fields.0.type"],
    [
      {
        fields: [
          { key: "a", type: "text" },
          { key: "a", type: "number" },
        ],
      },
      "fields.1.key",
    ],
    [{ fields: [{ key: "a", type: "reference" }] }, "fields.0.collection"],
    [{ fields: [{ key: "a", type: "richText", indexed: true }] }, "fields.0.indexed"],
    [{ fields: [{ key: "slug", type: "text" }] }, "fields.0.key"],
    [{ fields: [{ key: "a", type: "text", extra: 1 }] }, "fields.0"],
    [{ fields: "nope" }, "fields"],
  ])("rejects an invalid definition %j naming %s", async (body, path) => {
    const site = await newSite();
    const r = await callJson<{ error: { code: string; details: { issues: { path: string }[] } } }>(
      "PUT",
      `/sites/${site.id}/collections/c`,
      { auth: site.adminKey, body },
    );
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("bad_request");
    expect(r.body.error.details.issues.map((i) => i.path)).toContain(path);
  });

  it("rejects a bad collection slug and a reference to a missing collection", async () => {
    const site = await newSite();
    const bad = await callJson("PUT", `/sites/${site.id}/collections/Bad_Slug`, { auth: site.adminKey, body: { fields: [] } });
    expect(bad.status).toBe(400);
    const ref = await callJson("PUT", `/sites/${site.id}/collections/c`, {
      auth: site.adminKey,
      body: { fields: [{ key: "a", type: "reference", collection: "ghost" }] },
    });
    expect(ref.status).toBe(400);
  });

  it("refuses a type change while items hold values, and stores nothing", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A", views: 3 } });
    const before = await callJson<{ collection: unknown }>("GET", `/sites/${site.id}/collections/posts`, { auth: site.adminKey });
    const fields = (before.body.collection as { fields: { key: string; type: string }[] }).fields.map((f) =>
      f.key === "views" ? { ...f, type: "text" } : f,
    );
    const r = await callJson<{ error: { code: string; details: { itemsWithValue: number } } }>(
      "PUT",
      `/sites/${site.id}/collections/posts`,
      { auth: site.adminKey, body: { fields } },
    );
    expect(r.status).toBe(409);
    expect(r.body.error.details.itemsWithValue).toBe(1);
    const after = await callJson("GET", `/sites/${site.id}/collections/posts`, { auth: site.adminKey });
    expect(after.body).toEqual(before.body);
  });

  it("allows a type change when no item holds a value", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    const got = await callJson<{ collection: { fields: { key: string; type: string }[] } }>("GET", `/sites/${site.id}/collections/posts`, {
      auth: site.adminKey,
    });
    const fields = got.body.collection.fields.map((f) => (f.key === "views" ? { key: "views", type: "text" } : f));
    expect((await callJson("PUT", `/sites/${site.id}/collections/posts`, { auth: site.adminKey, body: { fields } })).status).toBe(200);
  });

  it("migrates a removed field by deleting its values, leaving items valid", async () => {
    const site = await newBlog();
    const item = await addItem(site, "posts", { slug: "a", data: { title: "A", notes: "private" } });
    const got = await callJson<{ collection: { fields: { key: string }[] } }>("GET", `/sites/${site.id}/collections/posts`, {
      auth: site.adminKey,
    });
    const fields = got.body.collection.fields.filter((f) => f.key !== "notes");
    expect((await callJson("PUT", `/sites/${site.id}/collections/posts`, { auth: site.adminKey, body: { fields } })).status).toBe(200);
    const after = await callJson<{ item: { data: Record<string, unknown> } }>(
      "GET",
      `/sites/${site.id}/collections/posts/items/${item.id}`,
      { auth: site.adminKey },
    );
    expect(after.body.item.data).toEqual({ title: "A" });
    // Re-adding the key later does not resurrect old values.
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts`, {
        auth: site.adminKey,
        body: { fields: [...fields, { key: "notes", type: "text" }] },
      }),
      200,
    );
    const again = await callJson<{ item: { data: Record<string, unknown> } }>(
      "GET",
      `/sites/${site.id}/collections/posts/items/${item.id}`,
      { auth: site.adminKey },
    );
    expect(again.body.item.data.notes).toBeUndefined();
  });

  it("refuses to make a field required while items lack it, and names the first of them", async () => {
    const site = await newBlog();
    for (const slug of ["a", "b", "c", "d", "e", "f", "g"]) await addItem(site, "posts", { slug, data: { title: slug.toUpperCase() } });
    await addItem(site, "posts", { slug: "has-one", data: { title: "H", summary: "Here" } });
    const got = await callJson<{ collection: { fields: { key: string }[] } }>("GET", `/sites/${site.id}/collections/posts`, {
      auth: site.adminKey,
    });
    const fields = got.body.collection.fields.map((f) => (f.key === "summary" ? { ...f, required: true } : f));
    const r = await callJson<{ error: { code: string; message: string; details: Record<string, unknown> } }>(
      "PUT",
      `/sites/${site.id}/collections/posts`,
      { auth: site.adminKey, body: { fields } },
    );
    expect(r.status).toBe(409);
    expect(r.body.error.details).toEqual({ field: "summary", itemsWithoutValue: 7, examples: ["a", "b", "c", "d", "e"] });
    expect(r.body.error.message).toContain("(a, b, c, d, e, and 2 more). Give each a value first, or leave the field optional.");
  });

  it("refuses to delete a collection that another one references", async () => {
    const site = await newBlog();
    const r = await callJson<{ error: { details: { referencedBy: string[] } } }>("DELETE", `/sites/${site.id}/collections/authors`, {
      auth: site.adminKey,
    });
    expect(r.status).toBe(409);
    expect(r.body.error.details.referencedBy).toEqual(["posts"]);
  });

  it("serves sorts and filters from expression indexes, not a table scan", async () => {
    const site = await newBlog();
    const { env } = await import("cloudflare:workers");
    const { runInDurableObject } = await import("cloudflare:test");
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const plan = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql
        .exec<{ detail: string }>(
          "EXPLAIN QUERY PLAN SELECT * FROM items WHERE collection_id = 'x' AND status = 'published' AND json_extract(data, '$.views') > 3 ORDER BY json_extract(data, '$.views') DESC, seq DESC LIMIT 24",
        )
        .toArray()
        .map((r) => r.detail)
        .join("\n"),
    );
    expect(plan).toMatch(/USING INDEX items_field_views/);
    expect(plan).not.toMatch(/SCAN items\b(?! USING)/);
  });

  it("pages the dashboard item list from an index, without sorting the whole collection", async () => {
    const site = await newBlog();
    const { env } = await import("cloudflare:workers");
    const { runInDurableObject } = await import("cloudflare:test");
    const { dashboardListSql } = await import("../actors/site/storage/items-table");
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    for (const [status, args] of [
      [null, ["x", 24, 0]],
      ["draft", ["x", "draft", 24, 0]],
    ] as const) {
      const plan = await runInDurableObject(stub, (_instance, state) =>
        state.storage.sql
          .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${dashboardListSql(status).page}`, ...args)
          .toArray()
          .map((r) => r.detail)
          .join("\n"),
      );
      expect(plan).toMatch(status ? /USING INDEX items_by_status_seq/ : /USING INDEX items_by_seq/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});
