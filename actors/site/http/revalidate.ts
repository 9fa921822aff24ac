import { DEPENDS_HEADER, REVALIDATE_HEADER } from "../../../src/contract/headers";
import { bodyEtag } from "../../../src/http/etag";

/**
 * A rendered page or document the front Worker asks for while it holds an older version's copy
 * (REVALIDATE_HEADER: the ETag of those bytes, src/http/etag.ts): rendered whole and hashed, and
 * when it is the same bytes, 304 with no body, so the front Worker keeps its copy for the new
 * version and writes nothing to the Cache API. Most pages do not change with one publish. An
 * answer that must not be kept (no-store: a document whose rebuild is queued) is never "unchanged".
 * `onUnchanged` counts the 304s.
 */
export async function unchangedPage(request: Request, response: Response, onUnchanged: () => void): Promise<Response> {
  const validator = request.headers.get(REVALIDATE_HEADER);
  if (validator === null || response.status !== 200 || /\bno-store\b/i.test(response.headers.get("cache-control") ?? "")) return response;
  const body = await response.arrayBuffer();
  if ((await bodyEtag(body)) !== validator) return new Response(body, response);
  onUnchanged();
  const unchanged = new Response(null, { status: 304, headers: { etag: validator } });
  const dependsOn = response.headers.get(DEPENDS_HEADER);
  if (dependsOn !== null) unchanged.headers.set(DEPENDS_HEADER, dependsOn);
  return unchanged;
}
