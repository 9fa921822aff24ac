/**
 * How much a site keeps of imports at once. Staged rows live in the site object's own SQLite (not
 * in R2, so not in the plan's media storage), each import up to IMPORT_LIMITS.bytes and kept 7 days after it
 * ends: without a bound, one Editor could stage files without end. So a site keeps at most
 * IMPORT_LIMITS.keptImports imports and IMPORT_LIMITS.keptBytes of their files together, counted
 * by `imports.file_bytes` (while an upload is received, the bytes staged so far; once it is
 * received, the file's size). Deleting an import (or its 7 days passing) makes room.
 */
import { ApiError } from "../../../src/contract/errors";
import { IMPORT_LIMITS, type StagedRow } from "../../../src/contract/imports";
import { deleteImport } from "./store";

/** An upload still receiving after this long can never finish (the upload is cut at uploadTotalMs). */
const DEAD_UPLOAD_MS = IMPORT_LIMITS.uploadTotalMs + 5 * 60_000;
const MB = 1024 * 1024;
const mb = (bytes: number): string => `${Math.ceil(bytes / MB)} MB`;

function kept(sql: SqlStorage): { imports: number; bytes: number } {
  return sql
    .exec<{ imports: number; bytes: number }>("SELECT count(*) AS imports, coalesce(sum(file_bytes), 0) AS bytes FROM imports")
    .one();
}

function tooMuch(keptBytes: number): ApiError {
  return new ApiError(
    "payload_too_large",
    `This site's imports would keep more than ${mb(IMPORT_LIMITS.keptBytes)} of files (${mb(keptBytes)} are kept now). Delete imports you no longer need (their items stay), then upload again.`,
    { limit: "importBytes", maxBytes: IMPORT_LIMITS.keptBytes, keptBytes },
  );
}

/**
 * Before an upload's first row: room for one more import and, when its length is declared, for
 * its bytes. Uploads that died half-received are removed first (no one can see or delete them).
 */
export function requireImportRoom(sql: SqlStorage, declaredBytes: number, now: number): void {
  const dead = sql
    .exec<{ id: string }>("SELECT id FROM imports WHERE state = 'receiving' AND created_at < ?", now - DEAD_UPLOAD_MS)
    .toArray();
  for (const { id } of dead) deleteImport(sql, id);
  const k = kept(sql);
  if (k.imports >= IMPORT_LIMITS.keptImports)
    throw new ApiError(
      "conflict",
      `This site keeps ${IMPORT_LIMITS.keptImports} imports already (each stays ${IMPORT_LIMITS.keepDays} days after it ends, with its report). Delete one you no longer need (its items stay), then upload again.`,
      { limit: "imports", max: IMPORT_LIMITS.keptImports, kept: k.imports },
    );
  if (k.bytes + declaredBytes > IMPORT_LIMITS.keptBytes) throw tooMuch(k.bytes);
}

const utf8 = new TextEncoder();

/** Counts a batch about to be staged against the room, or refuses it (the upload is then aborted). */
export function countStagedRows(sql: SqlStorage, id: string, rows: readonly StagedRow[]): void {
  let bytes = 0;
  for (const r of rows) bytes += utf8.encode(JSON.stringify(r.cells)).byteLength;
  const k = kept(sql);
  if (k.bytes + bytes > IMPORT_LIMITS.keptBytes) throw tooMuch(k.bytes);
  sql.exec("UPDATE imports SET file_bytes = file_bytes + ? WHERE id = ?", bytes, id);
}
