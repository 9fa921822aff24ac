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
import { toHex } from "../ids";
import { siteCallerHeaders, siteWriteAllowed } from "./site-caller";
import { sniff, SNIFF_BYTES } from "../media/sniff";
import { fileTooLarge, kindOf, maxBytesOf, type MediaType, unsupported } from "../media/types";
import { checkPixels, type Dimensions, HEADER_MAX_BYTES, readDimensions } from "../media/dimensions";
import { sanitizeSvg } from "../media/svg";
import { cleanName } from "../media/disposition";
import type { BeginAnswer, CommitAnswer, MediaCall, Refused } from "../contract/media-calls";
import { uploadForm } from "./media-form";

type Call = (call: MediaCall) => Promise<unknown>;

export async function uploadMedia(request: Request, env: Env, siteId: string | undefined): Promise<Response> {
  const headers = await siteCallerHeaders(request, env, siteId);
  const id = siteId!;
  await siteWriteAllowed(request, env, id);
  const auth: [string, string][] = Object.entries(headers);
  const authorization = request.headers.get("authorization");
  if (authorization) auth.push(["authorization", authorization]);
  const stub = siteStub(env, id);
  const call: Call = async (c) => {
    const r = (await stub.mediaUpload(auth, c)) as unknown;
    if (r && typeof r === "object" && "error" in r) {
      const { error } = r as Refused;
      throw new ApiError(error.code, error.message, error.details);
    }
    return r;
  };
  const origin = new URL(request.url).origin;
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) return uploadForm(request, env, call, origin, storeStream);
  const declared = request.headers.get("content-length");
  if (declared === null || !/^\d+$/.test(declared))
    throw new ApiError("length_required", "Send the file with a Content-Length (a raw body), or as multipart/form-data.");
  const length = Number(declared);
  if (length === 0) throw new ApiError("bad_request", "The file is empty (0 bytes).");
  const name = headerText(request, "x-file-name") ?? "";
  const alt = headerText(request, "x-alt") ?? "";
  if (alt.length > MEDIA_LIMITS.altChars) throw new ApiError("bad_request", `Alt text may be at most ${MEDIA_LIMITS.altChars} characters.`);
  const result = await storeStream(env, call, request.body!.getReader(), { length, name, alt, origin });
  return json(result, result.duplicate ? 200 : 201);
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

interface FileInput {
  /** The exact byte count (raw body), or null when unknown (a form part). */
  length: number | null;
  name: string;
  alt: string;
  origin: string;
}

/** Reads until `want` bytes are in hand (or the body ends). */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, want: number): Promise<{ head: Uint8Array; done: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < want) {
    const r = await reader.read();
    if (r.done) return { head: concat(chunks, size), done: true };
    chunks.push(r.value);
    size += r.value.byteLength;
  }
  return { head: concat(chunks, size), done: false };
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * One file from `reader` into R2 and the library: sniff, per-type limit, header dimensions and
 * pixel limit, SHA-256 and count in one pass, nothing kept when anything fails.
 */
export async function storeStream(
  env: Env,
  call: Call,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  file: FileInput,
): Promise<{ media: CommitAnswer["media"]; duplicate: boolean }> {
  const { head, done } = await readHead(reader, SNIFF_BYTES);
  if (head.byteLength === 0) throw new ApiError("bad_request", "The file is empty (0 bytes).");
  const type = sniff(head);
  if (!type) throw unsupported();
  const max = maxBytesOf(type);
  if (file.length !== null && file.length > max) throw fileTooLarge(type, max);
  if (kindOf(type) === "svg") {
    const whole = await readAll(reader, head, done, max, type);
    return storeBytes(env, call, sanitizeSvg(whole), type, file);
  }
  if (done && file.length === null) return storeBytes(env, call, head, type, file);
  const begun = (await call({ op: "begin", bytes: file.length ?? max })) as BeginAnswer;
  let stored: { sha256: string; bytes: number; dims: Dimensions | null };
  try {
    stored = await streamToR2(env, begun, reader, head, done, type, max, file.length, call);
  } catch (err) {
    await forget(env, call, begun);
    throw err;
  }
  return commit(env, call, begun, type, stored, file);
}

async function forget(env: Env, call: Call, begun: BeginAnswer): Promise<void> {
  await env.MEDIA.delete(begun.key).catch(() => undefined);
  await call({ op: "abort", uploadId: begun.uploadId }).catch(() => undefined);
}

async function commit(
  env: Env,
  call: Call,
  begun: BeginAnswer,
  type: MediaType,
  stored: { sha256: string; bytes: number; dims: Dimensions | null },
  file: FileInput,
): Promise<{ media: CommitAnswer["media"]; duplicate: boolean }> {
  let answer: CommitAnswer;
  try {
    answer = (await call({
      op: "commit",
      input: {
        uploadId: begun.uploadId,
        sha256: stored.sha256,
        type,
        bytes: stored.bytes,
        width: stored.dims?.width ?? null,
        height: stored.dims?.height ?? null,
        name: cleanName(file.name, type),
        alt: file.alt,
        origin: file.origin,
        createdBy: null,
      },
    })) as CommitAnswer;
  } catch (err) {
    await forget(env, call, begun);
    throw err;
  }
  // The same bytes were already in the library: the new copy goes.
  if (answer.discard) await env.MEDIA.delete(answer.discard).catch(() => undefined);
  return { media: answer.media, duplicate: answer.duplicate };
}

async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  head: Uint8Array,
  done: boolean,
  max: number,
  type: MediaType,
): Promise<Uint8Array> {
  const chunks = [head];
  let size = head.byteLength;
  while (!done) {
    const r = await reader.read();
    if (r.done) break;
    size += r.value.byteLength;
    if (size > max) throw fileTooLarge(type, max);
    chunks.push(r.value);
  }
  return concat(chunks, size);
}

