import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newBlog, newSite } from "./helpers";

describe("creating a collection never replaces one (If-None-Match: *)", () => {
  it("answers 409 conflict for an existing slug and leaves its fields and item values alone", async () => {
    const site = await newBlog();
    const auth = site.adminKey;
    const item = await addItem(site, "posts", { slug: "tomato-soup", data: { title: "Tomato soup", summary: "Red", views: 3 } });
    const r = await callJson<{ error: { code: string; message: string; details: { slug: string } } }>(
      "PUT",
      `/sites/${site.id}/collections/posts`,
      { auth, headers: { "if-none-match": "*" }, body: { name: "Posts", fields: [{ key: "title", type: "text" }] } },
    );
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("conflict");
    expect(r.body.error.details.slug).toBe("posts");
    const schema = await expectStatus(
      callJson<{ collection: { fields: unknown[] } }>("GET", `/sites/${site.id}/collections/posts`, { auth }),
      200,
    );
    expect(schema.collection.fields.length).toBeGreaterThan(1);
    const stored = await expectStatus(
      callJson<{ item: { data: Record<string, unknown> } }>("GET", `/sites/${site.id}/collections/posts/items/${item.id}`, { auth }),
      200,
    );
    expect(stored.item.data).toMatchObject({ title: "Tomato soup", summary: "Red", views: 3 });
  });

  it("creates a collection whose slug is free, and a plain PUT still updates", async () => {
    const site = await newSite();
    const auth = site.adminKey;
    const body = { name: "Jobs", fields: [{ key: "role", type: "text" }] };
    const created = await callJson("PUT", `/sites/${site.id}/collections/jobs`, { auth, headers: { "if-none-match": "*" }, body });
    expect(created.status).toBe(201);
    const again = await callJson("PUT", `/sites/${site.id}/collections/jobs`, { auth, body });
    expect(again.status).toBe(200);
  });
});
