/** Which widths and formats a stored image is offered in (shared by the site's srcset and the serving Worker). */
import { MEDIA_AVIF_MAX_WIDTH, MEDIA_MAX_SERVED_WIDTH, MEDIA_VARIANT_WIDTHS } from "../contract/limits";

/** Types the Images binding resizes here and in production (GIF would lose its animation, SVG is not resized). */
export function resizable(type: string | null | undefined): boolean {
  return type === "image/jpeg" || type === "image/png" || type === "image/webp" || type === "image/avif";
}

/** The srcset widths of an image `width` px wide: never wider than it (or than the served maximum). */
export function variantWidths(width: number): number[] {
  const top = Math.min(width, MEDIA_MAX_SERVED_WIDTH);
  const out: number[] = MEDIA_VARIANT_WIDTHS.filter((w) => w <= top);
  if (!out.includes(top) && top < MEDIA_VARIANT_WIDTHS[MEDIA_VARIANT_WIDTHS.length - 1]!) out.push(top);
  if (width > MEDIA_MAX_SERVED_WIDTH) out.push(MEDIA_MAX_SERVED_WIDTH);
  return out;
}

/** The width an original is served at by its own URL: itself, or the maximum when it is wider. */
export function servedWidth(type: string | null, width: number | null): number | null {
  return resizable(type) && width !== null && width > MEDIA_MAX_SERVED_WIDTH ? MEDIA_MAX_SERVED_WIDTH : null;
}

export type VariantFormat = "image/avif" | "image/webp" | "image/jpeg" | "image/png";

/** AVIF when accepted and small enough for the Images binding, else WebP when accepted, else JPEG/PNG. */
export function variantFormat(accept: string | null, width: number, original: string): VariantFormat {
  const a = (accept ?? "").toLowerCase();
  if (a.includes("image/avif") && width <= MEDIA_AVIF_MAX_WIDTH) return "image/avif";
  if (a.includes("image/webp")) return "image/webp";
  return original === "image/png" ? "image/png" : "image/jpeg";
}

export const FORMAT_EXT: Readonly<Record<VariantFormat, string>> = {
  "image/avif": "avif",
  "image/webp": "webp",
  "image/jpeg": "jpg",
  "image/png": "png",
};

/** A variant's URL from its original's: `…/<hash>/<name>` → `…/<hash>/w/<width>/<name>`. */
export function variantUrl(url: string, width: number): string {
  return url.replace(/\/([^/]+)$/, `/w/${width}/$1`);
}
