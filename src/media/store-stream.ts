/**
 * One file's bytes into R2 and the media library, from any reader: an upload's body (the front
 * Worker, src/media/upload-route.ts) or a fetched URL (the site object's copy into the library,
 * actors/site/media/copy.ts). Type from the bytes, per-type size limit, header dimensions and
 * pixel limit, SHA-256 while streaming; the site's side (begin, commit, abort) is reached through
 * `call`, so nothing partial stays in R2 or SQLite when anything fails.
 */
import { ApiError } from "../contract/errors";
import { toHex } from "../ids";
import { sniff, SNIFF_BYTES } from "./sniff";
import { fileTooLarge, kindOf, maxBytesOf, type MediaType, unsupported } from "./types";
import { checkPixels, type Dimensions, HEADER_MAX_BYTES, readDimensions } from "./dimensions";
import { sanitizeSvg } from "./svg";
import { cleanName } from "./disposition";
import type { BeginAnswer, CommitAnswer, MediaCall } from "../contract/media-calls";

/** One step of the site's side of an upload; a refusal is thrown as an ApiError. */
export type Call = (call: MediaCall) => Promise<unknown>;

export interface FileInput {
  /** Replace: the entry whose file this becomes. */
  replaces?: string;
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
        ...(file.replaces ? { replaces: file.replaces } : {}),
      },
    })) as CommitAnswer;
  } catch (err) {
    await forget(env, call, begun);
    throw err;
  }
  // The same bytes were already in the library: the new copy goes.
  if (answer.discard.length > 0) await env.MEDIA.delete(answer.discard).catch(() => undefined);
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
