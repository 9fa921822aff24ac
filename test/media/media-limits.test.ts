/** Every upload limit at and over, and nothing partial after a refusal (no R2 object, no row). */
import { env, exports } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { MEDIA_LIMITS } from "../../src/contract/limits";
import { newSite, ORIGIN, type TestSite } from "../helpers";
import { mediaFile, storedKeys, upload, uploaded } from "./helpers";

/** A real JPEG padded after its end marker to exactly `size` bytes (viewers ignore trailing bytes). */
function jpegOfSize(size: number): Uint8Array {
  const head = mediaFile("small.jpg");
  const out = new Uint8Array(size);
  out.set(head);
  return out;
}

async function pendingUploads(siteId: string): Promise<number> {
  const stub = env.SITE.get(env.SITE.idFromName(siteId));
  return runInDurableObject(stub, (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM media_uploads").one().n);
}

async function nothingLeft(site: TestSite): Promise<void> {
  expect(await storedKeys(site.id)).toEqual([]);
  expect(await pendingUploads(site.id)).toBe(0);
}

/**
 * A body that sends `first`, then stalls: a handler that waited for more would answer 408 after
 * the idle limit (2 s in the tests); one that decided from the declared length answers at once.
 */
function stallsAfter(first: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (!sent && first.byteLength > 0) {
        sent = true;
        c.enqueue(first);
      }
      return new Promise(() => undefined);
    },
  });
}

type Err = { error: { code: string; details?: Record<string, unknown> } };

let site: TestSite;
beforeAll(async () => {
  site = await newSite("pro");
});

describe("bytes per file", () => {
  it("an image of exactly the limit is stored", async () => {
    const other = await newSite("pro");
    const res = await upload(other, jpegOfSize(MEDIA_LIMITS.bytes.image), "big.jpg");
    expect(res.status).toBe(201);
    expect((await uploaded(res)).media.bytes).toBe(MEDIA_LIMITS.bytes.image);
  });

  it("one byte over, declared by Content-Length: 413 naming the limit, decided before the body is read", async () => {
    // The body stalls after its first 64 KB: had the upload waited for the rest, the answer would be 408.
    const body = jpegOfSize(MEDIA_LIMITS.bytes.image + 1);
    const res = await upload(site, stallsAfter(body.subarray(0, 64 * 1024)), "big.jpg", { "content-length": String(body.byteLength) });
    expect(res.status).toBe(413);
    const err = (await res.json()) as Err;
    expect(err.error.code).toBe("payload_too_large");
    expect(err.error.details).toMatchObject({ limit: "file", max: MEDIA_LIMITS.bytes.image, type: "image/jpeg" });
    await nothingLeft(site);
  });

  it("an SVG over 1 MiB: 413", async () => {
    const svg = new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg">${"<!-- pad -->".repeat(100_000)}</svg>`);
    expect(svg.byteLength).toBeGreaterThan(MEDIA_LIMITS.bytes.svg);
    const res = await upload(site, svg, "big.svg");
    expect(res.status).toBe(413);
    await nothingLeft(site);
  });

  it("a request over the request cap, by Content-Length: 413 before any byte is read", async () => {
    const res = await upload(site, stallsAfter(new Uint8Array(0)), "huge.mp4", { "content-length": String(MEDIA_LIMITS.requestBytes + 1) });
    expect(res.status).toBe(413);
    const err = (await res.json()) as Err;
    expect(err.error.code).toBe("payload_too_large");
    // Named like the other media 413s (`limit`), with `maxBytes` kept for older clients.
    expect(err.error.details).toEqual({ limit: "request", max: MEDIA_LIMITS.requestBytes, maxBytes: MEDIA_LIMITS.requestBytes });
    await nothingLeft(site);
  });

  it("a raw body without Content-Length: 411 length_required", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(mediaFile("small.jpg"));
        c.close();
      },
    });
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/sites/${site.id}/media/files`, {
        method: "POST",
        headers: { authorization: `Bearer ${site.adminKey}`, "content-type": "image/jpeg" },
        body: stream,
      }),
    );
    expect(res.status).toBe(411);
    expect(((await res.json()) as Err).error.code).toBe("length_required");
    await nothingLeft(site);
  });
});

describe("pixels", () => {
  it("a 33-byte PNG header claiming 60000 × 60000 px: 413 pixels, from its header", async () => {
    const res = await upload(site, mediaFile("bomb.png"), "bomb.png");
    expect(res.status).toBe(413);
    const err = (await res.json()) as Err;
    expect(err.error.details).toMatchObject({ limit: "pixels", width: 60000, height: 60000 });
    await nothingLeft(site);
  });
});

function form(files: { name: string; bytes: Uint8Array; alt?: string }[]): FormData {
  const fd = new FormData();
  for (const f of files) {
    if (f.alt !== undefined) fd.append("alt", f.alt);
    fd.append("file", new File([f.bytes], f.name));
  }
  return fd;
}

async function postForm(s: TestSite, fd: FormData): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/sites/${s.id}/media/files`, { method: "POST", headers: { authorization: `Bearer ${s.adminKey}` }, body: fd }),
  );
}

