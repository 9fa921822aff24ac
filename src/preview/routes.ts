/**
 * Share links: `GET /p/` (the page a link `/p/#<token>` opens, src/http/share-opener.ts), `POST
 * /p/open` (the token in a form body), and `GET|POST /p/:token` for links made with the token in
 * the path. Reached only on the service's own hosts (src/index.ts sends a customer hostname and
 * any `x-service-token` request elsewhere before the router), never through the edge cache, and
 * never logged by us with their token (the token is the credential).
 */
import { siteIdOfPreviewToken } from "../contract/ids";
import { PREVIEW_LINK_LIMITS } from "../contract/history-limits";
import { errorPage, previewNotFound } from "../http/errors";
import { plainPage, previewHeaders } from "../http/preview-page";
import { sha256Hex } from "../ids";
import { clientKey } from "../limits/client";
import { mayBeIssued } from "../edge/issued";
import { signInThrottleStub, siteStub } from "../stubs";
import { bufferedInternalRequest, fromSite, internalRequest } from "../edge/forward";
import { readBodyBytes } from "../http/read-capped";
import { ApiError } from "../contract/errors";

/**
 * A browser's own navigation (Fetch Metadata). Chat apps and link checkers fetch a pasted link
 * before anyone opens it; they must not use up `maxOpens` nor be counted.
 */
function isNavigation(request: Request): boolean {
  return request.headers.get("sec-fetch-dest") === "document" && request.headers.get("sec-fetch-mode") === "navigate";
}

/** What anything but a browser's navigation gets, whatever the token: reveals nothing, counts nothing. */
function openInBrowser(): Response {
  const body =
    "<h1>A preview link</h1><p>Open this link in a web browser to see the preview. It is not shown to link previews or other programs.</p>";
  return new Response(plainPage("A preview link", body), { headers: previewHeaders() });
}

/** The request for the site object: its own unlock cookies only (never the dashboard's session), the body read here. */
async function forSite(request: Request, body?: Uint8Array): Promise<Request> {
  const out = body === undefined ? await bufferedInternalRequest(request) : internalRequest(request, {}, body);
  const kept = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((c) => c.trim())
    .filter((c) => c.startsWith("oc_pv_"));
  if (kept.length) out.headers.set("cookie", kept.join("; "));
  else out.headers.delete("cookie");
  return out;
}

/** A token with its password, a JSON choice and a hash: a body any bigger is no share link's. */
const FORM_MAX_BYTES = 2048;

/** `POST /p/open`: the token is in the form, so it never was in a URL (the page at `/p/` posts it). */
export async function previewByForm(request: Request, env: Env): Promise<Response> {
  if (!isNavigation(request)) return openInBrowser();
  let body: Uint8Array;
  try {
    body = await readBodyBytes(request, FORM_MAX_BYTES, () => new ApiError("payload_too_large", "too large"));
  } catch (err) {
    if (err instanceof ApiError && err.code === "payload_too_large") return previewNotFound();
    throw err;
  }
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const token = form.get("token") ?? "";
  return answer(request, env, token, form.has("password"), body);
}

export async function previewLink(request: Request, env: Env, token: string): Promise<Response> {
  if (!isNavigation(request)) return openInBrowser();
  return answer(request, env, token, request.method === "POST");
}

/** The site's answer for `token`; `password`: the request carries a password (a guess to count). */
async function answer(request: Request, env: Env, token: string, password: boolean, body?: Uint8Array): Promise<Response> {
  const siteId = siteIdOfPreviewToken(token);
  if (!siteId || !(await mayBeIssued(env, siteId))) return previewNotFound();
  if (!password) return fromSite(siteId, await siteStub(env, siteId).fetch(await forSite(request, body)));
  // Only a live link with a password has a password to guess: anything else is answered as the
  // site answers it (the same 404, or back to the page) without a throttle object for a made-up token.
  if (!(await siteStub(env, siteId).previewLinkLocked(token)))
    return fromSite(siteId, await siteStub(env, siteId).fetch(await forSite(request, body)));
  // A password: each wrong one counts for this client on this link (3 free, then a doubling wait).
  const throttle = signInThrottleStub(env, `${clientKey(request, env)}|pv:${(await sha256Hex(token)).slice(0, 32)}`);
  const r = await throttle.attempt(Date.now(), PREVIEW_LINK_LIMITS.freePasswordAttempts);
  if (!r.allowed) {
    const seconds = Math.max(1, Math.ceil(r.waitMs / 1000));
    return errorPage(429, "Too many tries", `Wait ${seconds} seconds, then try the password again.`, { "retry-after": String(seconds) });
  }
  const response = fromSite(siteId, await siteStub(env, siteId).fetch(await forSite(request, body)));
  // The right password is the one answer that sets the link's unlock cookie.
  if (response.headers.get("set-cookie")?.startsWith("oc_pv_")) await throttle.succeeded();
  return response;
}
