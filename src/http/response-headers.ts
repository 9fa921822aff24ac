/**
 * Headers every answer of the front Worker carries, set in one place after routing
 * (src/index.ts), so no route can forget them:
 *  - `X-Content-Type-Options: nosniff` on everything (pages, feeds, sitemaps, preview, JSON, errors);
 *  - `Strict-Transport-Security` on the service's own hosts when the request came over https
 *    (a customer's custom hostname is the customer's to pin, not ours);
 *  - `Vary: x-service-token` on the service's own hosts, where the same URL is the API or a
 *    rendered page depending on that header.
 */
import { HSTS_VALUE, SERVICE_TOKEN_HEADER } from "../contract/headers";

export function withFrontHeaders(response: Response, https: boolean, serviceHost: boolean): Response {
  // Responses from fetch() and the Cache API have immutable headers.
  let out: Response;
  try {
    response.headers.set("x-content-type-options", "nosniff");
    out = response;
  } catch {
    out = new Response(response.body, response);
  }
  setFrontHeaders(out.headers, https, serviceHost);
  return out;
}

/** The same headers on a Headers object (the memory tier bakes them into the answers it holds). */
export function setFrontHeaders(headers: Headers, https: boolean, serviceHost: boolean): void {
  headers.set("x-content-type-options", "nosniff");
  if (!serviceHost) return;
  if (https) headers.set("strict-transport-security", HSTS_VALUE);
  addVary(headers, SERVICE_TOKEN_HEADER);
}

export function addVary(headers: Headers, name: string): void {
  const current = headers.get("vary");
  if (current === null || current.trim() === "") return void headers.set("vary", name);
  const names = current.split(",").map((v) => v.trim().toLowerCase());
  if (names.includes("*") || names.includes(name.toLowerCase())) return;
  headers.set("vary", `${current}, ${name}`);
}

/**
 * The asterisk form (`GET * HTTP/1.1`), which workerd hands over as `http://host*`: a target
 * with no path at all. Only that; a path or query that merely ends in `*` (`?q=tomato*`, which
 * neither encodeURIComponent nor URLSearchParams encodes) is an ordinary request.
 */
const ASTERISK_FORM = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]*)?\*$/i;

export function isAsteriskForm(rawUrl: string): boolean {
  return ASTERISK_FORM.test(rawUrl);
}

/**
 * The request target as a URL, or null when it is not one we answer: the asterisk form and
 * anything else a URL parser refuses.
 */
export function requestTarget(rawUrl: string): URL | null {
  if (isAsteriskForm(rawUrl)) return null;
  try {
    return new URL(rawUrl);
  } catch {
    return null;
  }
}
