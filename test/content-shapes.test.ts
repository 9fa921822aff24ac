import { describe, expect, it } from "vitest";
import { addItem, call, callJson, newBlog } from "./helpers";

const PUBLIC = "public, s-maxage=31536000";

describe("public content API shapes", () => {
  it("answers the list with exactly {items, page, limit, total, totalPages}, cacheable at the edge", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const { status, body, res } = await callJson("GET", `/v1/${site.token}/collections/posts/items`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["items", "limit", "page", "total", "totalPages"]);
    expect(res.headers.get("cache-control")).toBe(PUBLIC);
    const again = await call("GET", `/v1/${site.token}/collections/posts/items`, {
      headers: { "if-none-match": res.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe(PUBLIC);
  });

  it("answers a single item with exactly {item}", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    for (let i = 0; i < 2; i++) {
      const { status, body, res } = await callJson("GET", `/v1/${site.token}/collections/posts/items/a`);
      expect(status).toBe(200);
      expect(Object.keys(body)).toEqual(["item"]);
      expect(res.headers.get("cache-control")).toBe(PUBLIC);
      expect(res.headers.get("x-cache")).toBe(i === 0 ? "MISS" : "HIT");
    }
  });

  it("gives renderers the field types of a collection and the collections it references", async () => {
    const site = await newBlog("starter");
    const { status, body, res } = await callJson("GET", `/v1/${site.token}/collections/posts/schema`);
    expect(status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(PUBLIC);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(body).toEqual({
      schema: {
        posts: expect.objectContaining({ title: "text", body: "richText", author: "reference", cover: "image" }),
        authors: { name: "text" },
      },
      labels: {}, // neither collection has option fields
    });
    expect((await call("GET", `/v1/${site.token}/collections/nope/schema`)).status).toBe(404);
  });

  it("answers a gallery as the MediaRefs an image field expands to, in order", async () => {
    const site = await newBlog();
    await callJson("PUT", `/sites/${site.id}/collections/products`, {
      auth: site.adminKey,
      body: {
        name: "Products",
        fields: [
          { key: "cover", type: "image" },
          { key: "photos", type: "gallery" },
        ],
      },
    });
    const front = { url: "https://img.test/front.jpg", alt: "Front" };
    await addItem(site, "products", {
      slug: "pot",
      publish: true,
      data: { cover: front, photos: [front, { url: "https://img.test/back.jpg", alt: "Back" }] },
    });
    const { body } = await callJson<{ item: { data: { cover: Record<string, unknown>; photos: Record<string, unknown>[] } } }>(
      "GET",
      `/v1/${site.token}/collections/products/items/pot`,
    );
    const { cover, photos } = body.item.data;
    expect(photos.map((m) => m["alt"])).toEqual(["Front", "Back"]);
    for (const m of photos) expect(Object.keys(m).sort()).toEqual(Object.keys(cover).sort());
    const schema = await callJson<{ schema: Record<string, Record<string, string>> }>(
      "GET",
      `/v1/${site.token}/collections/products/schema`,
    );
    expect(schema.body.schema["products"]).toEqual({ cover: "image", photos: "gallery" });
  });
});
