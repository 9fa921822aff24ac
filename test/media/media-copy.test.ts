/**
 * Copy into library: media added by URL is fetched by the capture's address rules, stored as an
 * uploaded file (type from its bytes, the upload limits, one copy per content), and the items
 * that showed the URL show the stored file, each with a revision.
 */
import { describe, expect, it } from "vitest";
import { addItem, call, callJson, expectStatus, newBlog } from "../helpers";
import { putPage } from "../ssr-helpers";
import { safeFetch, SafeFetchError } from "../../src/net/safe-fetch";
import { get, mediaFile, storedKeys, type Entry } from "./helpers";
import { asMember, siteCall } from "../access/principals";

type Copied = { media: Entry; duplicate: boolean; repointed: number; notRepointed: { collection: string; itemId: string; slug: string }[] };
type Err = { error: { code: string; details?: Record<string, unknown> } };

async function urlMedia(site: { id: string; adminKey: string }, url: string, alt = ""): Promise<string> {
  const made = await callJson<{ media: { mediaId: string } }>("POST", `/sites/${site.id}/media`, {
    auth: site.adminKey,
    body: { url, alt },
  });
  expect(made.status).toBe(201);
  return made.body.media.mediaId;
}

const copy = (site: { id: string; adminKey: string }, mediaId: string) =>
  callJson<Copied & Err>("POST", `/sites/${site.id}/media/${mediaId}/copy`, { auth: site.adminKey });

