/**
 * One file to the media library: XHR with the raw body, because `xhr.upload.onprogress` reports
 * progress and a streaming fetch upload is refused over HTTP/1.1 (docs/proposals/media.md §9).
 * The session cookie goes along (same origin), as with every other call.
 */
import type { ErrorEnvelope } from "../api";
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
  const xhr = new XMLHttpRequest();
  const done = new Promise<Uploaded>((resolve, reject) => {
    const site = `/sites/${encodeURIComponent(siteId)}`;
    if (replaces) xhr.open("PUT", `${site}/media/${encodeURIComponent(replaces)}/file`);
    else xhr.open("POST", `${site}/media/files`);
    xhr.setRequestHeader("x-file-name", encodeURIComponent(file.name));
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: a proxy's page; explained below.
      }
      if (xhr.status === 200 || xhr.status === 201) {
        const b = body as { media: MediaEntry; duplicate?: boolean; unchanged?: boolean };
        return resolve({ media: b.media, duplicate: b.duplicate ?? b.unchanged ?? false });
      }
      const error = (body as { error?: ErrorEnvelope } | null)?.error;
      reject(new Error(error?.message ?? `The service answered ${xhr.status}. Try again.`));
    };
    xhr.onerror = () => reject(new Error("The upload broke off: check your connection and retry."));
    xhr.onabort = () => reject(new Error("Upload cancelled."));
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
