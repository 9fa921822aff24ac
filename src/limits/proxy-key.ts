/**
 * The customer's reverse-proxy Worker sends each visitor's address (VISITOR_IP_HEADER), so that
 * visitors are counted one by one instead of as one client (the proxy's own address). A stranger
 * holding the public token could send any address, so the address is only believed beside the
 * site's proxy key (PROXY_KEY_HEADER): a secret derived from the deployment's AUTH_SECRET and the
 * site id (nothing stored), shown to the site's SEO managers and kept by the proxy as a secret.
 * Server to server over TLS the key itself is the proof, as an API key is. A request without it,
 * or with a wrong one, counts as its own connection, as a proxy deployed before the key did.
 */
import { PROXY_KEY_HEADER, VISITOR_IP_HEADER } from "../contract/headers";
import { authSecret, safeEqual } from "../ids";
import { BoundedMap, ENTRY_OVERHEAD } from "../shared/bounded-map";
import { addressKey, clientKey } from "./client";

const PURPOSE = "proxy-key";
const keys = new BoundedMap<string, string>(10_000, 1024 * 1024);

/** The site's proxy key (`px_` and 43 base64url characters), or null when AUTH_SECRET is not set. */
export async function proxyKey(env: { AUTH_SECRET?: string }, siteId: string): Promise<string | null> {
  const hit = keys.get(siteId);
  if (hit !== undefined) return hit;
  const secret = authSecret(env);
  if (!secret) return null;
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${PURPOSE}\u0000${siteId}`)));
  const text = `px_${btoa(String.fromCharCode(...mac))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "")}`;
  keys.set(siteId, text, 2 * (siteId.length + text.length) + ENTRY_OVERHEAD);
  return text;
}

/** Whom a rendered page's request counts for: the visitor the signed proxy names, else the connection. */
export async function pageClient(request: Request, env: Env, siteId: string): Promise<string> {
  const presented = request.headers.get(PROXY_KEY_HEADER);
  if (presented !== null) {
    const expected = await proxyKey(env, siteId);
    const visitor = addressKey(request.headers.get(VISITOR_IP_HEADER) ?? "");
    if (expected !== null && visitor !== null && safeEqual(presented, expected)) return `visitor:${visitor}`;
  }
  return clientKey(request, env);
}
