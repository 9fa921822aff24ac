/**
 * The dashboard API of the owner's redirects, under /sites/:siteId/ssr/redirects: list (paged,
 * filtered), add, change, delete, and the whole list as CSV both ways. Every write checks the
 * rule's chain for a loop, retires cached pages (a new rule changes what a path answers) and
 * rebuilds the sitemap (which never lists a redirected URL), audited in its own transaction.
 */
import { IttyRouter, type IRequest } from "itty-router";
import { parse as parseCsv } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { ittyRouter, type Router } from "../../shared/router";
import { ApiError, clip } from "../../../src/contract/errors";
import { CSV_WRITE } from "../../../src/contract/csv";
import { NO_STORE } from "../../../src/contract/cache-control";
import { entitlements, planRequired } from "../../../src/contract/plans";
import { REDIRECT_LIMITS, type RedirectInput, redirectInputSchema } from "../../../src/contract/redirects";
import { json, readJsonObject } from "../../../src/http/json";
import { readBodyBytes } from "../../../src/http/read-capped";
import { parseBody } from "../../../src/http/validation";
import { parsePage } from "../../../src/shared/list-params";
import { newRedirectId } from "../../../src/ids";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { publicBase } from "../hostnames/public-base";
import { countMovedSlugs } from "../storage/slug-redirects-table";
import {
  allRedirects,
  deleteRedirect,
  findRedirect,
  listRedirects,
  loopFrom,
  matchPath,
  type MovedPath,
  movedItems,
  type RedirectRow,
  redirectCount,
  ruleAt,
  saveRedirect,
  targetOf,
} from "../storage/redirects-table";

export function presentRedirect(r: RedirectRow) {
  return { id: r.id, from: r.from_path, to: r.to_url, status: r.status, createdAt: r.created_at, updatedAt: r.updated_at };
}

/** The CSV columns a file may name for each value (ours first, then other services' exports). */
const COLUMNS = {
  from: ["from", "old path", "redirect from", "source", "old url", "path"],
  to: ["to", "new path", "redirect to", "target", "destination", "new url"],
  status: ["status", "type", "code"],
} as const;

export function redirectRoutes(s: SiteContext): Router<[SiteAccess]> {
  const router = IttyRouter<IRequest, [SiteAccess]>({ base: "/sites/:siteId/ssr" });
  const requirePlan = () => {
    if (!entitlements(s.site()!.plan).features.serverRendering) throw planRequired("serverRendering");
  };
  const moved = (): MovedPath => {
    const c = s.capture();
    return c ? movedItems(s.sql, c.collectionId, publicBase(s, c).base) : () => null;
  };
  /** A rule as it will be stored, refused when its path has another rule or its chain comes back to it. */
  const check = (input: RedirectInput, id: string | null, where = ""): RedirectInput => {
    const from = matchPath(input.from);
    const other = ruleAt(s.sql, from);
    if (other && other.id !== id)
      throw new ApiError("conflict", `${where}${from} already redirects to ${other.to_url}: change that rule instead.`, {
        path: "from",
        redirectId: other.id,
      });
    const loop = loopFrom(s.sql, from, input.to, moved());
    if (loop)
      throw new ApiError("bad_request", `${where}This rule would make a loop (${loop}): visitors would never arrive.`, { path: "to" });
    return { ...input, from };
  };
  const changed = () => s.contentChanged();

  router
    .get("/redirects", (req) => {
      const url = new URL(req.url);
      const q = (url.searchParams.get("q") ?? "").trim().slice(0, REDIRECT_LIMITS.chars);
      const page = parsePage(url.searchParams.get("page"));
      const { rows, total } = listRedirects(s.sql, q, page);
      return json({
        redirects: rows.map(presentRedirect),
        total,
        page,
        max: REDIRECT_LIMITS.perSite,
        automatic: countMovedSlugs(s.sql),
      });
    })
    .post("/redirects", async (req, a) => {
      requirePlan();
      const input = check(parseBody(redirectInputSchema, await readJsonObject(req), "redirect"), null);
      if (redirectCount(s.sql) >= REDIRECT_LIMITS.perSite)
        throw new ApiError("conflict", `A site holds at most ${REDIRECT_LIMITS.perSite} redirects: delete some first.`, {
          limit: "redirects",
          max: REDIRECT_LIMITS.perSite,
        });
      const row = s.storage.transactionSync(() => {
        const r = saveRedirect(s.sql, newRedirectId(), input, new Date().toISOString());
        recordAudit(s.sql, a, `redirect ${r.from_path}`, { to: r.to_url, status: r.status });
        return r;
      });
      changed();
      return json({ redirect: presentRedirect(row) }, 201);
    })
    .put("/redirects/:redirectId", async (req, a) => {
      requirePlan();
      const id = req.params.redirectId ?? "";
      const body = parseBody(redirectInputSchema, await readJsonObject(req), "redirect");
      const before = findRedirect(s.sql, id);
      if (!before) throw new ApiError("not_found", `No redirect "${clip(id)}".`);
      const input = check(body, id);
      const row = s.storage.transactionSync(() => {
        const r = saveRedirect(s.sql, id, input, new Date().toISOString());
        recordAudit(s.sql, a, `redirect ${r.from_path}`, { before: { from: before.from_path, to: before.to_url, status: before.status } });
        return r;
      });
      changed();
      return json({ redirect: presentRedirect(row) });
    })
    .delete("/redirects/:redirectId", (req, a) => {
      requirePlan();
      const id = req.params.redirectId ?? "";
      const row = findRedirect(s.sql, id);
      if (!row) throw new ApiError("not_found", `No redirect "${clip(id)}".`);
      s.storage.transactionSync(() => {
        deleteRedirect(s.sql, id);
        recordAudit(s.sql, a, `redirect ${row.from_path}`, { deleted: true, to: row.to_url });
      });
      changed();
      return json({ deleted: id });
    })
    .get("/redirects.csv", () => {
      const rows = allRedirects(s.sql).map((r) => [r.from_path, r.to_url, String(r.status)]);
      const body = stringify([["from", "to", "status"], ...rows], CSV_WRITE);
      return new Response(body, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": 'attachment; filename="redirects.csv"',
          "cache-control": NO_STORE,
        },
      });
    })
    .post("/redirects/import", async (req, a) => {
      requirePlan();
      const bytes = await readBodyBytes(
        req,
        REDIRECT_LIMITS.csvBytes,
        () => new ApiError("payload_too_large", `A redirects file is limited to ${REDIRECT_LIMITS.csvBytes / 1024 / 1024} MB.`),
      );
      const rules = readRules(bytes);
      const result = s.storage.transactionSync(() => {
        const counts = { added: 0, updated: 0, unchanged: 0 };
        const now = new Date().toISOString();
        // Counted once: the file's new rules are added to it as they go (a count per line would read the table each time).
        const before = redirectCount(s.sql);
        rules.forEach(({ input, line }) => {
          const existing = ruleAt(s.sql, input.from);
          if (existing && existing.to_url === targetOf(input.to) && existing.status === input.status) {
            counts.unchanged++;
            return;
          }
          saveRedirect(s.sql, existing?.id ?? newRedirectId(), input, now);
          counts[existing ? "updated" : "added"]++;
          if (before + counts.added > REDIRECT_LIMITS.perSite)
            throw new ApiError(
              "conflict",
              `Line ${line}: a site holds at most ${REDIRECT_LIMITS.perSite} redirects; nothing was imported.`,
              {
                limit: "redirects",
                max: REDIRECT_LIMITS.perSite,
              },
            );
        });
        // Loops are checked once every rule of the file is in: a file may turn a chain around.
        const m = moved();
        for (const { input, line } of rules) {
          const loop = loopFrom(s.sql, input.from, input.to, m);
          if (loop) throw new ApiError("bad_request", `Line ${line}: this rule would make a loop (${loop}); nothing was imported.`);
        }
        recordAudit(s.sql, a, "redirects (CSV import)", { ...counts, rules: rules.length });
        return counts;
      });
      if (result.added + result.updated > 0) changed();
      return json(result);
    });
  return ittyRouter(router);
}

