/**
 * Copying media added by URL into the library: the file is fetched through the safe fetcher
 * (src/net/safe-fetch.ts, the same address rules as capture) and stored exactly as an upload is
 * (src/media/store-stream.ts: type from the bytes, the same limits, the workspace's storage,
 * one copy per content), then every item that showed the URL and that the caller may edit is
 * pointed at the library entry, each with a revision; the others keep the URL and are named in
 * the answer. `fetchIntoLibrary` is the part other code calls (an import's images
 * given as URLs); `copyMediaIntoLibrary` is the API's "copy this entry".
 *
 * The URL entries stay (unused): older revisions and pending changes may still name them.
 */
import { ApiError } from "../../../src/contract/errors";
import { MEDIA_LIMITS } from "../../../src/contract/limits";
import { addresses } from "../../../src/net/doh";
import { safeFetch, SafeFetchError } from "../../../src/net/safe-fetch";
import { storeStream } from "../../../src/media/store-stream";
import type { MediaCall } from "../../../src/contract/media-calls";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { type MediaEntry, type MediaUse, mediaEntry, usesOf } from "../content/media-library";
import { recordAudit } from "../access/audit";
import { mediaCall } from "./calls";
import { rewriteUses } from "./rewrite-uses";
import { mayEditItem } from "../../../src/access/grant";
import { rowsByIds } from "../storage/items-table";

const ACCEPT = "image/avif,image/webp,image/*;q=0.9,video/*;q=0.8,application/pdf;q=0.8,*/*;q=0.1";

export interface FetchedEntry {
  media: MediaEntry;
  /** The same bytes were already in the library: `media` is that entry. */
  duplicate: boolean;
}

/**
 * Fetches `url` and stores its bytes as an uploaded file of this site, as `a` (created by, audit).
 * `origin` is the service origin its URLs are served from (`https://host`); `timeoutMs` bounds the
 * whole fetch (default MEDIA_LIMITS.copyTimeoutMs). Refusals are
 * ApiErrors: 400 `bad_request` for an address the rules refuse (`details.reason`
 * `bad_url` or `private_address`), 502 `bad_gateway` when the host fails (`unreachable`,
 * `http_status`, `timeout`, `too_many_redirects`), and the upload's own 413/415.
 */
export async function fetchIntoLibrary(
  s: SiteContext,
  a: SiteAccess,
  url: string,
  file: { alt?: string; origin: string; timeoutMs?: number },
  fetcher?: typeof fetch,
): Promise<FetchedEntry> {
  const timeoutMs = file.timeoutMs ?? MEDIA_LIMITS.copyTimeoutMs;
  let fetched: Awaited<ReturnType<typeof safeFetch>>;
  try {
    fetched = await safeFetch(url, {
      allowPrivate: s.env.SSR_ALLOW_PRIVATE_FETCH === "true",
      timeoutMs,
      maxRedirects: MEDIA_LIMITS.copyRedirects,
      accept: ACCEPT,
      noun: "file",
      hint: "copy files from public addresses only",
      resolve: (host) => addresses(s.env, host),
      fetcher,
    });
  } catch (err) {
    throw copyRefused(err, url);
  }
  const { res, deadline } = fetched;
  if (!res.body) throw new ApiError("bad_request", "The file is empty (0 bytes).", { reason: "empty", url });
  // A compressed answer's Content-Length counts the compressed bytes: then the length is unknown.
  const declared = res.headers.get("content-length");
  const length = declared !== null && /^\d+$/.test(declared) && !res.headers.has("content-encoding") ? Number(declared) : null;
  if (length === 0) {
    await res.body.cancel();
    throw new ApiError("bad_request", "The file is empty (0 bytes).", { reason: "empty", url });
  }
  const call = async (c: MediaCall) => mediaCall(s, a, c);
  try {
    const stored = await storeStream(s.env, call, res.body.getReader(), {
      length,
      name: nameOf(fetched.url),
      alt: file.alt ?? "",
      origin: file.origin,
    });
    return { media: stored.media as MediaEntry, duplicate: stored.duplicate };
  } catch (err) {
    await res.body.cancel().catch(() => undefined);
    if (err instanceof ApiError) throw err;
    if (deadline.aborted)
      throw new ApiError("bad_gateway", `${url} did not send the whole file within ${timeoutMs / 1000} s.`, {
        reason: "timeout",
        url,
      });
    throw new ApiError("bad_gateway", `${url} broke off while sending the file.`, { reason: "unreachable", url });
  }
}

