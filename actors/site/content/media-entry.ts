/** A media entry as the upload API answers it: the MediaRef plus what the library shows of the file. */
import { type MediaRef, toMediaRef } from "./media";

/** What the library shows of an entry beyond its MediaRef (keys only for uploaded files). */
export interface EntryFacts {
  name?: string;
  type?: string;
  bytes?: number;
  focal?: { x: number; y: number } | null;
  createdAt: string;
}

export type EntryRow = {
  id: string;
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
  created_at: string;
  object_key: string | null;
  sha256: string | null;
  type: string | null;
  bytes: number | null;
  name: string | null;
  focal_x: number | null;
  focal_y: number | null;
};

export const ENTRY_COLUMNS = "id, url, alt, width, height, created_at, object_key, sha256, type, bytes, name, focal_x, focal_y";

export function toEntry(r: EntryRow, hosts: ReadonlySet<string>): Omit<MediaRef, "focal"> & EntryFacts {
  const out: Omit<MediaRef, "focal"> & EntryFacts = { ...toMediaRef(r, hosts), createdAt: r.created_at };
  if (r.object_key !== null) {
    if (r.name !== null) out.name = r.name;
    if (r.type !== null) out.type = r.type;
    if (r.bytes !== null) out.bytes = r.bytes;
  }
  out.focal = r.focal_x === null || r.focal_y === null ? null : { x: r.focal_x, y: r.focal_y };
  return out;
}
