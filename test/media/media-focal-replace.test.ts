/**
 * The focal point (stored with the entry, carried by the MediaRef, bound as `object-position`
 * on the server-rendered page) and Replace (new bytes, the same id, a new URL, every item
 * showing it follows with a revision, the old file and its variants gone).
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, call, callJson, expectStatus } from "../helpers";
import { itemPage } from "../fixtures/blog-pages";
import { capture, pathOf, publishedPost, putPage, renderedHtml } from "../ssr-helpers";
import { get, mediaFile, storedKeys, upload, uploaded } from "./helpers";
import { newBlog } from "../helpers";

type Ref = { mediaId: string; url: string; srcset: string; alt: string; focal?: { x: number; y: number } };

function replace(site: { id: string; adminKey: string }, mediaId: string, bytes: Uint8Array, name: string): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/sites/${site.id}/media/${mediaId}/file`, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${site.adminKey}`,
        "x-file-name": encodeURIComponent(name),
        "content-length": String(bytes.byteLength),
      },
      body: bytes,
    }),
  );
}

async function publicCover(token: string, slug: string): Promise<Ref> {
  const r = await callJson<{ item: { data: { cover: Ref } } }>("GET", `/v1/${token}/collections/posts/items/${slug}`);
  return r.body.item.data.cover;
}

describe("focal point", () => {
  it("is stored, carried by the MediaRef and bound as object-position on the rendered page", async () => {
    const site = await newBlog("seo_engine");
    const { media } = await uploaded(await upload(site, mediaFile("photo.jpg"), "door.jpg", { "x-alt": "A red door" }));
    expect(media.focal).toBeNull();
    await publishedPost(site, "door", { title: "Door", cover: media.mediaId });
    const pageUrl = await putPage(itemPage({ service: ORIGIN, token: site.token }));
    await expectStatus(capture(site, { pageUrl, collection: "posts", showsList: false }), 201);
    const before = await renderedHtml(site, `${pathOf(pageUrl)}door`);
    expect(before.html).not.toContain("object-position");

    const patched = await callJson<{ media: Ref }>("PATCH", `/sites/${site.id}/media/${media.mediaId}`, {
      auth: site.adminKey,
      body: { focal: { x: 0.25, y: 0.8 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.media.focal).toEqual({ x: 0.25, y: 0.8 });
    expect(patched.body.media.alt).toBe("A red door");
    expect((await publicCover(site.token, "door")).focal).toEqual({ x: 0.25, y: 0.8 });
    const { html } = await renderedHtml(site, `${pathOf(pageUrl)}door`);
    expect(html).toMatch(
      /<img class="hero" data-oc-field="cover" src="[^"]+" alt="A red door" srcset="[^"]+" style="object-position: 25% 80%">/,
    );

    // Out of range, or not a number: 400, nothing changes.
    for (const focal of [{ x: 1.5, y: 0 }, { x: "0.5", y: 0 }, { x: 0.5 }]) {
      const bad = await call("PATCH", `/sites/${site.id}/media/${media.mediaId}`, { auth: site.adminKey, body: { focal } });
      expect(bad.status).toBe(400);
    }
    expect((await call("PATCH", `/sites/${site.id}/media/${media.mediaId}`, { auth: site.adminKey, body: {} })).status).toBe(400);
    // null: back to the centre; the MediaRef no longer carries one.
    await callJson("PATCH", `/sites/${site.id}/media/${media.mediaId}`, { auth: site.adminKey, body: { focal: null } });
    expect((await publicCover(site.token, "door")).focal).toBeUndefined();
    expect((await renderedHtml(site, `${pathOf(pageUrl)}door`)).html).not.toContain("object-position");
  });
});

describe("replace", () => {
  it("keeps the id, alt and focal point; the URL changes; items follow with a revision; the old bytes and variants go", async () => {
    const site = await newBlog("pro");
    const { media } = await uploaded(await upload(site, mediaFile("photo.jpg"), "door.jpg", { "x-alt": "A door" }));
    await callJson("PATCH", `/sites/${site.id}/media/${media.mediaId}`, { auth: site.adminKey, body: { focal: { x: 0.1, y: 0.2 } } });
    const item = await publishedPost(site, "door", { title: "Door", cover: media.mediaId });
    // A variant exists too.
    const w320 = media.srcset.split(", ")[0]!.split(" ")[0]!;
    expect((await get(w320, { accept: "image/webp" })).status).toBe(200);
    expect((await storedKeys(site.id)).length).toBe(2);

    const res = await replace(site, media.mediaId, mediaFile("photo.png"), "door-new.png");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { media: Ref & { type: string; name: string }; unchanged: boolean };
    expect(body.unchanged).toBe(false);
    expect(body.media).toMatchObject({
      mediaId: media.mediaId,
      alt: "A door",
      focal: { x: 0.1, y: 0.2 },
      type: "image/png",
      name: "door-new.png",
    });
    expect(body.media.url).not.toBe(media.url);
    expect((await get(media.url)).status).toBe(404);
    expect((await get(w320)).status).toBe(404);
    const served = await get(body.media.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    // The old original and its variant are gone; the new original alone is stored.
    const keys = await storedKeys(site.id);
    expect(keys.length).toBe(1);
    expect(keys[0]).toMatch(/\/o\//);

    const cover = await publicCover(site.token, "door");
    expect(cover.mediaId).toBe(media.mediaId);
    expect(cover.url).toBe(body.media.url);
    const revs = await callJson<{ revisions: { kind: string; note: string | null }[] }>(
      "GET",
      `/sites/${site.id}/collections/posts/items/${item.id}/revisions`,
      { auth: site.adminKey },
    );
    expect(revs.body.revisions[0]).toMatchObject({ kind: "edit", note: "media replaced" });

    // The same bytes again: unchanged, nothing new stored.
    const same = await replace(site, media.mediaId, mediaFile("photo.png"), "again.png");
    expect(((await same.json()) as { unchanged: boolean }).unchanged).toBe(true);
    expect((await storedKeys(site.id)).length).toBe(1);
  });

  it("refuses another kind of file, bytes of another entry and an unknown id, keeping nothing", async () => {
    const site = await newBlog("pro");
    const a = (await uploaded(await upload(site, mediaFile("photo.jpg"), "a.jpg"))).media;
    const b = (await uploaded(await upload(site, mediaFile("photo.gif"), "b.gif"))).media;
    const video = await replace(site, a.mediaId, mediaFile("clip.mp4"), "clip.mp4");
    expect(video.status).toBe(415);
    const taken = await replace(site, a.mediaId, mediaFile("photo.gif"), "b-again.gif");
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: { details: { mediaId: string } } }).error.details.mediaId).toBe(b.mediaId);
    expect((await replace(site, "md_missing", mediaFile("small.jpg"), "x.jpg")).status).toBe(404);
    expect((await storedKeys(site.id)).length).toBe(2);
    expect((await get(a.url)).status).toBe(200);
  });
});
