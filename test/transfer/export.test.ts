import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { addItem, call, callJson, expectStatus, newBlog, type TestSite } from "../helpers";

async function blogWithPosts(): Promise<{ site: TestSite; ids: { ada: string; hello: string } }> {
  const site = await newBlog();
  const ada = await addItem(site, "authors", { slug: "ada", data: { name: "Ada" }, publish: true });
  const bob = await addItem(site, "authors", { slug: "bob", data: { name: "Bob" } });
  const hello = await addItem(site, "posts", {
    slug: "hello",
    publish: true,
    data: {
      title: 'Hello, "world"',
      body: "<p>First line</p>\r\n<p>second, with a comma</p>",
      views: 12,
      featured: true,
      date: "2025-08-12T07:53:00.000Z",
      author: ada.id,
      coauthors: [ada.id, bob.id],
      cover: { url: "https://images.example/cover.jpg", alt: "Cover" },
    },
  });
  await addItem(site, "posts", { slug: "draft", data: { title: "A draft" } });
  return { site, ids: { ada: ada.id, hello: hello.id } };
}

describe("exports", () => {
  it("writes a collection as Webflow-shaped CSV that parses back to the same values", async () => {
    const { site, ids } = await blogWithPosts();
    const res = await call("GET", `/sites/${site.id}/collections/posts/export.csv`, { auth: site.adminKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="posts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM (Response.text() would drop it)
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith("Name,Slug,Collection ID,Locale ID,Item ID,Archived,Draft,Created On,Updated On,Published On,")).toBe(true);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    const hello = rows.find((r) => r.Slug === "hello")!;
    expect(hello).toMatchObject({
      Name: 'Hello, "world"',
      "Item ID": ids.hello,
      Archived: "false",
      Draft: "false",
      body: "<p>First line</p>\r\n<p>second, with a comma</p>",
      views: "12",
      featured: "true",
      date: "2025-08-12T07:53:00.000Z",
      author: "ada",
      coauthors: "ada; bob",
      cover: "https://images.example/cover.jpg",
    });
    expect(hello["Published On"]).not.toBe("");
    expect(rows.find((r) => r.Slug === "draft")).toMatchObject({ Draft: "true", "Published On": "", featured: "" });
    const missing = await callJson("GET", `/sites/${site.id}/collections/nope/export.csv`, { auth: site.adminKey });
    expect(missing.status).toBe(404);
  });

  it("streams a collection larger than one page, every item once", async () => {
    const site = await newBlog();
    for (let b = 0; b < 2; b++) {
      const items = Array.from({ length: 700 }, (_, i) => ({ slug: `p${b}-${i}`, data: { title: `Post ${b}-${i}` } }));
      await expectStatus(
        callJson("POST", `/sites/${site.id}/collections/posts/items:batch`, { auth: site.adminKey, body: { items } }),
        201,
      );
    }
    const csv = parse(await (await call("GET", `/sites/${site.id}/collections/posts/export.csv`, { auth: site.adminKey })).text(), {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(csv).toHaveLength(1400);
    expect(new Set(csv.map((r) => r.Slug)).size).toBe(1400);
    const doc = JSON.parse(await (await call("GET", `/sites/${site.id}/export.json`, { auth: site.adminKey })).text()) as {
      items: unknown[];
    };
    expect(doc.items).toHaveLength(1400);
  });

  it("writes the whole site as one JSON document without any secret", async () => {
    const { site, ids } = await blogWithPosts();
    await expectStatus(
      callJson("POST", `/sites/${site.id}/webhooks`, {
        auth: site.adminKey,
        body: { url: "http://127.0.0.1:9/hook", events: ["item.created"] },
      }),
      201,
    );
    const res = await call("GET", `/sites/${site.id}/export.json`, { auth: site.adminKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="${site.id}-export-`));
    const text = await res.text();
    const doc = JSON.parse(text) as {
      format: string;
      version: number;
      site: { name: string };
      collections: { slug: string; fields: { key: string }[] }[];
      media: { url: string }[];
      items: { collection: string; id: string; slug: string; status: string; data: Record<string, unknown> }[];
    };
    expect(doc).toMatchObject({ format: "open-content-edge/site-export", version: 1, site: { name: "Test site" } });
    expect(doc.collections.map((c) => c.slug)).toEqual(["authors", "posts"]);
    expect(doc.media.map((m) => m.url)).toContain("https://images.example/cover.jpg");
    expect(doc.items).toHaveLength(4);
    const hello = doc.items.find((i) => i.id === ids.hello)!;
    expect(hello).toMatchObject({ collection: "posts", slug: "hello", status: "published" });
    expect(hello.data.author).toBe(ids.ada);
    // One item per line.
    expect(text.split("\n").filter((l) => l.startsWith('{"collection":'))).toHaveLength(4);
    for (const secret of [site.adminKey, site.token, "whsec_", "adminKeyHash", "admin_key_hash", "webhookSecret", "secret"])
      expect(text, secret).not.toContain(secret);
  });
});
