// `BENCH_ONLY=read-goals BENCH_BASELINE=<commit> npm run bench`: whether the read path meets its
// goals (docs/caching.md), in one run (about 8 minutes on a quiet machine). The side-by-side run
// (compare.mjs: baseline, working tree, baseline; BENCH_BASELINE is the build the cached-CPU goal
// is measured against, so it must be named), the busy site for the working tree (busy.mjs,
// BENCH_BUSY_SECONDS per run, 20 here), and the bundle report; then one table: each goal, the
// figure beside it, and whether it holds, with the machine's load averages (a shared machine's
// figures are noisy: the interleaved baseline is what to trust).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";

if (!process.env.BENCH_BASELINE)
  throw new Error("BENCH_ONLY=read-goals needs BENCH_BASELINE=<commit>: the build the cached reads are held to");
process.env.BENCH_BUSY_SECONDS ??= "20";
const started = performance.now();
const loadStart = loadavg();
await import("./compare.mjs");
await import("./busy.mjs");
const bundle = JSON.parse(execFileSync(process.execPath, ["scripts/bundle-report.mjs", "--json"], { encoding: "utf8" }));
const compare = JSON.parse(readFileSync(".bench/compare-goals.json", "utf8"));
const busy = JSON.parse(readFileSync(".bench/busy-goals.json", "utf8"));
const kb = (b) => `${(b / 1024).toFixed(0)} KB`;
// Parts no public read needs: never evaluated at start-up (scripts/bundle-report.mjs --check fails the build check otherwise).
const notNeeded = bundle.rows.filter((r) => /npm: zod|docs-assets|openapi\.json/.test(r.part));
const goals = [
  ...compare.goals,
  ...busy.goals,
  {
    part: "bundle",
    goal: "nothing a public read does not need evaluated at start-up (zod, API description, its viewer)",
    figure: `${kb(bundle.startup)} of ${kb(bundle.total)} at start-up; of those parts ${kb(notNeeded.reduce((s, r) => s + r.startup, 0))}`,
    holds: notNeeded.every((r) => r.startup === 0),
  },
];
const loadEnd = loadavg();
console.log(
  `\nThe read path's goals: ${goals.filter((g) => g.holds).length} of ${goals.length} hold (${Math.round((performance.now() - started) / 60_000)} min; load averages 1/5/15 min: ${loadStart.map((l) => l.toFixed(1)).join("/")} at the start, ${loadEnd.map((l) => l.toFixed(1)).join("/")} at the end; per build: ${compare.loads.map((l) => `${l.build} ${l.start.toFixed(1)}→${l.end.toFixed(1)}`).join(", ")}; busy ${busy.load.toFixed(1)})`,
);
console.table(goals.map((g) => ({ ...g, holds: g.holds ? "yes" : "NO" })));
