/** Serving stored files: validators, immutable caching, Range, safe names, sandbox, and 404 for anything not this site's. */
import { beforeAll, describe, expect, it } from "vitest";
import { newSite, type TestSite } from "../helpers";
import { SERVICE_TOKEN_HEADER } from "../../src/contract/headers";
import { type Entry, get, mediaFile, pathOf, upload, uploaded } from "./helpers";

let site: TestSite;
let video: Entry;
let bytes: Uint8Array;

beforeAll(async () => {
  site = await newSite("pro");
  bytes = mediaFile("clip.mp4");
  video = (await uploaded(await upload(site, bytes, "clip.mp4"))).media;
});

describe("caching and validators", () => {
  it("a strong ETag, a year of immutable caching, 304 for If-None-Match", async () => {
    const r = await get(video.url);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(r.headers.get("accept-ranges")).toBe("bytes");
    expect(r.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const again = await get(video.url, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });
});

describe("Range", () => {
  const range = async (h: string) => get(video.url, { range: h });
  it("bytes=0-0 is the first byte", async () => {
    const r = await range("bytes=0-0");
    expect(r.status).toBe(206);
    expect(r.headers.get("content-range")).toBe(`bytes 0-0/${bytes.byteLength}`);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytes.subarray(0, 1));
  });
  it("bytes=-1 is the last byte", async () => {
    const r = await range("bytes=-1");
    expect(r.status).toBe(206);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytes.subarray(bytes.byteLength - 1));
  });
  it("bytes=100- is the rest from 100", async () => {
    const r = await range("bytes=100-");
    expect(r.status).toBe(206);
    expect(r.headers.get("content-range")).toBe(`bytes 100-${bytes.byteLength - 1}/${bytes.byteLength}`);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytes.subarray(100));
  });
  it("an end past the file is clamped to it", async () => {
    const r = await range(`bytes=10-${bytes.byteLength + 500}`);
    expect(r.status).toBe(206);
    expect((await r.arrayBuffer()).byteLength).toBe(bytes.byteLength - 10);
  });
  it("a start past the end: 416 with the file's size in Content-Range", async () => {
    const r = await range(`bytes=${bytes.byteLength}-`);
    expect(r.status).toBe(416);
    expect(r.headers.get("content-range")).toBe(`bytes */${bytes.byteLength}`);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("range_not_satisfiable");
  });
  it("several ranges, or nonsense: the whole file (200)", async () => {
    for (const h of ["bytes=0-1,5-6", "pages=1-2", "bytes=5-2"]) {
      const r = await range(h);
      expect(r.status, h).toBe(200);
      expect((await r.arrayBuffer()).byteLength, h).toBe(bytes.byteLength);
    }
  });
});

describe("names", () => {
  const names = [
    ['My "holiday" photo.jpg', 'filename="My holiday photo.jpg"'],
    ["../../etc/passwd.jpg", 'filename="etcpasswd.jpg"'],
    ["a\\b/c.jpg", 'filename="abc.jpg"'],
    ["fête 🎉.jpg", "filename*=UTF-8''f%C3%AAte%20%F0%9F%8E%89.jpg"],
  ];
  for (const [name, expected] of names) {
    it(`${JSON.stringify(name)} is served inline under a safe name`, async () => {
      const s = await newSite("pro");
      const { media } = await uploaded(await upload(s, mediaFile("small.jpg"), name!));
      expect(pathOf(media.url)).toMatch(/^\/m\/[^/]+\/md_[^/]+\/[0-9a-f]{12}\/[A-Za-z0-9._-]+$/);
      const r = await get(media.url);
      const cd = r.headers.get("content-disposition")!;
      expect(cd.startsWith("inline; ")).toBe(true);
      expect(cd).toContain(expected);
      expect(cd).not.toMatch(/[\r\n]/);
    });
  }
});

describe("404 for anything not this site's", () => {
  it("another site's id with this media id, a wrong hash, an unknown id: 404 in the envelope", async () => {
    const other = await newSite("pro");
    const parts = pathOf(video.url).split("/");
    const tries = [
      [...parts.slice(0, 2), other.id, ...parts.slice(3)].join("/"),
      [...parts.slice(0, 4), "000000000000", ...parts.slice(5)].join("/"),
      [...parts.slice(0, 3), "md_doesnotexist00000000", ...parts.slice(4)].join("/"),
      "/m/not-a-site/md_x/000000000000/x.jpg",
    ];
    for (const path of tries) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("not_found");
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});

describe("the site's own paths", () => {
  it("/_media/... through the proxy route (x-service-token) serves the same bytes; another site's token does not", async () => {
    const path = pathOf(video.url).replace(/^\/m\/[^/]+\//, "/_media/");
    const r = await get(path, { [SERVICE_TOKEN_HEADER]: site.token });
    expect(r.status).toBe(200);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytes);
    const other = await newSite("pro");
    expect((await get(path, { [SERVICE_TOKEN_HEADER]: other.token })).status).toBe(404);
  });
});
