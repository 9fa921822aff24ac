/**
 * The API's operations as data: one entry per endpoint, next to the routes that
 * serve it (each feature's operations.ts under src/). The OpenAPI document (document.ts) and
 * the contract test are built from these entries, with the same zod schemas the
 * handlers validate with, so the description cannot drift from the code.
 */
import type { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../contract/errors";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** Who may call: the names of the document's security schemes (see document.ts), or none. */
export type Auth = "none" | "publicToken" | "serviceToken" | "siteKey" | "operator" | "workspace" | "account";

export interface Param {
  name: string;
  in: "path" | "query" | "header";
  description: string;
  schema: z.ZodType;
  required?: boolean;
  /** Query objects such as `filter[key][op]=v`. */
  style?: "deepObject";
}

/** Response headers the document names, by what the answer is (see HEADER_SETS in document.ts). */
export type HeaderSet =
  | "json"
  | "session"
  | "content"
  | "page"
  | "redirect"
  | "noindex"
  | "static"
  | "dashboard"
  | "media"
  | "variant"
  | "preview"
  | "previewLimited";

export interface Success {
  description: string;
  /** A JSON body (application/json). */
  schema?: z.ZodType;
  /** Media types of a body that is not JSON; neither this nor `schema`: no body (301, 304). */
  media?: string[];
  headers: HeaderSet;
  example?: unknown;
}

export interface Operation {
  id: string;
  method: Method;
  /** OpenAPI path template: `/v1/{token}/collections/{slug}/items`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  params?: Param[];
  /** The request body, a JSON object validated with exactly this schema. */
  body?: z.ZodType;
  /** The body may be left out (it then reads as `{}`): an endpoint that took none before and takes one now. */
  bodyOptional?: true;
  /** A request body taken as it comes (a webhook's event): documented, implies no errors. */
  looseBody?: z.ZodType;
  /** A body that is not JSON (a file's bytes, a form): its media types, each a binary string. */
  rawBody?: { media: string[]; description: string };
  responses: Partial<Record<number, Success>>;
  /**
   * Errors this operation answers, beyond those implied by `auth` (unauthorized) and
   * `body` (bad_request, payload_too_large, unsupported_media_type). Each is the one
   * error envelope with its HTTP status (src/http/errors.ts).
   */
  errors: ErrorCode[];
  /** Example error details per code, shown in the document. */
  errorExamples?: Partial<Record<ErrorCode, { message: string; details?: unknown }>>;
}

export function operation(op: Operation): Operation {
  return op;
}

/** Every error an operation can answer: its own plus those its auth and body imply. */
export function errorsOf(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(op.errors);
  const dashboard = op.auth === "siteKey" || op.auth === "operator" || op.auth === "workspace" || op.auth === "account";
  if (dashboard) codes.add("unauthorized");
  // A change made with the dashboard's session cookie from another origin, or one the caller's role does not allow.
  if (dashboard && op.method !== "get") codes.add("forbidden");
  if (op.body) for (const c of ["bad_request", "payload_too_large", "unsupported_media_type"] as const) codes.add(c);
  // Rate limits (src/contract/limits.ts): content reads and search that miss the cache and
  // rendered pages (the site's own limits), dashboard writes (per credential and per site), wrong
  // operator tokens and API keys (which any siteKey operation may be sent), and the publish webhook.
  if (
    op.auth === "publicToken" ||
    op.auth === "serviceToken" ||
    op.auth === "siteKey" ||
    op.auth === "operator" ||
    op.auth === "workspace" ||
    op.path.startsWith("/hooks/")
  )
    codes.add("rate_limited");
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
}

/** The errors of an operation grouped by HTTP status (502 carries two codes). */
export function errorStatuses(op: Operation): Map<number, ErrorCode[]> {
  const out = new Map<number, ErrorCode[]>();
  for (const code of errorsOf(op)) out.set(ERROR_STATUS[code], [...(out.get(ERROR_STATUS[code]) ?? []), code]);
  return out;
}