type Results = {
  results: { name: string; media?: { mediaId: string; type: string; alt: string }; error?: { code: string; details?: unknown } }[];
};

describe("multipart/form-data", () => {
  it("many files in one form, each with its alt; a refused one leaves nothing and the others stand", async () => {
    const other = await newSite("pro");
    const res = await postForm(
      other,
      form([
        { name: "a.jpg", bytes: mediaFile("small.jpg"), alt: "First" },
        { name: "evil.png", bytes: mediaFile("script.png") },
        { name: "b.webp", bytes: mediaFile("photo.webp"), alt: "Second" },
        { name: "logo.svg", bytes: mediaFile("logo.svg") },
      ]),
    );
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as Results;
    expect(results.map((r) => r.media?.type ?? r.error?.code)).toEqual([
      "image/jpeg",
      "unsupported_media_type",
      "image/webp",
      "image/svg+xml",
    ]);
    expect(results[0]!.media!.alt).toBe("First");
    expect(results[2]!.media!.alt).toBe("Second");
    expect((await storedKeys(other.id)).length).toBe(3);
    expect(await pendingUploads(other.id)).toBe(0);
  });

  it(`files per request: ${MEDIA_LIMITS.filesPerRequest} are stored, the next is refused by name`, async () => {
    const other = await newSite("pro");
    // Distinct bytes each (the same bytes would be one entry).
    const files = Array.from({ length: MEDIA_LIMITS.filesPerRequest + 1 }, (_, i) => {
      const b = mediaFile("clip.mp4").slice();
      b[b.length - 1] = i;
      return { name: `clip${i}.mp4`, bytes: b };
    });
    const { results } = (await (await postForm(other, form(files))).json()) as Results;
    expect(results.filter((r) => r.media).length).toBe(MEDIA_LIMITS.filesPerRequest);
    expect(results.at(-1)!.error).toMatchObject({ code: "payload_too_large", details: { limit: "files" } });
    expect((await storedKeys(other.id)).length).toBe(MEDIA_LIMITS.filesPerRequest);
  });

  it("a form part over its type's limit is cut as the count crosses it, leaving no object and no row", async () => {
    const other = await newSite("pro");
    const { results } = (await (
      await postForm(other, form([{ name: "big.jpg", bytes: jpegOfSize(MEDIA_LIMITS.bytes.image + 1) }]))
    ).json()) as Results;
    expect(results[0]!.error).toMatchObject({ code: "payload_too_large", details: { limit: "file" } });
    await nothingLeft(other);
  });
});

describe("storage per plan", () => {
  it("an upload that would pass the plan's storage: 413 storage, nothing kept", async () => {
    const other = await newSite("starter");
    const stub = env.SITE.get(env.SITE.idFromName(other.id));
    // The library as if it already held the plan's storage less 4 KB of files (small.jpg is 5 KB, photo.gif 2 KB).
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec(
        "INSERT INTO media (id, url, alt, created_at, object_key, sha256, type, bytes, name) VALUES ('md_full', 'https://x/y', '', '2026-01-01T00:00:00Z', 's/x/o/full', 'ff', 'video/mp4', ?, 'full.mp4')",
        MEDIA_LIMITS.storageBytes.starter - 4096,
      );
    });
    const res = await upload(other, mediaFile("small.jpg"), "one-more.jpg");
    expect(res.status).toBe(413);
    expect(((await res.json()) as Err).error.details).toMatchObject({ limit: "storage", limitBytes: MEDIA_LIMITS.storageBytes.starter });
    expect(await storedKeys(other.id)).toEqual([]);
    expect(await pendingUploads(other.id)).toBe(0);
    // A file that fits is still taken.
    expect((await upload(other, mediaFile("photo.gif"), "fits.gif")).status).toBe(201);
  });
});
