/** Headers of every media answer, 404s included: sandboxed, never sniffed, embeddable from any origin. */
export const MEDIA_SAFETY: Readonly<Record<string, string>> = {
  "content-security-policy": "sandbox; default-src 'none'",
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "cross-origin",
};

/** `If-None-Match`: a list of entity tags or `*` (weak comparison). */
export function matches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}
