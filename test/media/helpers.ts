import { env, exports } from "cloudflare:workers";
import { ORIGIN, type TestSite } from "../helpers";
import { mediaFile } from "../fixtures/media-files";
import type { MediaEntry } from "../../actors/site/content/media-library";

export { mediaFile };

/** A raw-body upload, as the dashboard sends one file. */
export function upload(
  site: TestSite,
  body: Uint8Array | ReadableStream<Uint8Array>,
  name: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const h = new Headers({
    authorization: `Bearer ${site.adminKey}`,
    "x-file-name": encodeURIComponent(name),
    "content-type": "application/octet-stream",
  });
  if (body instanceof Uint8Array) h.set("content-length", String(body.byteLength));
  for (const [k, v] of Object.entries(headers)) h.set(k, v);
  return exports.default.fetch(new Request(`${ORIGIN}/sites/${site.id}/media/files`, { method: "POST", headers: h, body }));
}

/** A GET of the service (a public media URL, say). */
export function get(pathOrUrl: string, headers: Record<string, string> = {}): Promise<Response> {
  const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${ORIGIN}${pathOrUrl}`;
  return exports.default.fetch(new Request(url, { headers }));
}

/** An entry as the upload answers it (the library's MediaEntry, which extends the MediaRef). */
export type Entry = MediaEntry;

export async function uploaded(res: Response): Promise<{ media: Entry; duplicate: boolean }> {
  const text = await res.text();
  if (res.status !== 201 && res.status !== 200) throw new Error(`upload failed: ${res.status} ${text}`);
  return JSON.parse(text) as { media: Entry; duplicate: boolean };
}

/** The R2 keys of a site's originals and variants. */
export async function storedKeys(siteId: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ prefix: `s/${siteId}/`, cursor });
    out.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return out;
}

/** A path of the service from a MediaRef URL. */
export const pathOf = (url: string) => new URL(url).pathname;
