/**
 * One file as a raw request body with upload progress: XHR, because `xhr.upload.onprogress`
 * reports progress and a streaming fetch upload is refused over HTTP/1.1 (Chromium: `TypeError:
 * Failed to fetch`). The session cookie goes along (same origin), as with every other call. Used by the media
 * library and the import screen; each decides what a status means.
 */
import type { ErrorEnvelope } from "./api";

export interface Sent {
  status: number;
  /** The answer as JSON, or null when it was not JSON (a proxy's page). */
  body: unknown;
  /** The envelope's error, when the answer carried one. */
  error: ErrorEnvelope | null;
}

export function sendFile(
  method: "POST" | "PUT",
  url: string,
  headers: Record<string, string>,
  file: File,
  onProgress: (loaded: number, total: number) => void,
): { done: Promise<Sent>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<Sent>((resolve, reject) => {
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: the caller explains the status.
      }
      resolve({ status: xhr.status, body, error: (body as { error?: ErrorEnvelope } | null)?.error ?? null });
    };
    xhr.onerror = () => reject(new Error("The upload broke off: check your connection and try again."));
    xhr.onabort = () => reject(new Error("Upload cancelled."));
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}
