import { beforeAll, describe, expect, it } from "vitest";
import { addItem, callJson, newBlog, type TestSite } from "./helpers";
import { settleIndex } from "./search-helpers";

// `*` is not percent-encoded by encodeURIComponent or URLSearchParams, so a client's query that
// ends in `*` reaches the Worker as a URL ending in `*`. Only a target with no path at all is the
// asterisk form (test/e2e/asterisk-form.test.ts); these are ordinary requests with their usual answers.
let site: TestSite;
beforeAll(async () => {
  site = await newBlog("pro");
  await addItem(site, "posts", { slug: "tomato-soup", data: { title: "Tomato soup*" }, publish: true });
  await settleIndex(site);
});

interface Err {
  error?: { code: string; message: string };
}

describe("request targets that end in *", () => {
  it("a search for tomato* answers 200 with results, not 400", async () => {
    const r = await callJson<{ results?: unknown[] } & Err>("GET", `/v1/${site.token}/search?q=${encodeURIComponent("tomato*")}`);
    expect(r.body.error?.message).toBeUndefined();
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body.results)).toBe(true);
  });

  it("a list filter whose value ends in * answers 200 and filters by the literal value", async () => {
    const q = new URLSearchParams({ "filter[title]": "Tomato soup*" }).toString().replace(/%2A/gi, "*");
    expect(q.endsWith("*")).toBe(true);
    const r = await callJson<{ items?: { slug: string }[] } & Err>("GET", `/v1/${site.token}/collections/posts/items?${q}`);
    expect(r.body.error?.message).toBeUndefined();
    expect(r.status).toBe(200);
    expect(r.body.items?.map((i) => i.slug)).toEqual(["tomato-soup"]);
  });

  it("a rendered path ending in * is routed, not refused as the asterisk form", async () => {
    const r = await callJson<Err>("GET", `/v1/${site.token}/collections/posts/items/star*`);
    expect(r.status).toBe(404);
    expect(r.body.error?.code).not.toBe("bad_request");
  });
});