describe("copy into library", () => {
  it("stores the URL's file, and every item that showed the URL shows the stored file, with a revision", async () => {
    const blog = await newBlog("pro");
    // A plain image host: the bytes under a name with no extension and a wrong type header.
    const url = await putPage(mediaFile("small.jpg"), { path: `/img-${crypto.randomUUID().slice(0, 8)}/cover`, type: "image/png" });
    const first = await urlMedia(blog, url, "A red door");
    // Another entry of the same URL (each `{url}` given with an item makes one).
    const a = await addItem(blog, "posts", { slug: "one", publish: true, data: { title: "One", cover: first } });
    const b = await addItem(blog, "posts", { slug: "two", publish: true, data: { title: "Two", cover: { url, alt: "Door" } } });
    const before = await callJson<{ item: { data: { cover: { url: string } } } }>("GET", `/v1/${blog.token}/collections/posts/items/two`);
    expect(before.body.item.data.cover.url).toBe(url);

    const done = await copy(blog, first);
    expect(done.status).toBe(200);
    expect(done.body.duplicate).toBe(false);
    expect(done.body.repointed).toBe(2);
    const media = done.body.media;
    expect(media.type).toBe("image/jpeg");
    expect(media.name).toBe("cover.jpg");
    expect(media.alt).toBe("A red door");
    expect(media.width).toBeGreaterThan(0);
    expect(media.url).toMatch(new RegExp(`/m/${blog.id}/${media.mediaId}/[0-9a-f]{12}/cover\\.jpg$`));
    expect(media.srcset).toContain("/w/");
    expect((await storedKeys(blog.id)).length).toBe(1);
    const served = await get(media.url);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(mediaFile("small.jpg"));

    for (const slug of ["one", "two"]) {
      const after = await callJson<{ item: { data: { cover: { mediaId: string; url: string; srcset: string } } } }>(
        "GET",
        `/v1/${blog.token}/collections/posts/items/${slug}`,
      );
      expect(after.body.item.data.cover.mediaId).toBe(media.mediaId);
      expect(after.body.item.data.cover.url).toBe(media.url);
    }
    for (const item of [a, b]) {
      const revs = await callJson<{ revisions: { kind: string; note: string | null }[] }>(
        "GET",
        `/sites/${blog.id}/collections/posts/items/${item.id}/revisions`,
        { auth: blog.adminKey },
      );
      expect(revs.body.revisions[0]).toMatchObject({ kind: "edit", note: "media copied into the library" });
    }
    // Copying again: the entry is already stored (its URL entry too: same bytes, nothing new).
    const again = await copy(blog, media.mediaId);
    expect(again.body).toMatchObject({ duplicate: true, repointed: 0 });
    const viaUrl = await copy(blog, first);
    expect(viaUrl.status).toBe(200);
    expect(viaUrl.body.duplicate).toBe(true);
    expect(viaUrl.body.media.mediaId).toBe(media.mediaId);
    expect((await storedKeys(blog.id)).length).toBe(1);
  });

  it("as a Contributor, repoints only their own drafts and names the items left on the URL", async () => {
    const blog = await newBlog("pro");
    const url = await putPage(mediaFile("small.jpg"), { path: `/img-${crypto.randomUUID().slice(0, 8)}/door`, type: "image/jpeg" });
    const contributor = asMember(`ac_${crypto.randomUUID().replace(/-/g, "").slice(0, 26)}`, blog.workspaceId, "contributor");
    // Another author's published item, the contributor's own draft, and their item an editor published.
    const theirs = await addItem(blog, "posts", { slug: "theirs", publish: true, data: { title: "Theirs", cover: { url } } });
    const draft = async (slug: string) => {
      const made = await siteCall(blog.id, contributor, "POST", "/collections/posts/items", {
        slug,
        data: { title: slug, cover: { url } },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return (made.body as unknown as { item: { id: string } }).item.id;
    };
    const mine = await draft("mine");
    const minePublished = await draft("mine-published");
    await expectStatus(
      callJson("POST", `/sites/${blog.id}/collections/posts/items/${minePublished}/publish`, { auth: blog.adminKey }),
      200,
    );
    const entry = await urlMedia(blog, url);

    const done = await siteCall(blog.id, contributor, "POST", `/media/${entry}/copy`);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const body = done.body as unknown as Copied;
    expect(body.repointed).toBe(1);
    expect(body.notRepointed.map((i) => i.slug).sort()).toEqual(["mine-published", "theirs"]);
    expect(body.notRepointed.find((i) => i.slug === "theirs")).toEqual({ collection: "posts", itemId: theirs.id, slug: "theirs" });

    // The public items that are not the contributor's to change still show the URL, unchanged.
    for (const slug of ["theirs", "mine-published"]) {
      const pub = await callJson<{ item: { data: { cover: { url: string } } } }>(
        "GET",
        `/v1/${blog.token}/collections/posts/items/${slug}`,
      );
      expect(pub.body.item.data.cover.url, slug).toBe(url);
    }
    const revs = await callJson<{ revisions: { note: string | null }[] }>(
      "GET",
      `/sites/${blog.id}/collections/posts/items/${theirs.id}/revisions`,
      { auth: blog.adminKey },
    );
    expect(revs.body.revisions.map((r) => r.note)).not.toContain("media copied into the library");
    // Their own draft shows the stored file.
    const own = await callJson<{ item: { data: { cover: string } } }>("GET", `/sites/${blog.id}/collections/posts/items/${mine}`, {
      auth: blog.adminKey,
    });
    expect(own.body.item.data.cover).toBe(body.media.mediaId);
  });

  it("refuses what an upload refuses, and a host's failure, keeping nothing", async () => {
    const blog = await newBlog("pro");
    const page = await putPage("<!doctype html><p>not an image</p>", { type: "text/html" });
    const notImage = await copy(blog, await urlMedia(blog, page));
    expect(notImage.status).toBe(415);
    expect(notImage.body.error.code).toBe("unsupported_media_type");

    const bomb = await putPage(mediaFile("bomb.png"), { type: "image/png" });
    const tooMany = await copy(blog, await urlMedia(blog, bomb));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error.details).toMatchObject({ limit: "pixels" });

    const missing = await putPage("gone", { status: 404 });
    const failed = await copy(blog, await urlMedia(blog, missing));
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: "bad_gateway", details: { reason: "http_status" } });

    const empty = await putPage(new Uint8Array(0), { type: "image/jpeg" });
    expect((await copy(blog, await urlMedia(blog, empty))).status).toBe(400);

    expect((await call("POST", `/sites/${blog.id}/media/md_missing/copy`, { auth: blog.adminKey })).status).toBe(404);
    expect(await storedKeys(blog.id)).toEqual([]);
  });

  it("follows redirects, each hop by the capture's address rules", async () => {
    const blog = await newBlog("pro");
    const target = await putPage(mediaFile("photo.gif"), { type: "image/gif" });
    const hop = await putPage("", { status: 302, location: target });
    const done = await copy(blog, await urlMedia(blog, hop));
    expect(done.status).toBe(200);
    expect(done.body.media.type).toBe("image/gif");
    // The fetcher the copy uses refuses private addresses where the deployment does not allow them.
    const err = await safeFetch("http://10.0.0.5/cover.jpg", {
      allowPrivate: false,
      timeoutMs: 1000,
      maxRedirects: 5,
      accept: "image/*",
      noun: "file",
      hint: "copy files from public addresses only",
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SafeFetchError);
    expect((err as SafeFetchError).reason).toBe("private_address");
  });
});
