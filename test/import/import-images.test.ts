/**
 * Images given as URLs in an import are copied into the media library by the import's job (the
 * safe fetcher, stored as an upload is), from a plain image host. A URL that cannot be copied
 * stays URL media and the row's report line says why; the row is imported, not failed.
 */
import { describe, expect, it } from "vitest";
import { callJson, newBlog } from "../helpers";
import { putPage } from "../ssr-helpers";
import { get, mediaFile, storedKeys } from "../media/helpers";
import { importFile, rowsOf } from "./helpers";

type Cover = { mediaId: string; url: string; srcset?: string };

describe("import: images given as URLs", () => {
  it("copies each into the library once and the items show the library's file; a failed copy keeps the URL with a note", async () => {
    const blog = await newBlog("pro");
    const dir = `/img-${crypto.randomUUID().slice(0, 8)}`;
    // The customer's image host: plain files, one under a name without an extension.
    const door = await putPage(mediaFile("small.jpg"), { path: `${dir}/door`, type: "image/jpeg" });
    const missing = `${door.slice(0, door.lastIndexOf("/"))}/gone.jpg`;
    const csv = [
      "Title,Slug,Cover,Draft",
      `Door,door,${door},false`,
      `Same door,same-door,${door},false`,
      `Gone,gone,${missing},false`,
      "No image,no-image,,false",
    ].join("\r\n");

    const end = await importFile(blog, "posts", csv);
    expect(end.state).toBe("done");
    expect(end.done).toEqual({ created: 4, updated: 0, skipped: 0, failed: 0 });

    const read = async (slug: string) =>
      (await callJson<{ item: { data: { cover?: Cover | null } } }>("GET", `/v1/${blog.token}/collections/posts/items/${slug}`)).body.item
        .data.cover;
    const one = (await read("door"))!;
    const two = (await read("same-door"))!;
    // Served by us, from the library: the same file for both rows (the same bytes are stored once).
    expect(one.url).toMatch(new RegExp(`/m/${blog.id}/${one.mediaId}/[0-9a-f]{12}/door\\.jpg$`));
    expect(two.mediaId).toBe(one.mediaId);
    expect((await storedKeys(blog.id)).length).toBe(1);
    const served = await get(one.url);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(mediaFile("small.jpg"));
    // The host answered 404: the item shows the URL, and the row is imported with a note saying why.
    expect((await read("gone"))!.url).toBe(missing);
    expect(await read("no-image")).toBeUndefined();
    const noted = await rowsOf(blog, end.id, "noted");
    expect(noted.map((r) => [r.slug, r.done])).toEqual([["gone", "created"]]);
    expect(noted[0]!.problems).toEqual([]);
    expect(noted[0]!.notes).toEqual([
      { column: "Cover", value: missing, reason: expect.stringMatching(/^kept as a link to the image: .*404/) },
    ]);
    // Every other row has no note.
    const all = await rowsOf(blog, end.id);
    expect(all.filter((r) => r.notes.length).map((r) => r.slug)).toEqual(["gone"]);
  });
});
