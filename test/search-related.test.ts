import { describe, expect, it } from "vitest";
import { callJson, expectStatus } from "./helpers";
import { settleIndex, siteWith } from "./search-helpers";

type Related = { items: { slug: string; collection: string; data: Record<string, unknown> }[] };

const DOGS = [
  { slug: "puppy-sit", title: "Teaching a puppy to sit and stay", summary: "Short sessions with treats teach young dogs to sit." },
  { slug: "puppy-house", title: "House-training a new puppy", summary: "Take the young dog outside after meals and praise it." },
  { slug: "dog-recall", title: "Teaching your dog to come when called", summary: "Train a reliable recall with rewards." },
  { slug: "taxes", title: "Paying quarterly estimated taxes", summary: "Freelancers send income tax payments four times a year." },
];

describe("related items", () => {
  it("returns similar items of the collection, never the item itself, never off-topic ones", async () => {
    const site = await siteWith(DOGS);
    await settleIndex(site);
    const { status, body } = await callJson<Related>("GET", `/v1/${site.token}/collections/notes/items/puppy-sit/related`);
    expect(status).toBe(200);
    const slugs = body.items.map((i) => i.slug);
    expect(slugs).not.toContain("puppy-sit");
    expect(slugs).not.toContain("taxes");
    expect(slugs[0]).toBe("puppy-house");
  });

  it("clamps limit", async () => {
    const site = await siteWith(Array.from({ length: 4 }, (_, i) => ({ slug: `dog-${i}`, title: `Teaching a puppy to sit, lesson ${i}` })));
    await settleIndex(site);
    const n = async (limit: string) =>
      (await callJson<Related>("GET", `/v1/${site.token}/collections/notes/items/dog-0/related?limit=${limit}`)).body.items.length;
    expect(await n("1")).toBe(1);
    expect(await n("0")).toBe(1);
    expect(await n("500")).toBe(3);
    expect(await n("x")).toBe(3);
  });

  it("answers 404 for an unknown or unpublished item", async () => {
    const site = await siteWith(DOGS);
    await settleIndex(site);
    const missing = await callJson<{ error: { code: string } }>("GET", `/v1/${site.token}/collections/notes/items/nope/related`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
    const { body } = await callJson<{ items: { id: string; slug: string }[] }>("GET", `/sites/${site.id}/collections/notes/items`, {
      auth: site.adminKey,
    });
    const id = body.items.find((i) => i.slug === "puppy-house")!.id;
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/notes/items/${id}/unpublish`, { auth: site.adminKey }), 200);
    expect((await callJson("GET", `/v1/${site.token}/collections/notes/items/puppy-house/related?u=1`)).status).toBe(404);
    // Nor does it appear as related to anything else.
    const others = await callJson<Related>("GET", `/v1/${site.token}/collections/notes/items/puppy-sit/related?u=1`);
    expect(others.body.items.map((i) => i.slug)).not.toContain("puppy-house");
  });

  it("serves items in the content API shape, media as MediaRef and references resolved", async () => {
    const site = await siteWith([]);
    const key = site.adminKey;
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/authors`, { auth: key, body: { fields: [{ key: "name", type: "text" }] } }),
      201,
    );
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts`, {
        auth: key,
        body: {
          fields: [
            { key: "title", type: "text" },
            { key: "cover", type: "image" },
            { key: "author", type: "reference", collection: "authors" },
          ],
        },
      }),
      201,
    );
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/authors/items`, {
        auth: key,
        body: { slug: "ann", data: { name: "Ann" }, publish: true },
      }),
      201,
    );
    for (const [slug, title] of [
      ["sit", "Teaching a puppy to sit and stay"],
      ["stay", "Teaching a young puppy to stay and sit"],
    ]) {
      await expectStatus(
        callJson("POST", `/sites/${site.id}/collections/posts/items`, {
          auth: key,
          body: { slug, data: { title, author: "ann", cover: { url: "https://img.test/p.jpg", alt: "pup", width: 800 } }, publish: true },
        }),
        201,
      );
    }
    await settleIndex(site);
    const related = await callJson<Related>("GET", `/v1/${site.token}/collections/posts/items/sit/related`);
    expect(related.body.items.map((i) => i.slug)).toEqual(["stay"]);
    const item = related.body.items[0]!;
    expect(item.data.author).toMatchObject({ slug: "ann", data: { name: "Ann" } });
    expect(item.data.cover).toMatchObject({ url: "https://img.test/p.jpg", alt: "pup", width: 800 });
    expect(item.data.cover).toHaveProperty("srcset");
    const searched = await callJson<{ results: { item: unknown }[] }>(
      "GET",
      `/v1/${site.token}/search?q=${encodeURIComponent("puppy obedience")}`,
    );
    expect(searched.body.results.map((r) => r.item)).toContainEqual(item);
  });
});
