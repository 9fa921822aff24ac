/**
 * Plain http on the service's own hosts. The session cookie is `Secure` (and `__Host-`) only on
 * https (src/identity/session-cookie.ts), so a sign-in over http would set a cookie that every network on
 * the way can read and replay; HSTS (response-headers.ts) only helps a browser that has been on
 * https before. Outside local runs a read is sent to the same URL on https (308), and anything
 * else (a write, or any request with `Authorization`) is refused before its body is read: its key,
 * password or content has already crossed the network in the clear, and a redirect that quietly
 * succeeds would leave the client sending it so.
 */
import { errorResponse } from "./errors";

/**
 * Local runs only (wrangler.toml's top-level `LOCAL_HTTP`, which `--env production` does not set,
 * and the local workerd hosts of scripts/workerd-host.mjs): http is served as https is, since
 * `wrangler dev` and the tests' hosts listen on plain http.
 */
export function localHttp(env: { LOCAL_HTTP?: string }): boolean {
  return env.LOCAL_HTTP === "true";
}

/** Methods a redirect may repeat: they change nothing, and browsers follow them for navigation. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The answer to a request that came over plain http on a service host (outside local runs). */
export function httpsOnly(request: Request, url: URL): Response {
  const secure = new URL(url.href);
  secure.protocol = "https:";
  if (READS.has(request.method) && !request.headers.has("authorization"))
    return new Response(null, { status: 308, headers: { location: secure.href } });
  return errorResponse(
    "bad_request",
    `This service takes changes, keys and passwords over https only: send the request to ${secure.origin}. It crossed the network unencrypted, so change any key or password it carried.`,
    { reason: "https_required", origin: secure.origin },
  );
}
