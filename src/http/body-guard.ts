/**
 * Every request body passes through here in the front Worker, whichever route
 * reads it (the front Worker itself, or a site object it is forwarded to):
 *
 * - a declared Content-Length above the limit is refused before anything else;
 * - nothing is read until a route asks for it, so credentials are checked first;
 * - a body that stalls (no byte for `idleMs`) or takes longer than `totalMs`
 *   is cut with 408, one that grows past the limit with 413; a dashboard write's body with a
 *   declared length of at most ONE_READ_BYTES is read in one call and must arrive within `idleMs`;
 * - once the answer is known, what the client is still sending is discarded
 *   for a short, bounded while, so a client that pushes a whole refused body
 *   reads the envelope instead of a reset connection.
 */
import { ApiError } from "../contract/errors";
import { MAX_BODY_BYTES } from "../contract/limits";
import { tooLarge } from "./json";
import { type GuardedBody, watchBody } from "./guarded-bodies";
import { joinChunks } from "./read-capped";

export interface BodyLimits {
  maxBytes: number;
  idleMs: number;
  totalMs: number;
}

export const BODY_LIMITS: BodyLimits = { maxBytes: MAX_BODY_BYTES, idleMs: 10_000, totalMs: 30_000 };

/**
 * A declared body up to this size, read whole (a dashboard write's JSON: most are a few KB), is read
 * in one call that must end within the idle limit: at 10 s that is a pace of 1.6 KB/s, below which
 * a body this small is as good as stalled. Larger ones keep the idle and total limits per chunk.
 */
const ONE_READ_BYTES = 16 * 1024;

// Discarding a refused body: stop at the first pause longer than this, or after these totals.
const DISCARD = { idleMs: 100, totalMs: 2_000, maxBytes: 64 * 1024 * 1024 };

export function timedOut(limits: BodyLimits, small = false): ApiError {
  const bound = small ? `a body this small within ${limits.idleMs / 1000} s` : `${limits.idleMs / 1000} s without data at most`;
  return new ApiError("request_timeout", `The request body did not arrive in time (${bound}).`, {
    idleSeconds: limits.idleMs / 1000,
    totalSeconds: limits.totalMs / 1000,
  });
}

/** `work`'s result, or "timeout" after `ms` (what is pending is left to the caller to cancel). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const late = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

const readWithin = <T>(reader: ReadableStreamDefaultReader<T>, ms: number) => within(reader.read(), ms);

export class BodyGuard implements GuardedBody {
  readonly request: Request;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #failure: ApiError | null = null;
  #finished = true;
  // One chunk of the client's body under the limits, for the guarded stream and readAll alike.
  #next: (() => Promise<Uint8Array | null>) | null = null;
  // Whether the guarded stream or readAll took the body (only one of them ever reads it).
  #taken = false;
  // A declared body the route reads whole: its limits, for one read of it all (readAll).
  #declaredWhole: BodyLimits | null = null;
  // The body's declared length (Content-Length), within the limit; NaN when it declares none.
  #declared = Number.NaN;

  /**
   * `whole`: the request's route reads the body whole before it forwards anything (the dashboard
   * API: bufferedInternalRequest, readJsonObject), so the client's request is handed on as it is
   * and the guard reads the body itself when asked (readAll), with no JavaScript stream in between.
   * Its body stays locked to the guard: a route that tried to forward it raw would fail loudly
   * instead of handing an unguarded body on. Otherwise the routes get a copy whose body is the
   * guarded stream.
   */
  constructor(request: Request, limits: BodyLimits, whole = false) {
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
    if (whole && Number.isSafeInteger(declared) && declared >= 0 && declared <= ONE_READ_BYTES) {
      // The HTTP framing ends this body at its declared length: the runtime reads it in one
      // native call (readAll), with no reader, chunk reads or timer per chunk.
      this.#finished = false;
      this.#declaredWhole = limits;
      this.request = request;
      watchBody(request, this);
      return;
    }
    if (Number.isSafeInteger(declared) && declared >= 0) this.#declared = declared;
    const reader = (this.#reader = request.body.getReader());
    this.#finished = false;
    const started = Date.now();
    let size = 0;
    const fail = (err: ApiError): never => {
      this.#failure = err;
      throw err;
    };
    // The next chunk (null at the end), or the refusal: each read waits at most the idle limit
    // and what is left of the total one; the byte cap counts every chunk.
    this.#next = async () => {
      let result: ReadableStreamReadResult<Uint8Array> | "timeout";
      try {
        result = await readWithin(reader, Math.min(limits.idleMs, limits.totalMs - (Date.now() - started)));
      } catch {
        // The client broke off (or sent less than it declared): the request is incomplete, not our failure.
        this.#finished = true;
        return fail(new ApiError("bad_request", "The request body broke off before it was complete."));
      }
      if (result === "timeout") return fail(timedOut(limits));
      if (result.done) {
        this.#finished = true;
        return null;
      }
      size += result.value.byteLength;
      if (size > limits.maxBytes) return fail(tooLarge(limits.maxBytes));
      return result.value;
    };
    const next = this.#next;
    if (whole) {
      this.request = request;
      watchBody(request, this);
      return;
    }
    // highWaterMark 0: nothing is pulled from the client until a route reads.
    const guarded = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          this.#taken = true;
          let chunk: Uint8Array | null;
          try {
            chunk = await next();
          } catch (err) {
            return controller.error(err);
          }
          if (chunk === null) return controller.close();
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    this.request = new Request(request, { body: guarded });
    watchBody(this.request, this);
  }

  /**
   * The whole body, read with the same limits as the guarded stream (idle and total time, bytes)
   * but without going through one: a dashboard write reads its body once, whole, before it is
   * forwarded, and making and pulling a JavaScript stream for it was the largest front-Worker
   * cost of a save (docs/history.md). A refusal is recorded as the stream's is.
   */
  async readAll(): Promise<Uint8Array> {
    if (this.#taken) throw new Error("BodyGuard.readAll: the body was already taken");
    this.#taken = true;
    if (this.#declaredWhole) return this.#readDeclared(this.#declaredWhole);
    const next = this.#next;
    if (next === null) throw new Error("BodyGuard.readAll: the request has no body");
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let chunk = await next(); chunk !== null; chunk = await next()) {
      chunks.push(chunk);
      size += chunk.byteLength;
      // The HTTP framing ends a body at its declared length: once that many bytes came, the next
      // read could only say "done". Not waiting for it saves a read and its timer per request;
      // `settle` then releases the stream as it does after the end.
      if (size === this.#declared) {
        this.#finished = true;
        break;
      }
    }
    return joinChunks(chunks, size);
  }

  /** A small declared body (ONE_READ_BYTES) in one read under one timer, the idle limit. */
  async #readDeclared(limits: BodyLimits): Promise<Uint8Array> {
    let result: ArrayBuffer | "timeout";
    try {
      result = await within(this.request.arrayBuffer(), Math.min(limits.idleMs, limits.totalMs));
    } catch {
      this.#finished = true;
      throw (this.#failure = new ApiError("bad_request", "The request body broke off before it was complete."));
    }
    if (result === "timeout") throw (this.#failure = timedOut(limits, true));
    this.#finished = true;
    return new Uint8Array(result);
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
    // A declared body no route read (credentials refused) is discarded as any other.
    if (this.#declaredWhole && !this.#taken && this.request.body) this.#reader = this.request.body.getReader();
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
