/**
 * Width and height from an image's header, before anything decodes it: a decompression bomb is
 * refused from its first bytes. image-size (MIT, no dependencies, 5 KB gzip) reads all six image
 * types and JPEG's EXIF orientation; portrait phone photos (orientation 5–8) are stored with
 * width and height swapped, as every transform applies the orientation.
 */
import { imageSize } from "image-size";
import { ApiError } from "../contract/errors";
import { MEDIA_LIMITS } from "../contract/limits";

export interface Dimensions {
  width: number;
  height: number;
}

/** A header longer than this (EXIF thumbnails, ICC profiles before a JPEG's SOF) is refused. */
export const HEADER_MAX_BYTES = 1024 * 1024;

/**
 * The oriented size, or null while `head` is too short to say. `head` must be a copy that ends
 * where the data ends: image-size reads past a subarray's end into the rest of its buffer.
 */
export function readDimensions(head: Uint8Array): Dimensions | null {
  try {
    const r = imageSize(head);
    if (!r.width || !r.height) return null;
    const swap = r.orientation !== undefined && r.orientation >= 5 && r.orientation <= 8;
    return swap ? { width: r.height, height: r.width } : { width: r.width, height: r.height };
  } catch {
    return null;
  }
}

/** 413 for an image larger than the pixel limits, decided from its header alone. */
export function checkPixels(d: Dimensions): void {
  const { maxPixels, maxSide } = MEDIA_LIMITS;
  if (d.width * d.height > maxPixels || d.width > maxSide || d.height > maxSide)
    throw new ApiError(
      "payload_too_large",
      `This image is ${d.width}×${d.height} px; images may have at most ${maxPixels / 1_000_000} megapixels and ${maxSide} px on a side.`,
      { limit: "pixels", width: d.width, height: d.height, maxPixels, maxSide },
    );
}