/** A small file whose bytes are all in hand (an SVG after sanitising, a tiny form part): one put. */
async function storeBytes(
  env: Env,
  call: Call,
  bytes: Uint8Array,
  type: MediaType,
  file: FileInput,
): Promise<{ media: CommitAnswer["media"]; duplicate: boolean }> {
  let dims: Dimensions | null = null;
  if (type.startsWith("image/")) {
    dims = readDimensions(bytes.slice(0, HEADER_MAX_BYTES));
    if (dims) checkPixels(dims);
    else if (type !== "image/svg+xml")
      throw new ApiError("unsupported_media_type", "The image's size cannot be read: the file is truncated or damaged.");
  }
  const sha256 = toHex(await crypto.subtle.digest("SHA-256", bytes));
  const begun = (await call({ op: "begin", bytes: bytes.byteLength })) as BeginAnswer;
  try {
    await env.MEDIA.put(begun.key, bytes, { httpMetadata: { contentType: type } });
  } catch (err) {
    await forget(env, call, begun);
    throw err;
  }
  return commit(env, call, begun, type, { sha256, bytes: bytes.byteLength, dims }, file);
}

/** Bytes of a form part are buffered into parts of this size (R2: all but the last part the same size, each ≥ 5 MiB). */
const PART_BYTES = 10 * 1024 * 1024;

/**
 * The file's bytes into R2 as they arrive: with a known length through a FixedLengthStream and
 * one put (R2 needs the length), otherwise through a multipart upload of equal 10 MiB parts.
 */
async function streamToR2(
  env: Env,
  begun: BeginAnswer,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  head: Uint8Array,
  done: boolean,
  type: MediaType,
  max: number,
  length: number | null,
  call: Call,
): Promise<{ sha256: string; bytes: number; dims: Dimensions | null }> {
  const digest = new crypto.DigestStream("SHA-256");
  const hash = digest.getWriter();
  const image = kindOf(type) === "image";
  let dims: Dimensions | null = null;
  let headChunks: Uint8Array[] | null = image ? [] : null;
  let headSize = 0;
  let seen = 0;
  const sink = length !== null ? fixedSink(env, begun.key, length, type) : await multipartSink(env, begun, type, call);
  const feed = async (chunk: Uint8Array) => {
    seen += chunk.byteLength;
    if (seen > max) throw fileTooLarge(type, max);
    if (headChunks) {
      headChunks.push(chunk.slice(0, HEADER_MAX_BYTES - headSize));
      headSize = Math.min(HEADER_MAX_BYTES, headSize + chunk.byteLength);
      dims = readDimensions(concat(headChunks, headSize).slice());
      if (dims) {
        checkPixels(dims);
        headChunks = null;
      } else if (headSize >= HEADER_MAX_BYTES) throw cannotReadSize();
    }
    await hash.write(chunk);
    await sink.write(chunk);
  };
  try {
    await feed(head);
    while (!done) {
      const r = await reader.read();
      if (r.done) break;
      await feed(r.value);
    }
    if (image && !dims) throw cannotReadSize();
    if (length !== null && seen !== length) throw new ApiError("bad_request", "The request body broke off before it was complete.");
    await hash.close();
    await sink.close();
  } catch (err) {
    await sink.abort(err);
    throw err;
  }
  return { sha256: toHex(await digest.digest), bytes: seen, dims };
}

function cannotReadSize(): ApiError {
  return new ApiError("unsupported_media_type", "The image's size cannot be read from its header: the file is truncated or damaged.");
}

interface Sink {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(reason: unknown): Promise<void>;
}

function fixedSink(env: Env, key: string, length: number, type: MediaType): Sink {
  const fixed = new FixedLengthStream(length);
  const writer = fixed.writable.getWriter();
  const put = env.MEDIA.put(key, fixed.readable, { httpMetadata: { contentType: type } });
  // A failed put surfaces at close(); until then it must not be an unhandled rejection.
  put.catch(() => undefined);
  return {
    write: (chunk) => writer.write(chunk),
    close: async () => {
      await writer.close();
      await put;
    },
    abort: async (reason) => {
      await writer.abort(reason).catch(() => undefined);
      await put.catch(() => undefined);
    },
  };
}

async function multipartSink(env: Env, begun: BeginAnswer, type: MediaType, call: Call): Promise<Sink> {
  const upload = await env.MEDIA.createMultipartUpload(begun.key, { httpMetadata: { contentType: type } });
  // Recorded before the first part: an upload nobody completes is invisible to list(), and the sweep aborts it by id.
  await call({ op: "multipart", uploadId: begun.uploadId, multipartId: upload.uploadId });
  let buf = new Uint8Array(PART_BYTES);
  let fill = 0;
  const parts: R2UploadedPart[] = [];
  const flush = async (last: boolean) => {
    if (fill === 0 && !(last && parts.length === 0)) return;
    parts.push(await upload.uploadPart(parts.length + 1, last ? buf.slice(0, fill) : buf));
    buf = new Uint8Array(PART_BYTES);
    fill = 0;
  };
  return {
    async write(chunk) {
      for (let off = 0; off < chunk.byteLength;) {
        const take = Math.min(PART_BYTES - fill, chunk.byteLength - off);
        buf.set(chunk.subarray(off, off + take), fill);
        fill += take;
        off += take;
        if (fill === PART_BYTES) await flush(false);
      }
    },
    async close() {
      await flush(true);
      await upload.complete(parts);
    },
    abort: async () => {
      await upload.abort().catch(() => undefined);
    },
  };
}
