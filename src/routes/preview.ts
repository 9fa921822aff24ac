/**
 * Share links, `GET|POST /p/:token`: reached only on the service's own hosts (src/index.ts sends a
 * customer hostname and any `x-service-token` request elsewhere before the router), never through
 * the edge cache, and never logged with their path (the token is the credential).
 */
import { siteIdOfPreviewToken } from "../contract/ids";
import { PREVIEW_LINK_LIMITS } from "../contract/history-limits";
import { errorPage, previewNotFound } from "../http/errors";
import { plainPage, previewHeaders } from "../http/preview-page";
import { sha256Hex } from "../ids";
import { clientKey } from "../limits/client";
import { mayBeIssued } from "../sites/issued";
import { signInThrottleStub, siteStub } from "../stubs";
import { bufferedInternalRequest, fromSite } from "./forward";

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
async function forSite(request: Request): Promise<Request> {
  const out = await bufferedInternalRequest(request);
  const kept = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((c) => c.trim())
    .filter((c) => c.startsWith("oc_pv_"));
  if (kept.length) out.headers.set("cookie", kept.join("; "));
  else out.headers.delete("cookie");
  return out;
}

export async function previewLink(request: Request, env: Env, token: string): Promise<Response> {
  if (!isNavigation(request)) return openInBrowser();
  const siteId = siteIdOfPreviewToken(token);
  if (!siteId || !(await mayBeIssued(env, siteId))) return previewNotFound();
  if (request.method !== "POST") return fromSite(siteId, await siteStub(env, siteId).fetch(await forSite(request)));
  // A password: each wrong one counts for this client on this link (3 free, then a doubling wait).
  const throttle = signInThrottleStub(env, `${clientKey(request, env)}|pv:${(await sha256Hex(token)).slice(0, 32)}`);
  const r = await throttle.attempt(Date.now(), PREVIEW_LINK_LIMITS.freePasswordAttempts);
  if (!r.allowed) {
    const seconds = Math.max(1, Math.ceil(r.waitMs / 1000));
    return errorPage(429, "Too many tries", `Wait ${seconds} seconds, then try the password again.`, { "retry-after": String(seconds) });
  }
  const response = fromSite(siteId, await siteStub(env, siteId).fetch(await forSite(request)));
  if (response.status === 303) await throttle.succeeded();
  return response;
}
