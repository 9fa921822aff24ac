/**
 * The import job (kind `import`, key = the import's id) on the site's one alarm. Each run takes
 * slices of staged rows (SLICE_ROWS at most; in the write and link passes as many as fit
 * SLICE_WORK_MS) for up to RUN_MS and yields between slices, so reads and writes of the site are
 * answered while an import runs; then it asks to run again at once.
 *
 * Passes, each resumable at the row it last committed (`imports.pass_row`):
 * - check (the dry run): every row planned (create, update, skip, error with reasons); writes
 *   only `import_rows`. At its end, references to rows of the file that will not be created
 *   turn those rows into errors too (repeated until nothing changes).
 * - write: each row in its own transaction with its outcome and the pass position, so a row is
 *   written whole or not at all. A row naming items the file creates later is written as a
 *   draft without those references (or, for an existing item, not yet) and marked pending.
 * - link: pending rows get their references (every item of the file exists now) and their
 *   status; a row whose target failed is undone (its draft removed) and fails with the reason.
 * Webhooks: every row sends the item events a dashboard write of it would (the `items` triggers,
 * in the row's transaction), and `import.finished` the outcome. A new item waiting for the link
 * pass is written without events and announced (`item.created`, `item.published`) by the link
 * pass once whole; a waiting draft removed (its target failed, a cancel) was never announced.
 */
import type { JobHandler } from "../../shared/jobs";
import { log } from "../../../src/log";
import type { SiteContext } from "../context";
import { readImport } from "./store";
import type { Copies } from "./images";
import { checkSlice } from "./check-pass";
import { cancelSlice, linkSlice, writeSlice } from "./write-passes";

/**
 * How long one alarm run goes on slicing (wall time) before it hands the alarm to the site's other
 * jobs and asks to run again at once. Other due jobs run between two runs, in the same alarm: the
 * search index embeds a batch of the items just published (seconds with the local model), so a run
 * of only 40 slices spent most of an import waiting behind it (2,000 rows written in 1.8 s, then
 * 11 s of embedding before the next run).
 */
const RUN_MS = 10_000;
/** Image URLs remembered per import between slices (a file reusing one image copies it once). */
const KNOWN_COPIES_MAX = 5_000;
/** Public answers are retired at most this often while an import writes (and once at its end). */
const BUMP_EVERY_MS = 2_000;

/** The job's `run` (site.ts loads this module on the first run and adds the retry rules). */
export function importJob(s: SiteContext): Pick<JobHandler, "run"> {
  let lastBump = 0;
  // The images this object copied for the running import (a restart copies again: the same bytes are one file).
  let copied = { id: "", copies: new Map() as Copies };
  const knownCopies = (id: string): Copies => {
    if (copied.id !== id || copied.copies.size > KNOWN_COPIES_MAX) copied = { id, copies: new Map() };
    return copied.copies;
  };
  return {
    async run(id) {
      const started = Date.now();
      const seen = { pass: "", rows: 0, slices: 0, maxSliceMs: 0, workMs: 0, maxWorkMs: 0, yieldMs: 0, maxYieldMs: 0 };
      try {
        while (Date.now() - started < RUN_MS) {
          const imp = readImport(s.sql, id);
          if (!imp) return;
          const sliceStart = Date.now();
          let rows = 0;
          if (imp.state === "checking") rows = checkSlice(s, imp);
          else if (imp.state === "importing") rows = await writeSlice(s, imp, knownCopies(imp.id));
          else if (imp.state === "linking") rows = await linkSlice(s, imp, knownCopies(imp.id));
          else if (imp.state === "cancelling") rows = cancelSlice(s, imp);
          else return;
          if (rows > 0 && imp.state !== "checking" && Date.now() - lastBump >= BUMP_EVERY_MS) {
            lastBump = Date.now();
            s.contentChanged();
          }
          const worked = Date.now();
          // Reads and writes of the site get their turn between slices (a DO's clock stands still in synchronous code).
          await scheduler.wait(1);
          seen.pass = imp.state;
          seen.rows += rows;
          seen.slices++;
          seen.maxSliceMs = Math.max(seen.maxSliceMs, Date.now() - sliceStart - 1);
          seen.workMs += worked - sliceStart;
          seen.maxWorkMs = Math.max(seen.maxWorkMs, worked - sliceStart);
          seen.yieldMs += Date.now() - worked;
          seen.maxYieldMs = Math.max(seen.maxYieldMs, Date.now() - worked);
        }
        return { next: Date.now() };
      } finally {
        if (seen.slices > 0) log("import_run", { siteId: s.site()?.id, importId: id, ...seen, durationMs: Date.now() - started });
      }
    },
  };
}
