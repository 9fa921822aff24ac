// `fields=` on the content API's list and item reads: each item's `data` keeps only the named
// fields, its id, slug and times stay; the cache keeps one answer per set of fields, whatever
// their order; an unknown key is a 400 naming the collection's fields.
import { describe, expect, it } from "vitest";
import { addItem, call, callJson, newBlog } from "./helpers";

interface Listed {
  items: { id: string; slug: string; publishedAt: string; data: Record<string, unknown> }[];
  total: number;
}

describe("fields= on content reads", () => {
  it("keeps only the named fields, on lists and items, one cached answer per set", async () => {
    const site = await newBlog("starter");
    await addItem(site, "posts", { slug: "one", publish: true, data: { title: "One", summary: "The first", body: "<p>Long body</p>" } });
    const v1 = `/v1/${site.token}/collections/posts/items`;
    const full = await callJson<Listed>("GET", v1);
    const slim = await callJson<Listed>("GET", `${v1}?fields=title,summary`);
    expect(slim.status).toBe(200);
    expect(slim.body.total).toBe(full.body.total);
    const [a, b] = [full.body.items[0]!, slim.body.items[0]!];
    expect(b).toEqual({ ...a, data: { title: "One", summary: "The first" } });
    expect(JSON.stringify(slim.body).length).toBeLessThan(JSON.stringify(full.body).length);

    // Another order, a key twice, spaces: the same answer, from the same cache entry.
    const again = await call("GET", `${v1}?fields=summary, title,title`);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(await again.json()).toEqual(slim.body);

    const item = await callJson<{ item: Listed["items"][number] }>("GET", `${v1}/one?fields=title`);
    expect(item.body.item).toMatchObject({ slug: "one", data: { title: "One" } });
    expect(Object.keys(item.body.item.data)).toEqual(["title"]);

    const bad = await callJson<{ error: { code: string; message: string; details: { allowed: string[] } } }>(
      "GET",
      `${v1}?fields=title,colour`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('"colour" is not a field of "posts"');
    expect(bad.body.error.details.allowed).toContain("title");
  });
});
