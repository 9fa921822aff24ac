/** Delete: refused while items show the file, or detached from them; bytes and variants go. The sweep removes what a crash left. */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addItem, call, callJson, newBlog, newSite } from "../helpers";
import { get, mediaFile, storedKeys, upload, uploaded } from "./helpers";

const siteStub = (id: string) => env.SITE.get(env.SITE.idFromName(id));

describe("delete", () => {
  it("409 with the items that use it; ?detach=true removes it from them, then bytes and variants are gone", async () => {
    const blog = await newBlog("pro");
    const { media } = await uploaded(await upload(blog, mediaFile("small.jpg"), "cover.jpg"));
    // A variant exists too.
    const w320 = media.srcset.split(", ")[0]!.split(" ")[0]!;
    expect((await get(w320, { accept: "image/webp" })).status).toBe(200);
    expect((await storedKeys(blog.id)).length).toBe(2);
    await addItem(blog, "posts", { slug: "hello", publish: true, data: { title: "Hello", cover: media.mediaId } });
    const before = await callJson<{ item: { data: { cover?: { url: string } } } }>(
      "GET",
      `/v1/${blog.token}/collections/posts/items/hello`,
    );
    expect(before.body.item.data.cover?.url).toBe(media.url);

    const refused = await callJson<{ error: { code: string; details: { usedBy: { slug: string; field: string }[] } } }>(
      "DELETE",
      `/sites/${blog.id}/media/${media.mediaId}`,
      { auth: blog.adminKey },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict");
    expect(refused.body.error.details.usedBy).toEqual([expect.objectContaining({ slug: "hello", field: "cover" })]);
    expect((await get(media.url)).status).toBe(200);

    const done = await callJson<{ deleted: boolean; detached: number }>("DELETE", `/sites/${blog.id}/media/${media.mediaId}?detach=true`, {
      auth: blog.adminKey,
    });
    expect(done.status).toBe(200);
    expect(done.body.detached).toBe(1);
    expect(await storedKeys(blog.id)).toEqual([]);
    expect((await get(media.url)).status).toBe(404);
    const after = await callJson<{ item: { data: { cover?: unknown; title: string } } }>(
      "GET",
      `/v1/${blog.token}/collections/posts/items/hello`,
    );
    expect(after.body.item.data.title).toBe("Hello");
    expect(after.body.item.data.cover).toBeUndefined();
    expect((await call("DELETE", `/sites/${blog.id}/media/${media.mediaId}`, { auth: blog.adminKey })).status).toBe(404);
  });

  it("an unused file is deleted at once", async () => {
    const site = await newSite("pro");
    const { media } = await uploaded(await upload(site, mediaFile("photo.gif"), "x.gif"));
    expect((await call("DELETE", `/sites/${site.id}/media/${media.mediaId}`, { auth: site.adminKey })).status).toBe(200);
    expect(await storedKeys(site.id)).toEqual([]);
  });
});

describe("the daily sweep", () => {
  it("an upload killed mid-way (row, partial multipart upload, stray object) leaves nothing after the sweep", async () => {
    const site = await newSite("pro");
    const kept = (await uploaded(await upload(site, mediaFile("photo.png"), "kept.png"))).media;
    const stub = siteStub(site.id);
    // As the front Worker leaves things when its process dies between the first part and the commit.
    const key = `s/${site.id}/o/killed0000000000000000000000000`;
    const mp = await env.MEDIA.createMultipartUpload(key);
    await mp.uploadPart(1, new Uint8Array(5 * 1024 * 1024));
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec(
        "INSERT INTO media_uploads (id, object_key, multipart_id, reserved_bytes, started_at, expires_at) VALUES ('killed', ?, ?, 100, 0, 1)",
        key,
        mp.uploadId,
      );
    });
    // And an object no row names at all (a delete whose byte removal failed).
    await env.MEDIA.put(`s/${site.id}/o/stray000000000000000000000000000`, new Uint8Array(10));
    expect((await storedKeys(site.id)).length).toBe(2);
    // The sweep is due (the job runs daily; here now).
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE jobs SET run_at = 0 WHERE kind = 'media-sweep'");
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = await storedKeys(site.id);
    expect(left).toEqual([expect.stringMatching(/\/o\//)]);
    expect((await get(kept.url)).status).toBe(200);
    const rows = await runInDurableObject(
      stub,
      (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM media_uploads").one().n,
    );
    expect(rows).toBe(0);
    // The multipart upload was aborted: R2 no longer knows it.
    await expect(env.MEDIA.resumeMultipartUpload(key, mp.uploadId).uploadPart(2, new Uint8Array(10))).rejects.toThrow();
    // And the sweep comes back tomorrow.
    const next = await runInDurableObject(
      stub,
      (_i, state) => state.storage.sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'media-sweep'").one().run_at,
    );
    expect(next).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });
});
