/**
 * Every request body passes through here in the front Worker, whichever route
 * reads it (the front Worker itself, or a site object it is forwarded to):
 *
 * - a declared Content-Length above the limit is refused before anything else;
 * - nothing is read until a route asks for it, so credentials are checked first;
 * - a body that stalls (no byte for `idleMs`) or takes longer than `totalMs`
 *   is cut with 408, one that grows past the limit with 413;
 * - once the answer is known, what the client is still sending is discarded
 *   for a short, bounded while, so a client that pushes a whole refused body
 *   reads the envelope instead of a reset connection.
 */
import { ApiError } from "../contract/errors";
import { MAX_BODY_BYTES } from "../contract/limits";
import { tooLarge } from "./json";

export interface BodyLimits {
  maxBytes: number;
  idleMs: number;
  totalMs: number;
}

export const BODY_LIMITS: BodyLimits = { maxBytes: MAX_BODY_BYTES, idleMs: 10_000, totalMs: 30_000 };

// Discarding a refused body: stop at the first pause longer than this, or after these totals.
const DISCARD = { idleMs: 100, totalMs: 2_000, maxBytes: 64 * 1024 * 1024 };

export function timedOut(limits: BodyLimits): ApiError {
  return new ApiError("request_timeout", `The request body did not arrive in time (${limits.idleMs / 1000} s without data at most).`, {
    idleSeconds: limits.idleMs / 1000,
    totalSeconds: limits.totalMs / 1000,
  });
}

/** A read that gives up after `ms`; the pending read is left to `reader.cancel()`. */
async function readWithin<T>(reader: ReadableStreamDefaultReader<T>, ms: number): Promise<ReadableStreamReadResult<T> | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const late = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), Math.max(0, ms));
  });
  try {
    return await Promise.race([reader.read(), late]);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

export class BodyGuard {
  readonly request: Request;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #failure: ApiError | null = null;
  #finished = true;

  constructor(request: Request, limits: BodyLimits) {
    const declared = Number(request.headers.get("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      this.#failure = tooLarge(limits.maxBytes);
      this.#reader = request.body?.getReader() ?? null;
      this.#finished = this.#reader === null;
      this.request = request;
      return;
    }
    if (!request.body) {
      this.request = request;
      return;
    }
    const reader = (this.#reader = request.body.getReader());
    this.#finished = false;
    const started = Date.now();
    let size = 0;
    const fail = (err: ApiError, controller: ReadableStreamDefaultController<Uint8Array>) => {
      this.#failure = err;
      controller.error(err);
    };
    // highWaterMark 0: nothing is pulled from the client until a route reads.
    const guarded = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          let result: ReadableStreamReadResult<Uint8Array> | "timeout";
          try {
            result = await readWithin(reader, Math.min(limits.idleMs, limits.totalMs - (Date.now() - started)));
          } catch {
            // The client broke off (or sent less than it declared): the request is incomplete, not our failure.
            this.#finished = true;
            return fail(new ApiError("bad_request", "The request body broke off before it was complete."), controller);
          }
          if (result === "timeout") return fail(timedOut(limits), controller);
          if (result.done) {
            this.#finished = true;
            return controller.close();
          }
          size += result.value.byteLength;
          if (size > limits.maxBytes) return fail(tooLarge(limits.maxBytes), controller);
          controller.enqueue(result.value);
        },
      },
      { highWaterMark: 0 },
    );
    this.request = new Request(request, { body: guarded });
  }

  /** Why the body was refused, if it was: this answer replaces whatever the route made of the broken body. */
  failure(): ApiError | null {
    return this.#failure;
  }

  /**
   * After the answer is decided: discard what the client is still sending, for
   * a bounded while, then let the rest go. A silent client costs one short pause;
   * a stalled one has already been cut by the read timeout.
   */
  async settle(): Promise<void> {
    const reader = this.#reader;
    if (!reader || this.#finished || this.#failure?.code === "request_timeout") {
      await reader?.cancel().catch(() => undefined);
      return;
    }
    const until = Date.now() + DISCARD.totalMs;
    let discarded = 0;
    try {
      while (discarded <= DISCARD.maxBytes) {
        const left = until - Date.now();
        if (left <= 0) break;
        const result = await readWithin(reader, Math.min(DISCARD.idleMs, left));
        if (result === "timeout" || result.done) break;
        discarded += result.value.byteLength;
      }
    } catch {
      // The client went away: nothing left to discard.
    }
    await reader.cancel().catch(() => undefined);
  }
}
