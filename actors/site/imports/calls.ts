/**
 * The front Worker's calls while it parses an uploaded file (RPC, never reachable by a client):
 * begin (the header, checked), rows (a batch of parsed records, staged in one transaction),
 * finish (the mapping proposed; a site export starts its dry run) and abort (a file that could
 * not be parsed leaves nothing). Each is checked against the caller's access by the object, as
 * a dashboard request is, and refusals come back as data (an ApiError does not keep its code
 * across RPC).
 */
import { ApiError, clip } from "../../../src/contract/errors";
import { IMPORT_LIMITS, type ImportAnswer, type ImportCall } from "../../../src/contract/imports";
import { randomHex } from "../../../src/ids";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { scheduleJob } from "../../shared/jobs";
import {
  columnValues,
  deleteImport,
  IMPORT_JOB,
  insertImport,
  readImport,
  runningImport,
  setImport,
  stagedCount,
  stageRows,
  toView,
} from "./store";
import { proposeMapping } from "./mapping";
import { readSiteHead } from "./site-plan";
import { countStagedRows, requireImportRoom } from "./room";

/** Values of a locale column matched to the site's locales (a site has at most 10 locales). */
const LOCALE_VALUES_MAX = 50;

/** The operation an upload is checked as (src/access/operations.ts). */
export const uploadPath = (siteId: string, collection: string | null): string =>
  collection === null ? `/sites/${siteId}/imports` : `/sites/${siteId}/collections/${encodeURIComponent(collection)}/imports`;

function receiving(s: SiteContext, id: string) {
  const imp = readImport(s.sql, id);
  if (!imp || imp.state !== "receiving") throw new ApiError("not_found", `No upload "${clip(id)}" under way.`);
  return imp;
}

/** A site import goes into a new site: one with no collection and no item yet. */
export function requireEmptySite(s: SiteContext): void {
  if (s.collections().length > 0)
    throw new ApiError(
      "conflict",
      "A site export imports into a new, empty site: this one has collections already. Create a new site and import there.",
    );
}

export function importCall(s: SiteContext, a: SiteAccess, call: ImportCall): ImportAnswer {
  const now = Date.now();
  switch (call.op) {
    case "begin": {
      const header = call.header;
      if (call.kind !== "site") {
        if (header.length === 0 || header.every((h) => h.trim() === ""))
          throw new ApiError("bad_request", "The file has no header row: its first line must name the columns.");
        if (header.length > IMPORT_LIMITS.columns)
          throw new ApiError("bad_request", `The file has ${header.length} columns; at most ${IMPORT_LIMITS.columns} can be imported.`, {
            limit: IMPORT_LIMITS.columns,
          });
        if (!s.collections().some((c) => c.slug === call.collection))
          throw new ApiError("not_found", `No collection "${clip(call.collection ?? "")}".`);
      } else requireEmptySite(s);
      requireImportRoom(s.sql, call.fileBytes, now);
      const head = call.kind === "site" ? readSiteHead(call.head) : null;
      const id = `imp_${randomHex(12)}`;
      insertImport(
        s.sql,
        {
          id,
          kind: call.kind,
          collection_id: call.kind === "site" ? null : s.collections().find((c) => c.slug === call.collection)!.id,
          file_name: call.fileName.slice(0, 200),
          // Counted as its rows are staged (room.ts); the file's size once it is received.
          file_bytes: 0,
          delimiter: call.delimiter,
          header: JSON.stringify(header),
          head: head ? JSON.stringify(call.head) : null,
          mapping: "[]",
        },
        now,
      );
      return { id };
    }
    case "rows": {
      receiving(s, call.id);
      const have = stagedCount(s.sql, call.id);
      if (call.first !== have + 1) throw new ApiError("conflict", `Rows arrived out of order (expected row ${have + 1}).`);
      if (have + call.rows.length > IMPORT_LIMITS.rows)
        throw new ApiError("payload_too_large", `The file has more than ${IMPORT_LIMITS.rows} rows; split it into smaller files.`, {
          limit: IMPORT_LIMITS.rows,
        });
      s.storage.transactionSync(() => {
        countStagedRows(s.sql, call.id, call.rows);
        stageRows(s.sql, call.id, call.first, call.rows);
      });
      return { done: true };
    }
    case "finish": {
      const imp = receiving(s, call.id);
      const total = stagedCount(s.sql, call.id);
      if (total === 0) {
        deleteImport(s.sql, call.id);
        throw new ApiError("bad_request", "The file has a header but no rows to import.");
      }
      const c = s.collections().find((x) => x.id === imp.collection_id) ?? null;
      const startNow = imp.kind === "site" && runningImport(s.sql) === null;
      s.storage.transactionSync(() => {
        setImport(
          s.sql,
          call.id,
          {
            state: startNow ? "checking" : "uploaded",
            rows_total: total,
            file_bytes: call.fileBytes,
            mapping: c
              ? JSON.stringify(
                  proposeMapping(JSON.parse(imp.header) as string[], c, s.locales(), (i) =>
                    columnValues(s.sql, call.id, i, LOCALE_VALUES_MAX).map((v) => v.value),
                  ),
                )
              : "[]",
          },
          now,
        );
        recordAudit(s.sql, a, `import ${call.id}`, { file: imp.file_name, rows: total, collection: c?.slug ?? null });
      });
      if (startNow) scheduleJob(s.storage, IMPORT_JOB, call.id, now);
      return { import: toView(s.sql, readImport(s.sql, call.id)!, c?.slug ?? null) };
    }
    case "abort": {
      const imp = readImport(s.sql, call.id);
      if (imp?.state === "receiving") s.storage.transactionSync(() => deleteImport(s.sql, call.id));
      return { done: true };
    }
  }
}
