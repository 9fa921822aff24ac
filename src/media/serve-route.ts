/**
 * Public reads of stored files: `/m/<site>/<media>/<hash>[/w/<width>]/<name>` on the service, and
 * `/_media/...` on a site's custom hostname and proxy route. The hash in the path is the file's
 * version, so the bytes are cached for a year (immutable). Every answer is sandboxed: an SVG or PDF
 * opened directly has an opaque origin and runs nothing, so it never reaches the dashboard's cookies.
 */
import { ApiError } from "../contract/errors";
import { MEDIA_CACHE_CONTROL } from "../contract/cache-control";
import { siteStub } from "../stubs";
import { mayBeIssued } from "../edge/issued";
import { parseRange } from "./range";
import { contentDisposition } from "./disposition";
import type { MediaTarget } from "./urls";
import { variantAnswer } from "./variant-route";
import { MEDIA_SAFETY, matches } from "./headers";

function notFound(): ApiError {
  return new ApiError("not_found", "No such media file.", undefined, { ...MEDIA_SAFETY });
}

export async function serveMedia(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  siteId: string,
  target: MediaTarget,
): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") throw new ApiError("method_not_allowed", "Media files answer GET and HEAD.");
  if (!(await mayBeIssued(env, siteId))) throw notFound();
  const file = await siteStub(env, siteId).mediaFile(target.mediaId, target.hash);
  if (!file) throw notFound();
  if (target.width !== null || file.servedWidth !== null) {
    const variant = await variantAnswer(request, env, ctx, siteId, file, target.width ?? file.servedWidth!);
    if (!variant) throw notFound();
    return variant;
  }
  const etag = `"${file.sha256}"`;
  const headers = new Headers({
    ...MEDIA_SAFETY,
    "content-type": file.type,
    "cache-control": MEDIA_CACHE_CONTROL,
    etag,
    "accept-ranges": "bytes",
    "content-disposition": contentDisposition(file.name),
  });
  if (matches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  // If-Range with another version: the whole file.
  const ifRange = request.headers.get("if-range");
  const range = ifRange !== null && ifRange !== etag ? ({ kind: "whole" } as const) : parseRange(request.headers.get("range"), file.bytes);
  if (range.kind === "unsatisfiable") {
    throw new ApiError(
      "range_not_satisfiable",
      `The requested range is outside the file (${file.bytes} bytes).`,
      { size: file.bytes },
      {
        ...MEDIA_SAFETY,
        "content-range": `bytes */${file.bytes}`,
      },
    );
  }
  const object = await env.MEDIA.get(
    file.object_key,
    range.kind === "part" ? { range: { offset: range.offset, length: range.length } } : {},
  );
  if (!object) throw notFound();
  if (range.kind === "part") {
    headers.set("content-range", `bytes ${range.offset}-${range.offset + range.length - 1}/${file.bytes}`);
    headers.set("content-length", String(range.length));
    return new Response(request.method === "HEAD" ? null : object.body, { status: 206, headers });
  }
  headers.set("content-length", String(file.bytes));
  return new Response(request.method === "HEAD" ? null : object.body, { status: 200, headers });
}
