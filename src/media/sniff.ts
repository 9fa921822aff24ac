/**
 * The type of a file from its leading bytes (magic numbers): the nine accepted types and nothing
 * else. Our own small table rather than file-type: that one calls SVG application/xml, needs
 * nodejs_compat and is 22 KB gzip for nine signatures.
 */
import type { MediaType } from "./types";

/** Bytes enough to decide every type (SVG's root may follow an XML declaration, comments and a DOCTYPE). */
export const SNIFF_BYTES = 1024;

const at = (b: Uint8Array, off: number, sig: readonly number[]) => b.length >= off + sig.length && sig.every((v, i) => b[off + i] === v);
const ascii = (b: Uint8Array, off: number, s: string) =>
  at(
    b,
    off,
    [...s].map((c) => c.charCodeAt(0)),
  );
const text = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

const MP4_BRANDS = new Set(["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "M4V "]);

/** The brands of an ISO BMFF `ftyp` box: the major one, then the compatible ones. */
function brands(b: Uint8Array): string[] {
  const size = b.length >= 4 ? ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0 : 0;
  const end = Math.min(size, b.length);
  const out = [text(b, 8, 12)];
  for (let i = 16; i + 4 <= end; i += 4) out.push(text(b, i, i + 4));
  return out;
}

export function sniff(b: Uint8Array): MediaType | null {
  if (at(b, 0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (at(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) return "image/gif";
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return "image/webp";
  if (ascii(b, 4, "ftyp") && b.length >= 12) {
    const [major, ...compatible] = brands(b);
    if (major === "avif" || major === "avis" || (major === "mif1" && compatible.includes("avif"))) return "image/avif";
    if (MP4_BRANDS.has(major!)) return "video/mp4";
    // HEIC, QuickTime and other ISO files are not accepted.
    return null;
  }
  // Matroska that does not say it is WebM is not accepted.
  if (at(b, 0, [0x1a, 0x45, 0xdf, 0xa3])) return text(b, 0, 64).includes("webm") ? "video/webm" : null;
  if (ascii(b, 0, "%PDF-")) return "application/pdf";
  const t = new TextDecoder().decode(b.subarray(0, SNIFF_BYTES)).replace(/^\uFEFF/, "");
  if (/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE\s+svg[^>]*(\[[\s\S]*?\])?\s*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(t))
    return "image/svg+xml";
  return null;
}
