import { CACHE_VERSION_HEADER, CHANGES_HEADER, INTERNAL_HEADER_PREFIX, PROXY_KEY_HEADER, REFUSED_HEADER } from "../contract/headers";
import { decodeChanges } from "../contract/cache-version";
import { noteVersion } from "./site-meta";
import { MAX_BODY_BYTES } from "../contract/limits";
import { tooLarge } from "../http/json";
import { readBodyBytes } from "../http/read-capped";

/**
 * A copy of the client's request for a site object. Headers under `x-oc-`
 * are ours alone: whatever a client sent under that prefix is dropped here,
 * and only the front Worker sets them.
 */
export function internalRequest(request: Request, extra: Record<string, string> = {}, body?: Uint8Array | null): Request {
  // Copied whole in one native call, then ours dropped: setting each of the client's headers from
  // JavaScript cost one call into the runtime per header on every forwarded request.
  const headers = new Headers(request.headers);
  for (const k of request.headers.keys()) if (k.startsWith(INTERNAL_HEADER_PREFIX)) headers.delete(k);
  for (const k in extra) headers.set(k, extra[k]!);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  // A redirect from the site object is the client's to follow, never ours.
  return new Request(request.url, {
    method: request.method,
    headers,
    body: hasBody ? (body !== undefined ? body : request.body) : null,
    redirect: "manual",
  });
}

/**
 * A public content read (`GET /v1/...`) for a site object: its URL, our headers and the request id.
 * The site object answers a content read from its URL alone (it reads no header of the client's),
 * so the client's headers (a browser sends a dozen) are not copied on every miss.
 */
export function contentReadRequest(request: Request, extra: Readonly<Record<string, string>>): Request {
  const ray = request.headers.get("cf-ray");
  return new Request(request.url, { headers: ray === null ? extra : { ...extra, "cf-ray": ray }, redirect: "manual" });
}

/**
 * A rendered page's request for a site object: as `internalRequest`, without the visitor's
 * cookies. A page comes through the customer's proxy or on their hostname; it has no use for
 * cookies, and the dashboard's session cookie must never reach (or be read on) that path.
 */
export function pageRequest(request: Request, extra: Record<string, string>): Request {
  const out = internalRequest(request, extra);
  out.headers.delete("cookie");
  // The proxy's secret has no use beyond the front Worker, which has checked it.
  out.headers.delete(PROXY_KEY_HEADER);
  return out;
}

/** A rendered page's answer never sets a cookie: whatever the site object sent, it is dropped here. */
export function pageResponse(response: Response): Response {
  if (!response.headers.has("set-cookie")) return response;
  const out = new Response(response.body, response);
  out.headers.delete("set-cookie");
  return out;
}

/**
 * Learns the site's new cache version (and, from a write's answer, what the recent versions
 * changed) from a site response and hides our headers from the client.
 */
export function fromSite(siteId: string, response: Response): Response {
  noteSite(siteId, response);
  const out = new Response(response.body, response);
  out.headers.delete(CACHE_VERSION_HEADER);
  if (out.headers.has(CHANGES_HEADER)) out.headers.delete(CHANGES_HEADER);
  if (out.headers.has(REFUSED_HEADER)) out.headers.delete(REFUSED_HEADER);
  return out;
}

/**
 * `fromSite` without the copy, for an answer that only the edge cache reads (src/edge/cache.ts):
 * it copies the headers it keeps and drops ours itself (`withoutInternal`), so a miss makes one
 * Response fewer (its native state lives until V8 collects it). Returns the same response.
 */
export function noteSite(siteId: string, response: Response): Response {
  const version = Number(response.headers.get(CACHE_VERSION_HEADER));
  const changes = response.headers.get(CHANGES_HEADER);
  if (Number.isInteger(version) && version > 0) noteVersion(siteId, version, changes === null ? undefined : () => decodeChanges(changes));
  return response;
}

/**
 * `internalRequest` with the client's body read here, in the front Worker, before a site object
 * sees it: the body guard's size and time limits apply (their errors are this request's answer),
 * and a site object never waits on a client's upload nor leaves one half-read. One copy of the
 * request is made, with the bytes as its body. Call it after the caller's credentials are checked.
 */
export async function bufferedInternalRequest(request: Request, extra: Record<string, string> = {}): Promise<Request> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return internalRequest(request, extra);
  return internalRequest(request, extra, await readBodyBytes(request, MAX_BODY_BYTES, () => tooLarge(MAX_BODY_BYTES)));
}
