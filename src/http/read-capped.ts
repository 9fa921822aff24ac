import { guardOf } from "./guarded-bodies";

/**
 * Reads a body to the end, refusing (and cancelling) it as soon as it passes `maxBytes`,
 * or as soon as `signal` aborts (rejecting with its reason).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const aborted = signal ? abortOf(signal) : null;
  for (;;) {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = aborted ? await Promise.race([reader.read(), aborted]) : await reader.read();
    } catch (err) {
      await reader.cancel().catch(() => undefined);
      throw err;
    }
    const { done, value } = result;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return joinChunks(chunks, size);
}

/** The chunks of a body as one array (`size`: their total length); a single chunk as it is. */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.byteLength;
  }
  return all;
}

function abortOf(signal: AbortSignal): Promise<never> {
  const p = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  p.catch(() => undefined);
  return p;
}

/**
 * A request's whole body, refused past `maxBytes`. With a declared Content-Length within the cap
 * the runtime reads exactly that many bytes in one native call (HTTP framing ends the body
 * there; a body guard in front still applies its limits); without one, `readCapped` counts as it reads.
 */
export async function readBodyBytes(request: Request, maxBytes: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  // A body the front Worker's guard watches: the guard reads it whole, under its limits.
  const guard = guardOf(request);
  if (guard) {
    const bytes = await guard.readAll();
    if (bytes.byteLength > maxBytes) throw tooLarge();
    return bytes;
  }
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (!Number.isInteger(declared) || declared < 0 || declared > maxBytes) return readCapped(request.body, maxBytes, tooLarge);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw tooLarge();
  return bytes;
}
