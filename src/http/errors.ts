/**
 * The one function that builds every error response: the contract's envelope
 * (src/contract/errors.ts) as JSON, never cached. Internal reasons go to the log,
 * never to the client.
 */
import { NO_STORE } from "../contract/cache-control";
import { ApiError, ERROR_STATUS, type ErrorCode, errorBody } from "../contract/errors";
import { log, errorText } from "../log/log";

export function errorResponse(code: ErrorCode, message: string, details?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(errorBody(code, message, details)), {
    status: ERROR_STATUS[code],
    headers: {
      ...headers,
      "content-type": "application/json; charset=utf-8",
      "cache-control": NO_STORE,
    },
  });
}

/** Turns anything thrown into the envelope; unknown errors are logged and hidden. */
export function toErrorResponse(err: unknown, where: { siteId?: string; requestId?: string } = {}): Response {
  if (err instanceof ApiError) return errorResponse(err.code, err.message, err.details, err.headers);
  log("unhandled_error", { ...where, error: errorText(err) });
  return errorResponse("internal_error", "Something went wrong on our side. Please retry.");
}
