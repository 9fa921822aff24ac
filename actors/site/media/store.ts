/**
 * Uploaded files, the site's side (owner of media_uploads and media_variants, and of the upload
 * columns of media). The front Worker streams the bytes into R2; this object only reserves before
 * the first byte and commits after the last, each in one transaction, so a failed stream leaves
 * no row, and a crash leaves an upload row the sweep (sweep.ts) finds.
 */
import { ApiError } from "../../../src/contract/errors";
import { newMediaId } from "../../../src/ids";
import { servedWidth } from "../../../src/media/variants";
import type { CommitInput, ServedFile, StoredFile } from "../../../src/contract/media-calls";

/** How long an upload may stay open before the sweep treats it as abandoned. */
export const UPLOAD_TTL_MS = 60 * 60_000;

export const objectKey = (siteId: string, uploadId: string) => `s/${siteId}/o/${uploadId}`;
export const variantKey = (objectKey: string, width: number, ext: string) => `${objectKey.replace("/o/", "/v/")}/${width}.${ext}`;
export const sitePrefix = (siteId: string) => `s/${siteId}/`;

export type { StoredFile, ServedFile, CommitInput } from "../../../src/contract/media-calls";

/**
 * Opens an upload and names its R2 key. The workspace has already reserved its bytes
 * (quota.ts): the plan's storage is for all the workspace's sites together.
 */
export function beginUpload(
  sql: SqlStorage,
  siteId: string,
  uploadId: string,
  bytes: number,
  now: number,
): { uploadId: string; key: string } {
  const key = objectKey(siteId, uploadId);
  sql.exec(
    "INSERT INTO media_uploads (id, object_key, multipart_id, reserved_bytes, started_at, expires_at) VALUES (?, ?, NULL, ?, ?, ?)",
    uploadId,
    key,
    bytes,
    now,
    now + UPLOAD_TTL_MS,
  );
  return { uploadId, key };
}

/** Records an R2 multipart upload's id before its first part, so the sweep can abort it. */
export function noteMultipart(sql: SqlStorage, uploadId: string, multipartId: string): void {
  sql.exec("UPDATE media_uploads SET multipart_id = ? WHERE id = ?", multipartId, uploadId);
}

/** Forgets an upload that failed (the front Worker deletes its object). */
export function abortUpload(sql: SqlStorage, uploadId: string): void {
  sql.exec("DELETE FROM media_uploads WHERE id = ?", uploadId);
}

const FILE_COLUMNS = "id, url, object_key, sha256, type, bytes, name, width, height";

/**
 * Makes an upload a media entry, or (the same bytes are already in the library) answers the
 * existing entry. Call inside a transaction. `discard`: the new object, when it is not kept.
 */
