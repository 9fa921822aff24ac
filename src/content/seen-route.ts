/**
 * `POST /v1/:token/seen`: the embed script says it rendered a widget on a page (body: the page's
 * address as text, sent with `navigator.sendBeacon`, so no preflight). The dashboard's checklist
 * ticks "Put the widget on your page" from it, on every plan. Each isolate passes a site's report
 * on at most once in `FORWARD_EVERY_MS` and the site object writes at most once an hour, so a busy
 * page costs the object almost nothing; the report only ever sets two columns of a site that exists.
 */
import { ApiError } from "../contract/errors";
import { SEEN_PAGE_MAX } from "../contract/limits";
import { NO_STORE } from "../contract/cache-control";
import { siteMeta } from "../edge/site-meta";
import { readBodyBytes } from "../http/read-capped";
import { siteStub } from "../stubs";
import { CORS_HEADERS } from "./routes";

const BODY_MAX = 2048;
const FORWARD_EVERY_MS = 10 * 60 * 1000;
const MEMO_MAX = 10_000;

const forwarded = new Map<string, number>();

/** The address as stored: an http(s) origin and path, without query or fragment (which may hold what the visitor typed). */
export function seenPage(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const page = `${url.origin}${url.pathname}`;
  return page.length <= SEEN_PAGE_MAX ? page : null;
}

export async function widgetSeen(request: Request, env: Env, token: string): Promise<Response> {
  const meta = await siteMeta(env, token);
  if (!meta) throw new ApiError("not_found", "Unknown site token.");
  const bytes = await readBodyBytes(
    request,
    BODY_MAX,
    () => new ApiError("payload_too_large", `The page address is over ${BODY_MAX} bytes.`),
  );
  const page = seenPage(new TextDecoder().decode(bytes));
  if (!page) throw new ApiError("bad_request", `The body must be the page's http(s) address, at most ${SEEN_PAGE_MAX} characters.`);
  const now = Date.now();
  const last = forwarded.get(meta.siteId);
  if (last === undefined || now - last >= FORWARD_EVERY_MS) {
    if (forwarded.size >= MEMO_MAX) forwarded.clear();
    forwarded.set(meta.siteId, now);
    await siteStub(env, meta.siteId).noteWidgetSeen(page);
  }
  return new Response(null, { status: 204, headers: { ...CORS_HEADERS, "cache-control": NO_STORE } });
}
