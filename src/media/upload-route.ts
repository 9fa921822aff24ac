/**
 * Uploads into a site's media library (POST /sites/:siteId/media/files). The front Worker streams
 * the body into R2 itself; the site object only reserves before the first byte and commits after
 * the last (actors/site/media/calls.ts), so it stays free while bytes arrive and a failed stream
 * leaves nothing in SQLite. Type from the bytes, size from the header, hash while streaming.
 */
import { ApiError } from "../contract/errors";
import { MEDIA_LIMITS } from "../contract/limits";
import { json } from "../http/json";
import { siteStub } from "../stubs";
import { siteWriteCaller } from "../identity/site-caller";
import { unlessRefused } from "../contract/refusal";
import { type Call, storeStream } from "./store-stream";
import { uploadForm } from "./upload-form";

export async function uploadMedia(request: Request, env: Env, siteId: string | undefined): Promise<Response> {
  const call = await siteCall(request, env, siteId);
  const origin = new URL(request.url).origin;
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) return uploadForm(request, env, call, origin);
  const { length, name, alt } = rawFile(request);
  const result = await storeStream(env, call, request.body!.getReader(), { length, name, alt, origin });
  return json(result, result.duplicate ? 200 : 201);
}

/**
 * Replace (PUT /sites/:siteId/media/:mediaId/file): new bytes for an entry, same id, alt text and
 * focal point; its URL changes with the bytes, every item showing it shows the new file, and the
 * old file and its variants go. A raw body only (one file).
 */
export async function replaceMedia(request: Request, env: Env, siteId: string | undefined, mediaId: string): Promise<Response> {
  const call = await siteCall(request, env, siteId, mediaId);
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? ""))
    throw new ApiError("bad_request", "Send the new file as a raw body (its bytes, with Content-Length), not as a form.");
  const { length, name } = rawFile(request);
  const result = await storeStream(env, call, request.body!.getReader(), {
    length,
    name,
    alt: "",
    origin: new URL(request.url).origin,
    replaces: mediaId,
  });
  return json({ media: result.media, unchanged: result.duplicate });
}

/** The site object's side of an upload, as the caller (its headers go with every step, checked there). */
async function siteCall(request: Request, env: Env, siteId: string | undefined, replaces?: string): Promise<Call> {
  const { id, auth } = await siteWriteCaller(request, env, siteId);
  const stub = siteStub(env, id);
  return async (c) => {
    return unlessRefused((await stub.mediaUpload(auth, c, replaces)) as unknown);
  };
}

/** A raw body's length (required: R2 needs it before the first byte), name and alt text. */
function rawFile(request: Request): { length: number; name: string; alt: string } {
  const declared = request.headers.get("content-length");
  if (declared === null || !/^\d+$/.test(declared))
    throw new ApiError("length_required", "Send the file with a Content-Length (a raw body), or as multipart/form-data.");
  const length = Number(declared);
  if (length === 0) throw new ApiError("bad_request", "The file is empty (0 bytes).");
  const name = headerText(request, "x-file-name") ?? "";
  const alt = headerText(request, "x-alt") ?? "";
  if (alt.length > MEDIA_LIMITS.altChars) throw new ApiError("bad_request", `Alt text may be at most ${MEDIA_LIMITS.altChars} characters.`);
  return { length, name, alt };
}

function headerText(request: Request, header: string): string | null {
  const raw = request.headers.get(header);
  if (raw === null) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError("bad_request", `${header} must be percent-encoded UTF-8.`);
  }
}