export function commitUpload(
  sql: SqlStorage,
  input: CommitInput,
  urlOf: (f: Omit<StoredFile, "url">) => string,
): { id: string; duplicate: boolean; discard: string[] } {
  const upload = sql.exec<{ object_key: string }>("SELECT object_key FROM media_uploads WHERE id = ?", input.uploadId).toArray()[0];
  if (!upload) throw new ApiError("request_timeout", "This upload took too long and was abandoned; send the file again.");
  sql.exec("DELETE FROM media_uploads WHERE id = ?", input.uploadId);
  const existing = sql.exec<{ id: string }>("SELECT id FROM media WHERE sha256 = ?", input.sha256).toArray()[0];
  if (existing) return { id: existing.id, duplicate: true, discard: [upload.object_key] };
  const id = newMediaId();
  const file = {
    id,
    object_key: upload.object_key,
    sha256: input.sha256,
    type: input.type,
    bytes: input.bytes,
    name: input.name,
    width: input.width,
    height: input.height,
  };
  sql.exec(
    `INSERT INTO media (id, url, alt, width, height, created_at, object_key, sha256, type, bytes, name, created_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    urlOf(file),
    input.alt,
    input.width,
    input.height,
    new Date().toISOString(),
    upload.object_key,
    input.sha256,
    input.type,
    input.bytes,
    input.name,
    input.createdBy,
  );
  return { id, duplicate: false, discard: [] };
}

/** The family a type belongs to: a replacement stays in it, so an image field keeps showing an image. */
const family = (type: string) => (type.startsWith("image/") ? "image" : type.startsWith("video/") ? "video" : type);

/**
 * Makes an upload the new file of entry `input.replaces`, keeping its id, alt text, focal point
 * and uses; its URL changes with the bytes. Call inside a transaction. `discard`: the old file
 * and its variants (or the new object, when the bytes did not change).
 */
export function commitReplace(
  sql: SqlStorage,
  input: CommitInput & { replaces: string },
  urlOf: (f: Omit<StoredFile, "url">) => string,
): { id: string; duplicate: boolean; discard: string[] } {
  const upload = sql.exec<{ object_key: string }>("SELECT object_key FROM media_uploads WHERE id = ?", input.uploadId).toArray()[0];
  if (!upload) throw new ApiError("request_timeout", "This upload took too long and was abandoned; send the file again.");
  const id = input.replaces;
  const old = sql
    .exec<{ object_key: string | null; sha256: string | null; type: string | null }>(
      "SELECT object_key, sha256, type FROM media WHERE id = ?",
      id,
    )
    .toArray()[0];
  if (!old) throw new ApiError("not_found", "No such media entry.");
  if (old.type !== null && family(old.type) !== family(input.type))
    throw new ApiError(
      "unsupported_media_type",
      `This entry is a ${family(old.type)} file; replace it with one of the same kind (this file is ${input.type}).`,
      {
        accepted: [old.type],
      },
    );
  sql.exec("DELETE FROM media_uploads WHERE id = ?", input.uploadId);
  if (old.sha256 === input.sha256) return { id, duplicate: true, discard: [upload.object_key] };
  const other = sql.exec<{ id: string }>("SELECT id FROM media WHERE sha256 = ? AND id <> ?", input.sha256, id).toArray()[0];
  if (other)
    throw new ApiError("conflict", `These exact bytes are already in the library as ${other.id}; use that entry instead.`, {
      mediaId: other.id,
    });
  const variants = old.object_key
    ? sql
        .exec<{ key: string }>("DELETE FROM media_variants WHERE object_key = ? RETURNING key", old.object_key)
        .toArray()
        .map((v) => v.key)
    : [];
  const file = {
    id,
    object_key: upload.object_key,
    sha256: input.sha256,
    type: input.type,
    bytes: input.bytes,
    name: input.name,
    width: input.width,
    height: input.height,
  };
  sql.exec(
    "UPDATE media SET url = ?, object_key = ?, sha256 = ?, type = ?, bytes = ?, name = ?, width = ?, height = ? WHERE id = ?",
    urlOf(file),
    file.object_key,
    file.sha256,
    file.type,
    file.bytes,
    file.name,
    file.width,
    file.height,
    id,
  );
  return { id, duplicate: false, discard: old.object_key ? [old.object_key, ...variants] : [] };
}

/** A stored file as the serving Worker needs it; `servedWidth`: its own URL serves this variant (a very wide original). */

/** The stored file a public media URL names: its id and the start of its hash must both match. */
export function resolveFile(sql: SqlStorage, mediaId: string, hashPrefix: string): ServedFile | null {
  if (!/^[0-9a-f]{12}$/.test(hashPrefix)) return null;
  const row = sql.exec<StoredFile>(`SELECT ${FILE_COLUMNS} FROM media WHERE id = ? AND object_key IS NOT NULL`, mediaId).toArray()[0];
  return row && row.sha256.startsWith(hashPrefix) ? { ...row, servedWidth: servedWidth(row.type, row.width) } : null;
}

export function recordVariant(sql: SqlStorage, objectKey: string, width: number, format: string, key: string, bytes: number): void {
  sql.exec(
    "INSERT OR REPLACE INTO media_variants (object_key, width, format, key, bytes) VALUES (?, ?, ?, ?, ?)",
    objectKey,
    width,
    format,
    key,
    bytes,
  );
}
