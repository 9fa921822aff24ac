import { ApiError } from "../contract/errors";
import { readBodyBytes } from "./read-capped";
import { MAX_BODY_BYTES } from "../contract/limits";
import { NO_STORE } from "../contract/cache-control";

const MAX_DEPTH = 64;

// The headers of an answer that adds none: handed to the Response as they are (no Headers object of our own).
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": NO_STORE } as const;

/** JSON for the dashboard: never cached. */
export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  if (headers === undefined) return new Response(JSON.stringify(data), { status, headers: JSON_HEADERS });
  const h = new Headers(headers);
  h.set("content-type", "application/json; charset=utf-8");
  if (!h.has("cache-control")) h.set("cache-control", NO_STORE);
  return new Response(JSON.stringify(data), { status, headers: h });
}

/**
 * Reads a JSON object body with a hard size cap. The cap is enforced while
 * streaming, so a lying or missing Content-Length cannot get past it.
 */
export async function readJsonObject(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const type = request.headers.get("content-type") ?? "";
  if (type && !/^application\/(?:[\w.+-]*\+)?json\b/i.test(type)) {
    throw new ApiError("unsupported_media_type", `Send the body as application/json (got ${type.split(";")[0]}).`);
  }
  const text = await readText(request, maxBytes);
  if (text.trim() === "") throw new ApiError("bad_request", "The request body is empty; send a JSON object.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ApiError("bad_request", "The request body is not valid JSON.", { reason: (err as Error).message });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ApiError("bad_request", "The request body must be a JSON object.");
  }
  // Text that passed the strict UTF-8 decoder holds no lone surrogate: only a `\uD800`-style
  // escape can put one in a string. Without one, only the depth needs checking (no copy).
  if (!/\\u[dD][89a-fA-F]/.test(text)) return (checkDepth(parsed, 0), parsed) as Record<string, unknown>;
  return wellFormed(parsed) as Record<string, unknown>;
}

/** `readJsonObject` for an endpoint whose body may be left out: no body reads as `{}`. */
export async function readOptionalJsonObject(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (request.body === null || request.headers.get("content-length") === "0") return {};
  return readJsonObject(request, maxBytes);
}

function checkDepth(value: unknown, depth: number): void {
  if (typeof value !== "object" || value === null) return;
  if (depth > MAX_DEPTH) throw tooDeep();
  if (Array.isArray(value)) {
    for (const v of value) checkDepth(v, depth + 1);
    return;
  }
  for (const k in value) checkDepth((value as Record<string, unknown>)[k], depth + 1);
}

const tooDeep = (): ApiError =>
  new ApiError("bad_request", `The request body nests deeper than ${MAX_DEPTH} levels.`, { maxDepth: MAX_DEPTH });

/**
 * JSON may carry lone surrogates (`"\ud800"`, from copy-paste out of broken
 * sources): no UTF-8 output (HTML, XML, feeds) can hold them. Every string of
 * every body, keys included, is made well-formed here, once, before anything
 * stores it: each lone surrogate becomes U+FFFD.
 */
export function wellFormed(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.isWellFormed() ? value : value.toWellFormed();
  if (typeof value !== "object" || value === null) return value;
  // No document we accept nests this deep; refusing it keeps every later walk (and JSON.stringify) bounded.
  if (depth > MAX_DEPTH) throw tooDeep();
  if (Array.isArray(value)) return value.map((v) => wellFormed(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormed(v, depth + 1)]));
}

// decode() without { stream: true } keeps no state between calls: one decoder serves every body.
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

async function readText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const bytes = await readBodyBytes(request, maxBytes, () => tooLarge(maxBytes));
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new ApiError("bad_request", "The request body is not valid UTF-8.");
  }
}

/**
 * 413 for a whole request body over its cap. `details.limit` names the limit as every other 413
 * does ("request"; media's per-file, pixel, files and storage limits name theirs), `max` is the
 * cap; `maxBytes` (the same number) stays for clients written before `limit` and `max`.
 */
export function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`, {
    limit: "request",
    max: maxBytes,
    maxBytes,
  });
}
