import { describe, expect, it } from "vitest";
import { addItem, callJson, newBlog } from "./helpers";

describe("smoke", () => {
  it("creates a site, publishes an item and reads it back", async () => {
    const site = await newBlog("pro");
    await addItem(site, "posts", { slug: "hello", data: { title: "Hello" }, publish: true });
    const list = await callJson<{ items: { slug: string }[] }>("GET", `/v1/${site.token}/collections/posts/items`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i) => i.slug)).toEqual(["hello"]);
  });
});
