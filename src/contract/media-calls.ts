/**
 * The call protocol between the front Worker's upload and media routes and the site object
 * (`Site.media()`): the front Worker streams the bytes into R2, the site object reserves the
 * upload and commits the row. Both sides take these shapes from here, so the front Worker never
 * imports the object's code.
 */
import type { MediaType } from "./limits";

/** What the front Worker learned while streaming a file, handed to the site object to commit. */
export interface CommitInput {
  uploadId: string;
  sha256: string;
  type: MediaType;
  bytes: number;
  width: number | null;
  height: number | null;
  name: string;
  alt: string;
  /** The service origin the file is served from (`https://host`). */
  origin: string;
  createdBy: string | null;
  /** Replace: the entry whose file these bytes become (its id, alt, focal point and uses stay). */
  replaces?: string;
}

export type MediaCall =
  | { op: "begin"; bytes: number }
  | { op: "multipart"; uploadId: string; multipartId: string }
  | { op: "commit"; input: CommitInput }
  | { op: "abort"; uploadId: string };

/** A site's stored bytes of originals, stamped so the workspace keeps only the newest report. */
export interface StorageReport {
  bytes: number;
  seq: number;
}

export type BeginAnswer = { uploadId: string; key: string };
/** `Media` is the library entry as the site object builds it; the front Worker only passes it on. */
/** `discard`: R2 keys the front Worker deletes (a copy not kept, a replaced file and its variants). */
export type CommitAnswer<Media = unknown> = { media: Media; duplicate: boolean; discard: string[] };

/** A stored original as a public media URL resolves it. */
export type StoredFile = {
  id: string;
  url: string;
  object_key: string;
  sha256: string;
  type: MediaType;
  bytes: number;
  name: string;
  width: number | null;
  height: number | null;
};

export interface ServedFile extends StoredFile {
  /** The width the original is served at (originals wider than the maximum are scaled), or null. */
  servedWidth: number | null;
}
