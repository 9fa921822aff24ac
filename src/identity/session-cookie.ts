/** The dashboard's session cookie: opaque, HttpOnly, SameSite=Strict, Secure on https. */
import { SESSION_ABSOLUTE_MS } from "./session-policy";

/**
 * On https the name carries the `__Host-` prefix: browsers then accept it only with `Secure`,
 * `Path=/` and no `Domain`, so a sibling subdomain cannot plant a session of its own choosing.
 * Plain http (a laptop's localhost) cannot use the prefix.
 */
export function sessionCookieName(request: Request): string {
  return new URL(request.url).protocol === "https:" ? "__Host-oc_session" : "oc_session";
}

export function sessionCookie(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  const name = sessionCookieName(request);
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

function attributes(request: Request): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `Path=/; HttpOnly; SameSite=Strict${secure}`;
}

export function setSessionCookie(request: Request, id: string): string {
  return `${sessionCookieName(request)}=${id}; ${attributes(request)}; Max-Age=${SESSION_ABSOLUTE_MS / 1000}`;
}

export function clearSessionCookie(request: Request): string {
  return `${sessionCookieName(request)}=; ${attributes(request)}; Max-Age=0`;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request made with the cookie must come from the dashboard's own
 * origin. Browsers send `Origin` on every such fetch; `Sec-Fetch-Site` covers the rest.
 */
export function fromOwnOrigin(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.get("origin");
  if (origin !== null) return origin === new URL(request.url).origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

/**
 * Sign-in and sign-out take no cookie, so scripts may call them without an origin; a browser
 * always says where a request comes from, and another origin is refused (no login CSRF).
 */
export function notFromOtherOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(request.url).origin) return false;
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}
