/**
 * Variants through the real local Images binding (Miniflare's, on sharp): every srcset width is
 * an image of that width, in the format Accept allows, made once and kept.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { newSite, type TestSite } from "../helpers";
import { type Entry, get, mediaFile, upload, uploaded } from "./helpers";

let site: TestSite;
let photo: Entry;

const candidates = (srcset: string) =>
  srcset.split(", ").map((c) => {
    const [url, w] = c.split(" ");
    return { url: url!, width: Number(w!.replace("w", "")) };
  });

async function widthOf(res: Response): Promise<number> {
  const info = await env.IMAGES.info(res.body!);
  return "width" in info ? info.width : -1;
}

async function variantRows(siteId: string): Promise<number> {
  const stub = env.SITE.get(env.SITE.idFromName(siteId));
  return runInDurableObject(stub, (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM media_variants").one().n);
}

beforeAll(async () => {
  site = await newSite("pro");
  photo = (await uploaded(await upload(site, mediaFile("photo.jpg"), "photo.jpg"))).media;
});

describe("srcset of an uploaded image", () => {
  it("lists the service's own widths, never wider than the original, and the original is served at most 2000 px", async () => {
    expect(candidates(photo.srcset).map((c) => c.width)).toEqual([320, 640, 960, 1280, 1920, 2000]);
    const original = await get(photo.url, { accept: "image/webp" });
    expect(original.status).toBe(200);
    expect(original.headers.get("content-type")).toBe("image/webp");
    expect(await widthOf(original)).toBe(2000);
  });

  it("each srcset URL is an image of the width it claims (WebP when accepted)", async () => {
    for (const c of candidates(photo.srcset)) {
      const r = await get(c.url, { accept: "image/webp,image/*" });
      expect(r.status, c.url).toBe(200);
      expect(r.headers.get("content-type")).toBe("image/webp");
      expect(r.headers.get("vary")).toMatch(/accept/i);
      expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(r.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
      expect(await widthOf(r), c.url).toBe(c.width);
    }
  });

  it("AVIF when accepted, up to 1200 px; JPEG when neither is accepted", async () => {
    const [w320, , , w1280] = candidates(photo.srcset);
    const avif = await get(w320!.url, { accept: "image/avif,image/webp" });
    expect(avif.headers.get("content-type")).toBe("image/avif");
    expect(await widthOf(avif)).toBe(320);
    const big = await get(w1280!.url, { accept: "image/avif,image/webp" });
    expect(big.headers.get("content-type")).toBe("image/webp");
    await big.arrayBuffer();
    const plain = await get(w320!.url, { accept: "*/*" });
    expect(plain.headers.get("content-type")).toBe("image/jpeg");
    expect(await widthOf(plain)).toBe(320);
  });

  it("a variant is made once: asking again adds no variant and answers the same bytes", async () => {
    const s = await newSite("pro");
    const small = (await uploaded(await upload(s, mediaFile("small.jpg"), "small.jpg"))).media;
    expect(candidates(small.srcset).map((c) => c.width)).toEqual([320, 640, 800]);
    const url = candidates(small.srcset)[1]!.url;
    const a = await get(url, { accept: "image/webp" });
    expect(a.headers.get("x-cache")).toBe("MISS");
    const first = new Uint8Array(await a.arrayBuffer());
    expect(await variantRows(s.id)).toBe(1);
    const b = await get(url, { accept: "image/webp" });
    expect(b.headers.get("x-cache")).toBe("HIT");
    const second = new Uint8Array(await b.arrayBuffer());
    expect(await variantRows(s.id)).toBe(1);
    expect(second).toEqual(first);
    // Its R2 copy is listed under the original's key.
    const keys = (await env.MEDIA.list({ prefix: `s/${s.id}/v/` })).objects.map((o) => o.key);
    expect(keys).toEqual([expect.stringMatching(/\/640\.webp$/)]);
  });

  it("a width that is not in the srcset is 404 (no arbitrary resizing)", async () => {
    const url = candidates(photo.srcset)[0]!.url.replace("/w/320/", "/w/321/");
    expect((await get(url)).status).toBe(404);
  });

  it("GIF and SVG are not resized: their srcset names the original", async () => {
    const s = await newSite("pro");
    const gif = (await uploaded(await upload(s, mediaFile("photo.gif"), "anim.gif"))).media;
    expect(gif.srcset).toBe(`${gif.url} 300w`);
    expect((await get(gif.url.replace(/\/([^/]+)$/, "/w/320/$1"))).status).toBe(404);
  });
});