/**
 * The rules of a CSV file (RFC 4180, `,` `;` or tab, a header row naming the columns), each
 * checked as one added alone would be. Any bad line refuses the whole file, with every problem
 * (up to 50) and its line: an import is all or nothing.
 */
function readRules(bytes: Uint8Array): { input: RedirectInput; line: number }[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes).replace(/^\ufeff/, "");
  } catch {
    throw new ApiError("bad_request", "The file is not UTF-8 text: save it as CSV UTF-8 and try again.");
  }
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = [",", ";", "\t"].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best), ",");
  let records: string[][];
  try {
    records = parseCsv(text, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (err) {
    throw new ApiError("bad_request", `The file is not valid CSV: ${clip(err instanceof Error ? err.message : String(err), 200)}`);
  }
  const header = (records[0] ?? []).map((h) => h.toLowerCase());
  const col = (names: readonly string[]) => header.findIndex((h) => names.includes(h));
  const at = { from: col(COLUMNS.from), to: col(COLUMNS.to), status: col(COLUMNS.status) };
  if (at.from < 0 || at.to < 0)
    throw new ApiError("bad_request", 'The first line must name the columns: "from" and "to" (and "status", 301 or 302, if you like).');
  const rows = records.slice(1);
  if (rows.length > REDIRECT_LIMITS.perSite)
    throw new ApiError("payload_too_large", `The file has ${rows.length} rules; a site holds at most ${REDIRECT_LIMITS.perSite}.`);
  const problems: { line: number; message: string }[] = [];
  const rules: { input: RedirectInput; line: number }[] = [];
  const seen = new Map<string, number>();
  rows.forEach((r, i) => {
    const line = i + 2;
    const status = at.status >= 0 && r[at.status] ? Number(r[at.status]) : undefined;
    const parsed = redirectInputSchema.safeParse({ from: r[at.from] ?? "", to: r[at.to] ?? "", status });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      problems.push({ line, message: `${issue.path.join(".")}: ${issue.message}` });
      return;
    }
    const from = matchPath(parsed.data.from);
    const twice = seen.get(from);
    if (twice !== undefined) problems.push({ line, message: `from: ${from} is on line ${twice} too` });
    seen.set(from, line);
    rules.push({ input: { ...parsed.data, from }, line });
  });
  if (problems.length > 0)
    throw new ApiError(
      "bad_request",
      `${problems.length} line${problems.length === 1 ? "" : "s"} of the file cannot be imported (line ${problems[0]!.line}: ${problems[0]!.message}); nothing was imported.`,
      { issues: problems.slice(0, 50).map((p) => ({ path: `line ${p.line}`, message: clip(p.message, 300) })) },
    );
  return rules;
}
