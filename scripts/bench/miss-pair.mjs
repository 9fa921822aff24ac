// A/B of the content API's misses on two builds at once, as scripts/bench/save-pair.mjs is for the
// save: both builds run on plain workerd side by side (no wrangler proxy, no assets router), each
// with the compare bench's Pro site of 1,000 posts, and chunks of distinct never-read URLs (each
// read once: a miss of both memory tiers and the Cache API) alternate between them (A B, then B A,
// …), so a machine that gets busier weighs on both alike. Prints each build's CPU per miss (the
// build's own workerd processes, each thread's schedstat, ns) and B against A over the paired chunks.
//   BENCH_ONLY=miss-pair BENCH_BASELINE=<commit> npm run bench   (A = that commit, B = the working tree)
//   BENCH_ONLY=miss-pair BENCH_BUILDS=A,B npm run bench          (each a commit, WORK, or a built index.js)
// BENCH_MISS_KINDS (item,list), BENCH_PAIRS (10), BENCH_CHUNK (40), 8 connections as compare.mjs.
// It says which build costs more per miss, not "our part" (compare.mjs measures that beside its floor).
import autocannon from "autocannon";
import { loadavg } from "node:os";
import { api, missPaths, must, percentile } from "../lib.mjs";
import { seedBenchPosts } from "./posts.mjs";
import { durableObjectsOf, startWorkerd, workerdPidsByAge, workerdSchedCpuMs } from "../workerd-host.mjs";
import { pairOfBuilds } from "./builds.mjs";

const [buildA, buildB] = pairOfBuilds();
const [scriptA, scriptB] = [buildA.script, buildB.script];
const KINDS = (process.env.BENCH_MISS_KINDS ?? "item,list").split(",");
const PAIRS = Number(process.env.BENCH_PAIRS ?? 10);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 40);
const WARM = 100;
const operator = "bench-operator";
const asc = (a) => [...a].sort((x, y) => x - y);

/** One build on workerd with its seeded site, and the processes that are its own. */
async function start(script) {
  const before = new Set(workerdPidsByAge());
  const h = await startWorkerd({
    scriptPath: script,
    adminToken: operator,
    embedderProcesses: 1,
    durableObjects: durableObjectsOf(script),
  });
  const pids = workerdPidsByAge().filter((p) => !before.has(p));
  const { site } = await must(api(h.base, "POST", "/sites", operator, { name: "Miss pair", plan: "pro" }), "site");
  await seedBenchPosts(h.base, site, 1000);
  return { h, pids, token: site.token, next: {} };
}

/** CPU ms per miss of the build's next `count` URLs of `kind`, once its processes have gone quiet. */
async function chunk(t, kind, count) {
  t.next[kind] ??= { paths: missPaths(t.token, kind, 1000), at: 0 };
  const src = t.next[kind];
  if (src.at + count > src.paths.length) throw new Error(`${kind}: out of distinct URLs (${src.paths.length})`);
  const paths = src.paths.slice(src.at, src.at + count);
  src.at += count;
  let i = 0;
  const c0 = workerdSchedCpuMs(t.pids);
  const r = await autocannon({
    url: `${t.h.base}${paths[0]}`,
    connections: 8,
    amount: count,
    sampleInt: 10,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++] }) }],
  });
  if (r.non2xx || r.errors) throw new Error(`${kind}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  // An answer reaches the client before its Cache API write ends: wait for the writes too.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return (workerdSchedCpuMs(t.pids) - c0) / count;
}

const a = await start(scriptA);
const b = await start(scriptB);
const load0 = loadavg()[0];
const rows = [];
try {
  for (const kind of KINDS) {
    // The first misses of an isolate compile its code: served first, not counted.
    for (const t of [a, b]) await chunk(t, kind, WARM);
    const out = { a: [], b: [], ratio: [], diff: [] };
    for (let p = 0; p < PAIRS; p++) {
      const first = p % 2 === 0 ? a : b;
      const x = await chunk(first, kind, CHUNK);
      const y = await chunk(first === a ? b : a, kind, CHUNK);
      const [ma, mb] = first === a ? [x, y] : [y, x];
      out.a.push(ma);
      out.b.push(mb);
      out.ratio.push(mb / ma);
      out.diff.push(mb - ma);
    }
    const q = (xs, n) => percentile(asc(xs), n).toFixed(3);
    rows.push(
      `| ${kind} | ${q(out.a, 50)} | ${q(out.b, 50)} | ${q(out.diff, 50)} (${q(out.diff, 25)}–${q(out.diff, 75)}) | ${q(out.ratio, 50)} (${q(out.ratio, 25)}–${q(out.ratio, 75)}) |`,
    );
  }
  console.log(
    `\nA = ${buildA.label} (${scriptA})\nB = ${buildB.label} (${scriptB})\n${PAIRS} pairs of ${CHUNK} misses per kind; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}\n`,
  );
  console.log("| miss | A ms/miss (p50) | B ms/miss (p50) | B − A, paired (p50, p25–p75) | B / A, paired (p50, p25–p75) |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const r of rows) console.log(r);
} finally {
  await a.h.dispose();
  await b.h.dispose();
}
