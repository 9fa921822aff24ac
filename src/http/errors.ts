/**
 * The one error envelope. Every error response of every endpoint is built here,
 * so clients see `{"error": {"code", "message", "details"?}}` and nothing else.
 * Internal reasons go to the log, never to the client.
 */

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
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

export function errorResponse(code: ErrorCode, message: string, details?: unknown, headers: Record<string, string> = {}): Response {
  const error: Record<string, unknown> = { code, message };
  if (details !== undefined) error.details = details;
  return new Response(JSON.stringify({ error }), {
    status: ERROR_STATUS[code],
    headers: {
      ...headers,
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}

/** Turns anything thrown into the envelope; unknown errors are logged and hidden. */
export function toErrorResponse(err: unknown): Response {
  if (err instanceof ApiError) return errorResponse(err.code, err.message, err.details, err.headers);
  console.error("unhandled error", err);
  return errorResponse("internal_error", "Something went wrong on our side. Please retry.");
}
