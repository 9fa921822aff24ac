/**
 * Resized variants of a stored image, made by the Images binding (Miniflare's own on sharp
 * locally), once: the first request transforms and keeps the result in R2 (the site lists its
 * key, so delete and sweep find it) and in the edge cache; later ones read either.
 */
import { ApiError } from "../contract/errors";
import { siteStub } from "../stubs";
import { contentDisposition } from "./disposition";
import { FORMAT_EXT, resizable, variantFormat, variantWidths } from "./variants";
import { log, errorText } from "../log";
import type { ServedFile } from "../contract/media-calls";
import { MEDIA_CACHE_CONTROL } from "../contract/cache-control";
import { MEDIA_SAFETY, matches } from "./headers";

export async function variantAnswer(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  siteId: string,
  file: ServedFile,
  width: number,
): Promise<Response | null> {
  if (!resizable(file.type) || file.width === null || !variantWidths(file.width).includes(width)) return null;
  const format = variantFormat(request.headers.get("accept"), width, file.type);
  const ext = FORMAT_EXT[format];
  const etag = `"${file.sha256.slice(0, 32)}-${width}-${ext}"`;
  const headers = new Headers({
    ...MEDIA_SAFETY,
    "content-type": format,
    "cache-control": MEDIA_CACHE_CONTROL,
    etag,
    vary: "Accept",
    "content-disposition": contentDisposition(file.name.replace(/\.[^.]+$/, `-${width}.${ext}`)),
  });
  if (matches(request.headers.get("if-none-match"), etag)) {
    headers.set("x-cache", "HIT");
    return new Response(null, { status: 304, headers });
  }
  const cache = await caches.open("media");
  const cacheKey = new Request(`${new URL(request.url).origin}/__media/${siteId}/${file.id}/${file.sha256}/${width}.${ext}`);
  const hit = await cache.match(cacheKey);
  if (hit) return withBody(request, hit, headers, "HIT");
  const key = `${file.object_key.replace("/o/", "/v/")}/${width}.${ext}`;
  let bytes: ArrayBuffer;
  // X-Cache: whether this answer was made now (MISS) or kept from before (HIT), as the content API says it.
  let made = "HIT";
  const stored = await env.MEDIA.get(key);
  if (stored) bytes = await stored.arrayBuffer();
  else {
    made = "MISS";
    const original = await env.MEDIA.get(file.object_key);
    if (!original) return null;
    try {
      const out = await env.IMAGES.input(original.body).transform({ width, fit: "scale-down" }).output({ format, quality: 80 });
      // The binding's stream has no known length, and R2 needs one: a variant is small, so it is buffered.
      bytes = await out.response().arrayBuffer();
    } catch (err) {
      log("media_variant_failed", { siteId, mediaId: file.id, width, format, error: errorText(err) });
      throw new ApiError("bad_gateway", "This image could not be resized; the original is still served at its own URL.", undefined, {
        ...MEDIA_SAFETY,
      });
    }
    await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: format } });
    await siteStub(env, siteId).mediaVariant(file.object_key, width, format, key, bytes.byteLength);
  }
  headers.set("content-length", String(bytes.byteLength));
  const response = new Response(bytes, { status: 200, headers });
  ctx.waitUntil(cache.put(cacheKey, response.clone()));
  return withBody(request, response, headers, made);
}

function withBody(request: Request, response: Response, headers: Headers, cache: string): Response {
  const out = new Headers(response.status === 200 ? response.headers : headers);
  out.set("x-cache", cache);
  return new Response(request.method === "HEAD" ? null : response.body, { status: 200, headers: out });
}
