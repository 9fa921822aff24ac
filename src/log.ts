/**
 * Structured logs: one JSON object per line, which is what Workers Logs and `wrangler tail`
 * index. Every kind of event has a name and typed fields below, so a log line never carries
 * something its kind does not declare: no secrets, tokens, keys or content bodies, only ids,
 * names, counts, durations and short error texts.
 */

type Level = "info" | "warn" | "error";

/** Facts most events can carry when they exist where the event happens. */
interface Where {
  siteId?: string;
  /** Cloudflare's `cf-ray` of the request, when the event happened while answering one. */
  requestId?: string;
  durationMs?: number;
}

/** Every event the service logs, by name, with its fields. */
export interface LogEvents {
  /** A thrown error no handler expected; the client got a 500 in the envelope. */
  unhandled_error: Where & { error: string };
  /** A deployment setting could not be read; its default applies. */
  config_invalid: { name: string; error: string };
  /** A site object refused a client, a credential or everyone for a while (the first refusal of a window). */
  rate_limited: Where & { policy: string; per: string; quota: number; retryAfter: number };
  /** The front Worker's shared read from a site object threw; it retries once. */
  origin_read_retry: Where & { error: string };
  /** The search index could not start (a misconfigured embedder); the site keeps serving. */
  search_start_failed: Where & { error: string };
  /** Indexing failed too many times in a row; pending items are marked failed. */
  search_indexing_gave_up: Where & { error: string };
  /** The embedding model failed on a search query; the client got 502 embedding_failed. */
  search_query_failed: Where & { error: string };
  /** A capture refresh failed for a reason of ours (not the customer's page). */
  capture_refresh_failed: Where & { trigger: string; error: string };
  /** One part of a rendered page could not be rendered; the rest of the page renders without it. */
  render_failed: Where & {
    part: string;
    /** The page being rendered: `list page N` or `item SLUG`. */
    target?: string;
    widget?: number;
    itemId?: string;
    itemSlug?: string;
    element?: string;
    error: string;
  };
  /** A widget whose attributes the API refuses renders as empty, as it would in the browser. */
  widget_query_refused: Where & { collection: string; params: string; error: string };
  /** A job row whose kind no handler knows (left by an older version); it is dropped. */
  job_kind_unknown: Where & { kind: string };
  /** The certificate provider refused to create a custom hostname. */
  hostname_create_failed: Where & { hostname: string; error: string };
  /** The certificate provider could not remove a hostname; it is detached here regardless. */
  hostname_remove_failed: Where & { hostname: string; error: string };
  hostname_claim_taken_over: Where & { hostname: string; from: string };
  hostname_taken_over: Where & { hostname: string };
  /** The DNS-over-HTTPS resolver could not be asked for a hostname's TXT proof; checked again later. */
  hostname_txt_lookup_failed: Where & { hostname: string; error: string };
  /** A new registration's first check failed; the registration stands and the alarm checks again. */
  hostname_first_check_failed: Where & { hostname: string; error: string };
  /** An account mail left for its transport (never the address, the link or the body). */
  mail_sent: Where & { kind: string; transport: string };
  mail_failed: Where & { kind: string; transport: string; error: string };
  /** An account sign-in: how, and whether it worked (never the address or password). */
  account_sign_in: Where & {
    method: "password" | "passkey" | "reset" | "sign_up" | "sign_up_passkey" | "invitation" | "invitation_passkey";
    result: "ok" | "refused" | "throttled";
    /** Why a passkey was refused (unknown_credential, used_challenge, counter, invalid, ...). */
    reason?: string;
  };
  /** A passkey added to an account (or why not); never the credential. */
  passkey_added: Where & { result: string };
  passkey_removed: Where & { result: string };
  /** What @simplewebauthn/server said when it refused an answer (a counter that went back: a cloned authenticator). */
  passkey_refused: Where & { step: "registration" | "sign_in"; reason: string };
  /** The Images binding could not make a media variant; the client got 502. */
  media_variant_failed: Where & { mediaId: string; width: number; format: string; error: string };
  /** The daily media sweep removed what no row names (a crashed upload, a deleted file's leftovers). */
  media_swept: Where & { objects: number; uploads: number };
  /** A site's report of its media storage did not reach its workspace (the next report corrects it). */
  media_storage_unsettled: Where & { error: string };
  /** A scheduled publish or unpublish was applied by the alarm, `lateMs` after its time. */
  schedule_applied: Where & { action: "publish" | "unpublish"; lateMs: number };
  /** One outbound webhook attempt (never the payload, the URL or the secret). */
  webhook_attempt: Where & { endpointId: string; eventId: string; attempt: number; status: number | null; error: string | null };
  /** A share link was opened (never its token or the request path, which carries it). */
  preview_opened: Where & { linkId: string; format: "page" | "json" };
  /**
   * One alarm run of an import's job: which pass, how many rows it went through in how many slices,
   * its wall time (`durationMs`) and its longest slice (the longest the site's reads waited).
   */
  import_run: Where & {
    importId: string;
    pass: string;
    rows: number;
    slices: number;
    maxSliceMs: number;
    /** The slices' own time (where the clock moves in synchronous code: the local runtime) and the yields' after them (the commit, then whatever else ran). */
    workMs: number;
    maxWorkMs: number;
    yieldMs: number;
    maxYieldMs: number;
  };
}

const LEVEL: { [E in keyof LogEvents]: Level } = {
  unhandled_error: "error",
  media_variant_failed: "error",
  media_swept: "info",
  media_storage_unsettled: "warn",
  origin_read_retry: "warn",
  config_invalid: "error",
  rate_limited: "warn",
  search_start_failed: "error",
  search_indexing_gave_up: "error",
  search_query_failed: "error",
  capture_refresh_failed: "error",
  render_failed: "error",
  widget_query_refused: "warn",
  job_kind_unknown: "error",
  hostname_create_failed: "error",
  hostname_remove_failed: "warn",
  hostname_claim_taken_over: "info",
  hostname_taken_over: "info",
  hostname_txt_lookup_failed: "warn",
  hostname_first_check_failed: "warn",
  mail_sent: "info",
  mail_failed: "error",
  account_sign_in: "info",
  passkey_added: "info",
  passkey_removed: "info",
  passkey_refused: "warn",
  schedule_applied: "info",
  webhook_attempt: "info",
  preview_opened: "info",
  import_run: "info",
};

/** Where the lines go; tests swap it to read them. */
export interface LogSink {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

let sink: LogSink = console;

/** Replaces where log lines go and returns the previous sink (for tests). */
export function setLogSink(next: LogSink): LogSink {
  const previous = sink;
  sink = next;
  return previous;
}

/** Writes one event as one JSON line at its kind's level. */
export function log<E extends keyof LogEvents>(event: E, fields: LogEvents[E]): void {
  const level = LEVEL[event];
  sink[level](JSON.stringify({ event, level, ...fields }));
}

const ERROR_TEXT_MAX = 300;

/** An error as a short line for a log field: its name and message, clipped (a message may quote input). */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length <= ERROR_TEXT_MAX ? text : `${text.slice(0, ERROR_TEXT_MAX)}…`;
}
