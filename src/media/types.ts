/** The media types the library accepts, decided from a file's own bytes (sniff.ts), never from its name or header. */
import { MEDIA_LIMITS, MEDIA_TYPES, type MediaType } from "../contract/limits";
import { ApiError } from "../contract/errors";

export { MEDIA_TYPES, type MediaType };

export type MediaKind = "image" | "svg" | "video" | "pdf";

export function kindOf(type: MediaType): MediaKind {
  if (type === "image/svg+xml") return "svg";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  return "pdf";
}

/** The file extension a stored file is served under (its name's own extension is replaced). */
export const EXTENSION: Readonly<Record<MediaType, string>> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/svg+xml": "svg",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "application/pdf": "pdf",
};

export function maxBytesOf(type: MediaType): number {
  return MEDIA_LIMITS.bytes[kindOf(type)];
}

export function unsupported(): ApiError {
  return new ApiError(
    "unsupported_media_type",
    `This file is none of the accepted types (${MEDIA_TYPES.join(", ")}); the type is read from the file's own bytes, not its name.`,
    { accepted: [...MEDIA_TYPES] },
  );
}

export function fileTooLarge(type: MediaType | null, max: number): ApiError {
  const mb = Math.round((max / (1024 * 1024)) * 10) / 10;
  return new ApiError(
    "payload_too_large",
    type ? `A file of type ${type} may be at most ${mb} MiB.` : `An upload may be at most ${mb} MiB.`,
    { limit: type ? "file" : "request", max, ...(type ? { type } : {}) },
  );
}
