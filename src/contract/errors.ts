/**
 * The one error envelope: `{"error": {"code", "message", "details"?}}`, one HTTP status per
 * code. The body is built here (errorBody); src/http/errors.ts wraps it in the one Response
 * every error of every endpoint goes out as.
 */

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  /** Was valid once and is no more: an invitation used, revoked or expired. */
  gone: 410,
  /** An upload sent as a raw body without Content-Length (R2 needs the length before the first byte). */
  length_required: 411,
  /** A write sent with `If-Match` whose version is no longer the item's (someone else changed it). */
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** A Range outside a media file (`Content-Range: bytes *\/<size>` says its size). */
  range_not_satisfiable: 416,
  capture_failed: 422,
  rate_limited: 429,
  internal_error: 500,
  not_configured: 501,
  bad_gateway: 502,
  embedding_failed: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A client-facing failure. Throw it anywhere; the router turns it into the envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Extra response headers, such as Retry-After on a 429. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: unknown, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** How much of a client's input an error may echo. */
export const ECHO_MAX = 80;

/** A short prefix of something the client sent, for an error message: never the whole of a hostile input. */
export function clip(value: string, max = ECHO_MAX): string {
  return value.length <= max ? value : `${value.slice(0, max)}…`;
}

// The last line of defence: whatever a handler put in an error, the envelope stays small.
const MESSAGE_MAX = 1000;
const DETAIL_STRING_MAX = 300;

function clipDetails(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return clip(value, DETAIL_STRING_MAX);
  if (typeof value !== "object" || value === null || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => clipDetails(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [clip(k, DETAIL_STRING_MAX), clipDetails(v, depth + 1)]));
}

/** The envelope's body for an error, clipped to its bounds. */
export function errorBody(code: ErrorCode, message: string, details?: unknown): { error: Record<string, unknown> } {
  const error: Record<string, unknown> = { code, message: clip(message, MESSAGE_MAX) };
  if (details !== undefined) error.details = clipDetails(details);
  return { error };
}
