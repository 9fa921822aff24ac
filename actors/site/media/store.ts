/**
 * Uploaded files, the site's side (owner of media_uploads and media_variants, and of the upload
 * columns of media). The front Worker streams the bytes into R2; this object only reserves before
 * the first byte and commits after the last, each in one transaction, so a failed stream leaves
 * no row, and a crash leaves an upload row the sweep (sweep.ts) finds.
 */
import { ApiError } from "../../../src/contract/errors";
import { MEDIA_LIMITS } from "../../../src/contract/limits";
import type { Plan } from "../../../src/contract/plans";
import { newMediaId, randomHex } from "../../../src/ids";
import { servedWidth } from "../../../src/media/variants";
import type { CommitInput, ServedFile, StoredFile } from "../../../src/contract/media-calls";

/** How long an upload may stay open before the sweep treats it as abandoned. */
export const UPLOAD_TTL_MS = 60 * 60_000;

export const objectKey = (siteId: string, uploadId: string) => `s/${siteId}/o/${uploadId}`;
export const variantKey = (objectKey: string, width: number, ext: string) => `${objectKey.replace("/o/", "/v/")}/${width}.${ext}`;
export const sitePrefix = (siteId: string) => `s/${siteId}/`;

export type { StoredFile, ServedFile, CommitInput } from "../../../src/contract/media-calls";

/** Bytes of originals stored and reserved by uploads under way. */
export function usedBytes(sql: SqlStorage, now: number): number {
  const stored = sql.exec<{ n: number | null }>("SELECT sum(bytes) AS n FROM media WHERE object_key IS NOT NULL").one().n ?? 0;
  const reserved =
    sql.exec<{ n: number | null }>("SELECT sum(reserved_bytes) AS n FROM media_uploads WHERE expires_at > ?", now).one().n ?? 0;
  return stored + reserved;
}

/** Reserves `bytes` for a new upload and names its R2 key; 413 when the plan's storage would be passed. */
export function beginUpload(sql: SqlStorage, siteId: string, plan: Plan, bytes: number, now: number): { uploadId: string; key: string } {
  const limit = MEDIA_LIMITS.storageBytes[plan];
  const used = usedBytes(sql, now);
  if (used + bytes > limit)
    throw new ApiError(
      "payload_too_large",
      `This upload would pass the plan's storage for media (${Math.round(limit / 1024 / 1024)} MiB; ${Math.round(used / 1024 / 1024)} MiB used). Delete unused files or ask the operator for a larger plan.`,
      { limit: "storage", usedBytes: used, limitBytes: limit },
    );
  const uploadId = randomHex(16);
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
): { id: string; duplicate: boolean; discard: string | null } {
  const upload = sql.exec<{ object_key: string }>("SELECT object_key FROM media_uploads WHERE id = ?", input.uploadId).toArray()[0];
  if (!upload) throw new ApiError("request_timeout", "This upload took too long and was abandoned; send the file again.");
  sql.exec("DELETE FROM media_uploads WHERE id = ?", input.uploadId);
  const existing = sql.exec<{ id: string }>("SELECT id FROM media WHERE sha256 = ?", input.sha256).toArray()[0];
  if (existing) return { id: existing.id, duplicate: true, discard: upload.object_key };
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
  return { id, duplicate: false, discard: null };
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