function copyRefused(err: unknown, url: string): unknown {
  if (!(err instanceof SafeFetchError)) return err;
  const ours = err.reason === "bad_url" || err.reason === "private_address";
  return new ApiError(ours ? "bad_request" : "bad_gateway", `Cannot copy the file: ${err.message}.`, { reason: err.reason, url });
}

/** The last segment of the URL's path, as the file's name (cleaned and given its type's extension when stored). */
function nameOf(url: string): string {
  const last = new URL(url).pathname.split("/").filter(Boolean).pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** An item that shows the copied URL and was left showing it: the caller may not edit it. */
export interface LeftOnUrl {
  collection: string;
  itemId: string;
  slug: string;
}

/**
 * The library's "copy into library" of an entry added by URL: the file is fetched and stored (or
 * found, when the same bytes are already there), and every item whose image or video field
 * shows an entry of the same URL, and that the caller may edit (`mayEditItem`: a Contributor
 * their own drafts, an Author their own items), now shows the stored file, with a revision.
 * Copying needs only `media.create`, so without that limit it would change other people's
 * items, published ones included. An entry that is already a stored file is answered as it is.
 */
export async function copyMediaIntoLibrary(
  s: SiteContext,
  a: SiteAccess,
  mediaId: string,
  origin: string,
): Promise<FetchedEntry & { repointed: number; notRepointed: LeftOnUrl[] }> {
  const row = s.sql
    .exec<{ url: string; alt: string; object_key: string | null }>("SELECT url, alt, object_key FROM media WHERE id = ?", mediaId)
    .toArray()[0];
  if (!row) throw new ApiError("not_found", "No such media entry.");
  if (row.object_key !== null)
    return { media: mediaEntry(s.sql, s.collections(), mediaId)!, duplicate: true, repointed: 0, notRepointed: [] };
  const copied = await fetchIntoLibrary(s, a, row.url, { alt: row.alt, origin });
  const target = copied.media.mediaId;
  let published = false;
  const { repointed, notRepointed } = s.storage.transactionSync(() => {
    // The row may have changed while the file was fetched: the URL is read again.
    const urlIds = s.sql
      .exec<{ id: string }>("SELECT id FROM media WHERE url = ? AND object_key IS NULL", row.url)
      .toArray()
      .map((r) => r.id);
    const { mine, others } = editableUses(s, a, [...usesOf(s.sql, s.collections(), urlIds).values()].flat());
    published = rewriteUses(s, a, mine, (m) => (urlIds.includes(m) ? target : m), "media copied into the library").published;
    const left = [...new Map(others.map((u) => [u.itemId, { collection: u.collection, itemId: u.itemId, slug: u.slug }])).values()];
    recordAudit(s.sql, a, `media ${mediaId}`, {
      copiedTo: target,
      url: row.url,
      repointed: mine.length,
      ...(left.length ? { notRepointed: left.map((l) => l.itemId) } : {}),
    });
    return { repointed: new Set(mine.map((u) => u.itemId)).size, notRepointed: left };
  });
  if (published) s.contentChanged();
  return { media: mediaEntry(s.sql, s.collections(), target)!, duplicate: copied.duplicate, repointed, notRepointed };
}

/** The uses on items the caller may edit, and the rest (left showing the URL). */
function editableUses(s: SiteContext, a: SiteAccess, uses: readonly MediaUse[]): { mine: MediaUse[]; others: MediaUse[] } {
  const items = new Map(rowsByIds(s.sql, [...new Set(uses.map((u) => u.itemId))]).map((r) => [r.id, r]));
  const mine: MediaUse[] = [];
  const others: MediaUse[] = [];
  for (const u of uses) {
    const item = items.get(u.itemId);
    (item && mayEditItem(a.grant, { created_by: item.created_by ?? null, status: item.status }) ? mine : others).push(u);
  }
  return { mine, others };
}
