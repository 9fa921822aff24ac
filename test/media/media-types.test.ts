/**
 * Uploads by type: the type is read from the file's own bytes (never its name or Content-Type),
 * dimensions from its header, and what is refused leaves nothing in R2 or the library.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newSite, type TestSite } from "../helpers";
import { MEDIA_TYPES } from "../../src/contract/limits";
import { get, mediaFile, storedKeys, upload, uploaded } from "./helpers";

let site: TestSite;
beforeAll(async () => {
  site = await newSite("pro");
});

describe("upload: each accepted type by its bytes", () => {
  const cases: [string, string, number | null, number | null][] = [
    ["small.jpg", "image/jpeg", 800, 500],
    ["photo.png", "image/png", 640, 480],
    ["photo.webp", "image/webp", 1000, 667],
    ["photo.avif", "image/avif", 600, 400],
    ["photo.gif", "image/gif", 300, 200],
    ["logo.svg", "image/svg+xml", 120, 60],
    ["clip.mp4", "video/mp4", null, null],
    ["clip.webm", "video/webm", null, null],
    ["doc.pdf", "application/pdf", null, null],
  ];
  for (const [name, type, width, height] of cases) {
    it(`${name} is stored as ${type}, served back byte for byte`, async () => {
      const bytes = mediaFile(name);
      const res = await upload(site, bytes, name, { "content-type": "text/plain" });
      expect(res.status).toBe(201);
      const { media, duplicate } = await uploaded(res);
      expect(duplicate).toBe(false);
      expect(media.type).toBe(type);
      expect(media.width).toBe(width ?? undefined);
      expect(media.height).toBe(height ?? undefined);
      const served = await get(media.url);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(type);
      expect(served.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      const back = new Uint8Array(await served.arrayBuffer());
      // SVG is rebuilt by the sanitiser; every other type is served as sent.
      if (type !== "image/svg+xml") {
        expect(back.byteLength).toBe(bytes.byteLength);
        expect(back).toEqual(bytes);
        expect(media.bytes).toBe(bytes.byteLength);
      }
    });
  }

  it("a PNG named .jpg is a PNG, stored under a .png name", async () => {
    const other = await newSite("pro");
    const { media } = await uploaded(await upload(other, mediaFile("photo.png"), "holiday.jpg", { "x-alt": "A%20beach" }));
    expect(media.type).toBe("image/png");
    expect(media.name).toBe("holiday.png");
    expect(media.alt).toBe("A beach");
  });

  it("a phone photo with EXIF orientation 6 is stored with its shown size (portrait)", async () => {
    const { media } = await uploaded(await upload(site, mediaFile("portrait.jpg"), "phone.jpg"));
    expect([media.width, media.height]).toEqual([800, 1200]);
  });
});

describe("upload: refused types leave nothing", () => {
  const refused: [string, string][] = [
    ["script.png", "a script named .png"],
    ["photo.heic", "HEIC (an ISO file that is not AVIF or MP4)"],
    ["clip.mkv", "Matroska that is not WebM"],
  ];
  for (const [name, what] of refused) {
    it(`${what}: 415 naming the accepted types`, async () => {
      const other = await newSite("pro");
      const res = await upload(other, mediaFile(name), name, { "content-type": "image/png" });
      expect(res.status).toBe(415);
      const body = (await res.json()) as { error: { code: string; details: { accepted: string[] } } };
      expect(body.error.code).toBe("unsupported_media_type");
      // The nine documented types (docs/media.md "Media uploads"), in the contract's order.
      expect(body.error.details.accepted).toEqual([...MEDIA_TYPES]);
      expect(MEDIA_TYPES.length).toBe(9);
      expect(await storedKeys(other.id)).toEqual([]);
    });
  }

  it("a zero-byte file: 400, nothing stored", async () => {
    const other = await newSite("pro");
    const res = await upload(other, new Uint8Array(0), "empty.jpg");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/empty/);
    expect(await storedKeys(other.id)).toEqual([]);
  });

  it("a truncated JPEG (its header cut before the size): 415, nothing stored", async () => {
    const other = await newSite("pro");
    const cut = mediaFile("photo.jpg").slice(0, 100);
    const res = await upload(other, cut, "cut.jpg");
    expect(res.status).toBe(415);
    expect(await storedKeys(other.id)).toEqual([]);
    const list = (await (await get(`/sites/${other.id}/media`, { authorization: `Bearer ${other.adminKey}` })).json()) as { total: number };
    expect(list.total).toBe(0);
  });

  it("a truncated image header (a 3-byte JPEG signature only): 415", async () => {
    const res = await upload(site, new Uint8Array([0xff, 0xd8, 0xff]), "tiny.jpg");
    expect(res.status).toBe(415);
  });
});

describe("dedupe", () => {
  it("the same bytes twice are stored once: the second answer is the first entry", async () => {
    const other = await newSite("pro");
    const first = await uploaded(await upload(other, mediaFile("small.jpg"), "a.jpg"));
    const again = await upload(other, mediaFile("small.jpg"), "b.jpg");
    expect(again.status).toBe(200);
    const second = await uploaded(again);
    expect(second.duplicate).toBe(true);
    expect(second.media.mediaId).toBe(first.media.mediaId);
    expect((await storedKeys(other.id)).length).toBe(1);
  });

  it("the same bytes sent concurrently: one entry, one object", async () => {
    const other = await newSite("pro");
    const answers = await Promise.all([1, 2, 3, 4].map((i) => upload(other, mediaFile("photo.webp"), `c${i}.webp`).then(uploaded)));
    expect(new Set(answers.map((a) => a.media.mediaId)).size).toBe(1);
    expect(answers.filter((a) => !a.duplicate).length).toBe(1);
    expect((await storedKeys(other.id)).length).toBe(1);
  });

  it("different files sent concurrently: all stored", async () => {
    const other = await newSite("pro");
    const names = ["photo.jpg", "photo.png", "photo.gif", "doc.pdf", "clip.mp4"];
    const answers = await Promise.all(names.map((n) => upload(other, mediaFile(n), n).then(uploaded)));
    expect(new Set(answers.map((a) => a.media.mediaId)).size).toBe(names.length);
    expect((await storedKeys(other.id)).length).toBe(names.length);
  });
});
