/** One file to the media library (dashboard/src/send-file.ts does the sending). */
import { sendFile } from "../send-file";
import type { MediaEntry } from "../types";

export interface Uploaded {
  media: MediaEntry;
  duplicate: boolean;
}

/** `replaces`: the entry whose file this becomes (same id, new URL); the answer's `duplicate` is then "unchanged". */
export function uploadFile(
  siteId: string,
  file: File,
  onProgress: (loaded: number, total: number) => void,
  replaces?: string,
): { done: Promise<Uploaded>; abort: () => void } {
  const site = `/sites/${encodeURIComponent(siteId)}`;
  const sent = sendFile(
    replaces ? "PUT" : "POST",
    replaces ? `${site}/media/${encodeURIComponent(replaces)}/file` : `${site}/media/files`,
    { "x-file-name": encodeURIComponent(file.name), "content-type": "application/octet-stream" },
    file,
    onProgress,
  );
  const done = sent.done.then(({ status, body, error }) => {
    if (status !== 200 && status !== 201)
      throw new UploadRefused(
        error?.message ?? `The service answered ${status}. Try again.`,
        refusedForGood(status, error?.details?.["limit"]),
      );
    const b = body as { media: MediaEntry; duplicate?: boolean; unchanged?: boolean };
    return { media: b.media, duplicate: b.duplicate ?? b.unchanged ?? false };
  });
  return { done, abort: sent.abort };
}

/** A refused upload; `forGood` when the file itself is the reason, so sending it again cannot help. */
export class UploadRefused extends Error {
  constructor(
    message: string,
    readonly forGood: boolean,
  ) {
    super(message);
  }
}

/** Its type, emptiness, size or pixels refuse a file for good; a full library, a rate limit or an outage do not. */
function refusedForGood(status: number, limit: unknown): boolean {
  return status === 400 || status === 415 || (status === 413 && limit !== "storage");
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
