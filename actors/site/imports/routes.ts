/**
 * The dashboard API of imports, under /sites/:siteId/imports (the upload itself is the front
 * Worker's, src/imports/routes.ts): read an import and its rows, confirm a mapping (a new dry
 * run), start, cancel, download the report, delete. Every change writes its audit row in its
 * own transaction; the work itself is the `import` job on the alarm (job.ts).
 */
import { IttyRouter, type IRequest } from "itty-router";
import { ittyRouter, type Router } from "../../shared/router";
import { stringify } from "csv-stringify/sync";
import { CSV_WRITE, escapeFormula } from "../../../src/contract/csv";
import { ApiError, clip } from "../../../src/contract/errors";
import { NO_STORE } from "../../../src/contract/cache-control";
import { json, readJsonObject } from "../../../src/http/json";
import type { ColumnMapping, ImportProblem } from "../../../src/contract/imports";
import type { SiteContext } from "../context";
import { needs, type SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { scheduleJob } from "../../shared/jobs";
import { putCollection } from "../content/collections";
import { insertMedia, mediaExists } from "../content/media";
import { ruleAt, saveRedirect } from "../storage/redirects-table";
import { restoreMovedSlugs } from "../storage/slug-redirects-table";
import { newRedirectId } from "../../../src/ids";
import {
  counts,
  deleteImport,
  type ImportRow,
  listImports,
  reportRows,
  requireImport,
  rowView,
  runningImport,
  setImport,
  toView,
  IMPORT_JOB,
} from "./store";
import { checkMapping } from "./mapping";
import { replaceLocales } from "../locales/translations";
import { readSiteHead } from "./site-plan";
import { requireEmptySite } from "./calls";

const PAGE_MAX = 200;
const REPORT_PAGE = 500;

/** A report cell a spreadsheet would run as a formula is written as text, as the collection export does. */
const safeCell = escapeFormula;

export function importRoutes(s: SiteContext): Router<[SiteAccess]> {
  const router = IttyRouter<IRequest, [SiteAccess]>({ base: "/sites/:siteId/imports" });
  const slugOf = (imp: ImportRow) => s.collections().find((c) => c.id === imp.collection_id)?.slug ?? null;
  const view = (imp: ImportRow) => toView(s.sql, imp, slugOf(imp));
  const load = (req: IRequest) => requireImport(s.sql, req.params.importId ?? "");
  const noOtherRunning = (id: string) => {
    const other = runningImport(s.sql);
    if (other && other.id !== id)
      throw new ApiError("conflict", `Import ${other.id} is running on this site; wait for it to finish or cancel it first.`, {
        running: other.id,
      });
  };

  router
    .get("/", () => json({ imports: listImports(s.sql, 50).map(view) }))
    .get("/:importId", (req) => json({ import: view(load(req)) }))
    .put("/:importId/mapping", async (req, a) => {
      const imp = load(req);
      if (imp.state !== "uploaded" && imp.state !== "checked")
        throw new ApiError("conflict", `The mapping can be changed before the import starts (this one is ${imp.state}).`, {
          state: imp.state,
        });
      noOtherRunning(imp.id);
      const body = await readJsonObject(req);
      let mapping: ColumnMapping[] = [];
      if (imp.kind !== "site") {
        const c = s.collections().find((x) => x.id === imp.collection_id);
        if (!c) throw new ApiError("conflict", "The collection of this import was deleted.");
        mapping = checkMapping(body.columns, JSON.parse(imp.header) as string[], c, s.locales());
        if (mapping.some((m) => m.use === "new")) needs(a, "collections.manage");
      }
      const now = Date.now();
      s.storage.transactionSync(() => {
        setImport(s.sql, imp.id, { mapping: JSON.stringify(mapping), state: "checking", pass_row: 0 }, now);
        recordAudit(s.sql, a, `import ${imp.id}`, { mapping: mapping.map((m) => [m.column, m.use, m.field ?? null]) });
      });
      scheduleJob(s.storage, IMPORT_JOB, imp.id, now);
      return json({ import: view(requireImport(s.sql, imp.id)) }, 202);
    })
    .post("/:importId/start", (req, a) => {
      const imp = load(req);
      if (imp.state !== "checked")
        throw new ApiError("conflict", `An import starts after its dry run (this one is ${imp.state}).`, { state: imp.state });
      noOtherRunning(imp.id);
      const mapping = JSON.parse(imp.mapping) as ColumnMapping[];
      const creates = mapping.filter((m) => m.use === "new" && m.create);
      if (creates.length || imp.kind === "site") needs(a, "collections.manage");
      const now = Date.now();
      const c = counts(s.sql, imp.id);
      s.storage.transactionSync(() => {
        if (imp.kind === "site") createSiteSchema(s, imp, a);
        else if (creates.length) {
          const col = s.collections().find((x) => x.id === imp.collection_id);
          if (!col) throw new ApiError("conflict", "The collection of this import was deleted.");
          const fields = [...col.fields, ...creates.map((m) => m.create!).filter((f) => !col.fields.some((x) => x.key === f.key))];
          putCollection(s.sql, s.collections(), col.slug, { name: col.name, fields }, false, { actor: a.grant.actor });
        }
        // Images given as URLs are copied into the library when the person may add media (else they stay links).
        const mediaOrigin = imp.kind !== "site" && a.grant.permissions.has("media.create") ? new URL(req.url).origin : null;
        setImport(s.sql, imp.id, { state: "importing", pass_row: 0, actor: JSON.stringify(a.grant.actor), media_origin: mediaOrigin }, now);
        recordAudit(s.sql, a, `import ${imp.id}`, { planned: c.planned });
      });
      s.collectionsChanged();
      scheduleJob(s.storage, IMPORT_JOB, imp.id, now);
      return json({ import: view(requireImport(s.sql, imp.id)) }, 202);
    })
    .post("/:importId/cancel", (req, a) => {
      const imp = load(req);
      const now = Date.now();
      let state: "cancelled" | "cancelling";
      if (imp.state === "uploaded" || imp.state === "checking" || imp.state === "checked") state = "cancelled";
      else if (imp.state === "importing" || imp.state === "linking") state = "cancelling";
      else throw new ApiError("conflict", `This import has ended (${imp.state}); nothing to cancel.`, { state: imp.state });
      s.storage.transactionSync(() => {
        setImport(s.sql, imp.id, state === "cancelled" ? { state, finished_at: now } : { state }, now);
        recordAudit(s.sql, a, `import ${imp.id}`);
      });
      if (state === "cancelling") scheduleJob(s.storage, IMPORT_JOB, imp.id, now);
      return json({ import: view(requireImport(s.sql, imp.id)) });
    })
    .get("/:importId/rows", (req) => {
      const imp = load(req);
      const url = new URL(req.url);
      const outcome = url.searchParams.get("outcome");
      const allowed = ["create", "update", "skip", "error", "created", "updated", "skipped", "failed", "noted"];
      if (outcome !== null && !allowed.includes(outcome))
        throw new ApiError("bad_request", `outcome must be one of ${allowed.join(", ")}.`, {
          issues: [{ path: "outcome", message: "unknown outcome" }],
        });
      const after = Number(url.searchParams.get("after") ?? "0");
      const limit = Number(url.searchParams.get("limit") ?? "50");
      if (!Number.isInteger(after) || after < 0 || !Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX)
        throw new ApiError("bad_request", `after must be a row number and limit 1 to ${PAGE_MAX}.`);
      const rows = reportRows(s.sql, imp.id, outcome, after, limit).map(rowView);
      return json({ rows, next: rows.length === limit ? rows[rows.length - 1]!.row : null });
    })
    .get("/:importId/report.csv", (req) => {
      const imp = load(req);
      let after = 0;
      let started = false;
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (!started) {
              started = true;
              controller.enqueue(
                encoder.encode(`\ufeff${stringify([["row", "line", "slug", "outcome", "column", "value", "reason"]], CSV_WRITE)}`),
              );
              return;
            }
            const rows = reportRows(s.sql, imp.id, null, after, REPORT_PAGE);
            if (rows.length === 0) return controller.close();
            after = rows[rows.length - 1]!.row;
            const lines: string[][] = [];
            for (const r of rows.map(rowView)) {
              const outcome = r.done ?? r.planned ?? "";
              const listed = [...r.problems, ...r.notes];
              const problems: ImportProblem[] = listed.length ? listed : [{ column: "", value: "", reason: "" }];
              for (const p of problems)
                lines.push([
                  String(r.row),
                  String(r.line),
                  safeCell(r.slug ?? ""),
                  outcome,
                  safeCell(p.column),
                  safeCell(p.value),
                  safeCell(p.reason),
                ]);
            }
            controller.enqueue(encoder.encode(stringify(lines, CSV_WRITE)));
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="import-${imp.id}-report.csv"`,
          "cache-control": NO_STORE,
        },
      });
    })
    .delete("/:importId", (req, a) => {
      const imp = load(req);
      if (["checking", "importing", "linking", "cancelling"].includes(imp.state))
        throw new ApiError("conflict", `This import is running (${imp.state}): cancel it first.`, { state: imp.state });
      s.storage.transactionSync(() => {
        deleteImport(s.sql, imp.id);
        recordAudit(s.sql, a, `import ${imp.id}`);
      });
      return json({ deleted: clip(imp.id) });
    });
  return ittyRouter(router);
}

/** A site import's collections (reference fields added once every collection exists) and media, before its items. */
function createSiteSchema(s: SiteContext, imp: ImportRow, a: SiteAccess): void {
  requireEmptySite(s);
  const head = readSiteHead(JSON.parse(imp.head ?? "null"));
  const change = { actor: a.grant.actor };
  const cross = (slug: string) => (f: { type: string; collection?: string }) =>
    (f.type === "reference" || f.type === "references") && f.collection !== slug;
  let all = s.collections();
  for (const c of head.collections) {
    putCollection(s.sql, all, c.slug, { name: c.name, fields: c.fields.filter((f) => !cross(c.slug)(f)) }, true, change);
    s.collectionsChanged();
    all = s.collections();
  }
  for (const c of head.collections.filter((x) => x.fields.some(cross(x.slug)))) {
    putCollection(s.sql, all, c.slug, { name: c.name, fields: c.fields }, false, change);
    s.collectionsChanged();
    all = s.collections();
  }
  if (head.locales) {
    replaceLocales(s.sql, s.locales(), head.locales, s.site()!.plan);
    s.localesChanged();
  }
  for (const m of head.media) if (!mediaExists(s.sql, m.id)) insertMedia(s.sql, m);
  const now = new Date().toISOString();
  for (const r of head.redirects) if (!ruleAt(s.sql, r.from)) saveRedirect(s.sql, newRedirectId(), r, now);
  const ids = new Map(all.map((c) => [c.slug, c.id]));
  restoreMovedSlugs(
    s.sql,
    head.movedSlugs.map((m) => ({ collection_id: ids.get(m.collection)!, slug: m.slug, item_id: m.itemId })),
    now,
  );
}
