/**
 * The one function that builds every error response: the contract's envelope
 * (src/contract/errors.ts) as JSON, never cached. Internal reasons go to the log,
 * never to the client.
 */
import { NO_STORE } from "../contract/cache-control";
import { ApiError, ERROR_STATUS, type ErrorCode, errorBody } from "../contract/errors";
import { log, errorText } from "../log";
import { escapeHtml } from "../shared/escape";
import { plainPage, previewHeaders } from "./preview-page";

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

/**
 * The error answer a person sees in a browser (share links, `/p/:token`): a plain HTML page with
 * the preview headers (never kept, never indexed). Every failure of a share link is one call of
 * this with the same words, so the answer says nothing of why.
 */
export function errorPage(status: number, title: string, text: string, headers: Record<string, string> = {}): Response {
  const out = previewHeaders();
  for (const [k, v] of Object.entries(headers)) out.set(k, v);
  return new Response(plainPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`), { status, headers: out });
}

/** The one answer of every share link that does not work (wrong, expired, revoked, used up, item gone). */
export function previewNotFound(): Response {
  return errorPage(
    404,
    "This link does not work",
    "The preview link is wrong, has expired or was turned off. Ask the person who sent it for a new one.",
  );
}
