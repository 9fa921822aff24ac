import { newMediaId } from "../../../src/ids";
import { selectIn } from "../storage/sql-in";
import { resizable, variantUrl, variantWidths } from "../../../src/media/variants";

export interface MediaRow {
  id: string;
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
  /** Uploaded files (actors/site/media/): the type the bytes are; NULL for media added by URL. */
  type?: string | null;
  /** The focal point, 0–1 across and down; NULL for the centre. */
  focal_x?: number | null;
  focal_y?: number | null;
}

/** What clients get for an image or video field. */
export interface MediaRef {
  mediaId: string;
  url: string;
  srcset: string;
  alt: string;
  width?: number;
  height?: number;
  /** Set only when the owner chose one: crops keep this point in view (`object-position`). */
  focal?: { x: number; y: number };
}

export const SRCSET_WIDTHS = [320, 640, 960, 1280, 1920] as const;

export function newMedia(input: { url: string; alt?: string; width?: number; height?: number }): MediaRow {
  return {
    id: newMediaId(),
    url: input.url,
    alt: input.alt ?? "",
    width: input.width ?? null,
    height: input.height ?? null,
  };
}

export function insertMedia(sql: SqlStorage, m: MediaRow): void {
  sql.exec(
    "INSERT INTO media (id, url, alt, width, height, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    m.id,
    m.url,
    m.alt,
    m.width,
    m.height,
    new Date().toISOString(),
  );
}

export function mediaExists(sql: SqlStorage, id: string): boolean {
  return sql.exec("SELECT 1 FROM media WHERE id = ?", id).toArray().length > 0;
}

export function mediaType(sql: SqlStorage, id: string): string | null {
  return sql.exec<{ type: string | null }>("SELECT type FROM media WHERE id = ?", id).toArray()[0]?.type ?? null;
}

export function readMedia(sql: SqlStorage, ids: Iterable<string>): Map<string, MediaRow> {
  const rows = selectIn<Required<MediaRow>>(
    sql,
    ids,
    (list) => `SELECT id, url, alt, width, height, type, focal_x, focal_y FROM media WHERE id IN (${list})`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * A responsive srcset through Cloudflare Image Resizing, only for an image on one of the site's
 * `resizingHosts` (its zone has Image Resizing on). Anywhere else `/cdn-cgi/image/…` is a 404 and
 * the browser would show the alt text, so the srcset names the original only. Widths above a
 * known intrinsic width are left out (resizing never upscales usefully).
 */
export function toMediaRef(m: MediaRow, resizingHosts: ReadonlySet<string>): MediaRef {
  const ref = resizable(m.type) && m.width !== null ? uploadedRef(m, m.width) : urlRef(m, resizingHosts);
  if (m.focal_x != null && m.focal_y != null) ref.focal = { x: m.focal_x, y: m.focal_y };
  return ref;
}

function urlRef(m: MediaRow, resizingHosts: ReadonlySet<string>): MediaRef {
  const srcset = resizes(m.url, resizingHosts) ? resizedSrcset(m) : m.width !== null ? `${m.url} ${m.width}w` : m.url;
  const ref: MediaRef = { mediaId: m.id, url: m.url, srcset, alt: m.alt };
  if (m.width !== null) ref.width = m.width;
  if (m.height !== null) ref.height = m.height;
  return ref;
}

/** An uploaded image: the service's own variants (src/media/variant-route.ts), each at its real width. */
function uploadedRef(m: MediaRow, width: number): MediaRef {
  const srcset = variantWidths(width)
    .map((w) => `${variantUrl(m.url, w)} ${w}w`)
    .join(", ");
  const ref: MediaRef = { mediaId: m.id, url: m.url, srcset, alt: m.alt, width };
  if (m.height !== null) ref.height = m.height;
  return ref;
}

function resizes(url: string, hosts: ReadonlySet<string>): boolean {
  if (hosts.size === 0) return false;
  try {
    return hosts.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

function resizedSrcset(m: MediaRow): string {
  const widths = SRCSET_WIDTHS.filter((w) => m.width === null || w <= m.width);
  if (m.width !== null && !widths.includes(m.width as (typeof SRCSET_WIDTHS)[number])) widths.push(m.width as 320);
  return widths.map((w) => `${resizedUrl(m.url, w)} ${w}w`).join(", ");
}

function resizedUrl(url: string, width: number): string {
  const u = new URL(url);
  return `${u.origin}/cdn-cgi/image/width=${width},format=auto${u.pathname}${u.search}`;
}
