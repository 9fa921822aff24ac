/**
 * Uploads as multipart/form-data (one or many `file` parts, each after an optional `alt` field).
 * multipasta's callback parser is driven by our own read loop, so each chunk is in R2 before the
 * next one is read from the client (its web stream wrapper queues without bound). Each file gets
 * its own answer: one refused file leaves nothing, and the others stand.
 */
import * as MP from "multipasta";
import { ApiError, type ErrorCode } from "../contract/errors";
import { MEDIA_LIMITS } from "../contract/limits";
import { json } from "../http/json";
import { type Call, storeStream } from "./store-stream";

type Ev =
  | { kind: "field"; name: string; value: string }
  | { kind: "file"; info: MP.PartInfo }
  | { kind: "chunk"; data: Uint8Array }
  | { kind: "end" }
  | { kind: "error"; error: MP.MultipartError }
  | { kind: "done" };

function formError(e: MP.MultipartError): ApiError {
  if (e._tag === "ReachedLimit") {
    if (e.limit === "MaxParts")
      return new ApiError("payload_too_large", `A form may carry at most ${MEDIA_LIMITS.filesPerRequest} files.`, {
        limit: "files",
        max: MEDIA_LIMITS.filesPerRequest,
      });
    if (e.limit === "MaxFieldSize")
      return new ApiError("bad_request", `Alt text may be at most ${MEDIA_LIMITS.altChars} characters.`, { max: MEDIA_LIMITS.altChars });
    return new ApiError("payload_too_large", `An upload may be at most ${MEDIA_LIMITS.requestBytes / 1024 / 1024} MiB.`, {
      limit: "request",
      max: MEDIA_LIMITS.requestBytes,
    });
  }
  return new ApiError("bad_request", `The multipart/form-data body is malformed (${e._tag}).`);
}

export async function uploadForm(request: Request, env: Env, call: Call, origin: string): Promise<Response> {
  if (!request.body) throw new ApiError("bad_request", "The form is empty: send at least one `file` part.");
  const body = request.body.getReader();
  const events: Ev[] = [];
  const parser = MP.make({
    headers: Object.fromEntries(request.headers),
    // Every file may come with its alt field; a few files over the limit are answered one by one.
    maxParts: MEDIA_LIMITS.filesPerRequest * 2 + 10,
    maxTotalSize: MEDIA_LIMITS.requestBytes,
    maxFieldSize: MEDIA_LIMITS.altChars * 4,
    onField: (info, value) => events.push({ kind: "field", name: info.name, value: MP.decodeField(info, value) }),
    onFile: (info) => {
      events.push({ kind: "file", info });
      return (chunk) => events.push(chunk === null ? { kind: "end" } : { kind: "chunk", data: chunk });
    },
    onError: (error) => events.push({ kind: "error", error }),
    onDone: () => events.push({ kind: "done" }),
  });
  let bodyDone = false;
  const next = async (): Promise<Ev> => {
    while (events.length === 0) {
      if (bodyDone) return { kind: "done" };
      const r = await body.read();
      if (r.done) {
        bodyDone = true;
        parser.end();
      } else parser.write(r.value);
    }
    return events.shift()!;
  };
  const results: { name: string; media?: unknown; duplicate?: boolean; error?: { code: ErrorCode; message: string; details?: unknown } }[] =
    [];
  let alt = "";
  let files = 0;
  for (;;) {
    const ev = await next();
    if (ev.kind === "done") break;
    if (ev.kind === "error") throw formError(ev.error);
    if (ev.kind === "field") {
      if (ev.name === "alt") alt = ev.value;
      continue;
    }
    if (ev.kind !== "file") continue;
    files++;
    const name = ev.info.filename ?? "";
    let broken: ApiError | null = null;
    let ended = false;
    const reader = {
      read: async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
        if (ended) return { done: true, value: undefined };
        const e = await next();
        if (e.kind === "chunk") return { done: false, value: e.data };
        ended = true;
        if (e.kind === "end") return { done: true, value: undefined };
        broken = e.kind === "error" ? formError(e.error) : new ApiError("bad_request", "The form ended in the middle of a file.");
        throw broken;
      },
    } as unknown as ReadableStreamDefaultReader<Uint8Array>;
    try {
      if (files > MEDIA_LIMITS.filesPerRequest)
        throw new ApiError(
          "payload_too_large",
          `A form may carry at most ${MEDIA_LIMITS.filesPerRequest} files; send the rest in another request.`,
          {
            limit: "files",
            max: MEDIA_LIMITS.filesPerRequest,
          },
        );
      if (alt.length > MEDIA_LIMITS.altChars)
        throw new ApiError("bad_request", `Alt text may be at most ${MEDIA_LIMITS.altChars} characters.`);
      const stored = await storeStream(env, call, reader, { length: null, name, alt, origin });
      results.push({ name, ...stored });
    } catch (err) {
      if (broken || !(err instanceof ApiError)) throw err;
      results.push({ name, error: { code: err.code, message: err.message, details: err.details } });
      // The rest of the refused file is read and dropped, so the next part can be reached.
      while (!(await reader.read()).done);
    }
    alt = "";
  }
  if (files === 0) throw new ApiError("bad_request", "The form holds no file: send at least one part with a filename.");
  return json({ results }, 200);
}
