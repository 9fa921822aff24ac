/** Filenames a client gave, made safe for a URL path segment and for Content-Disposition (RFC 6266). */
import { EXTENSION, type MediaType } from "./types";

const NAME_MAX = 120;

/**
 * The display name kept with a file: control characters, slashes, quotes and backslashes
 * removed, dots at the start dropped (no `..`), and the extension replaced by the one of the
 * type the bytes are.
 */
export function cleanName(raw: string | null, type: MediaType): string {
  let name = (raw ?? "").normalize("NFC");
  name = name
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]/g, "")
    .replace(/^[.\s]+/, "")
    .trim();
  const dot = name.lastIndexOf(".");
  let stem = dot > 0 ? name.slice(0, dot) : name;
  stem = [...stem].slice(0, NAME_MAX).join("").trim() || "file";
  return `${stem}.${EXTENSION[type]}`;
}

/** A name as the last segment of a media URL: only URL-safe ASCII. */
export function urlName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-.]+/, "");
  return slug || "file";
}

/** `inline` with an ASCII fallback and the exact name as UTF-8 (filename*). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
