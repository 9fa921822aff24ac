// A/B of the 5 KB item save (scripts/bench/history.mjs's) on two builds at once: both run on
// workerd side by side with the save floor (scripts/bench/save-floor-worker.js), and batches of
// BENCH_BATCH sequential saves alternate between them (A B floor, then B A floor, …), so a machine
// that gets busier weighs on both alike. Prints each build's CPU per save (p50 of the batch means;
// each build's workerd processes, from schedstat) and B against A over the paired batches.
//   BENCH_ONLY=save-pair BENCH_BASELINE=<commit> npm run bench   (A = that commit, B = the working tree)
//   BENCH_ONLY=save-pair BENCH_BUILDS=A,B npm run bench          (each a commit, WORK, or a built index.js)
// BENCH_BATCH (100), BENCH_PAIRS (20).
import { loadavg } from "node:os";
import { api, must, percentile } from "../lib.mjs";
import { startSaveFloor, startWorkerd, workerdPidsByAge, workerdSchedCpuMs } from "../workerd-host.mjs";
import { pairOfBuilds } from "./builds.mjs";

const [buildA, buildB] = pairOfBuilds();
const [scriptA, scriptB] = [buildA.script, buildB.script];
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 20);
const operator = "bench-operator";
const asc = (a) => [...a].sort((x, y) => x - y);
const paragraph = (i, n) => `<p>Paragraph ${i} of save ${n}: ${"the quick brown fox jumps over the lazy dog ".repeat(18).trim()}.</p>`;
const body = (n) => Array.from({ length: 6 }, (_, i) => paragraph(i, n)).join("");

/** One build on workerd with its 5 KB published item, and the processes that are its own. */
async function start(script) {
  const before = new Set(workerdPidsByAge());
  const h = await startWorkerd({ scriptPath: script, adminToken: operator, dashboard: false, embedderProcesses: 1 });
  const pids = workerdPidsByAge().filter((p) => !before.has(p));
  const { site } = await must(api(h.base, "POST", "/sites", operator, { name: "Pair bench", plan: "starter" }), "site");
  const key = site.adminKey;
  const fields = [
    { key: "title", type: "text", required: true },
    { key: "body", type: "richText" },
  ];
  await must(api(h.base, "PUT", `/sites/${site.id}/collections/posts`, key, { fields }), "collection");
  const { item } = await must(
    api(h.base, "POST", `/sites/${site.id}/collections/posts/items`, key, {
      slug: "five-kb",
      publish: true,
      data: { title: "Five KB", body: body(0) },
    }),
    "item",
  );
  return { h, pids, base: h.base, key, path: `/sites/${site.id}/collections/posts/items/${item.id}`, n: 0 };
}

/** CPU ms per save of one batch on `t` (its processes only). */
async function batch(t) {
  const c0 = workerdSchedCpuMs(t.pids);
  for (let i = 0; i < BATCH; i++) await must(api(t.base, "PATCH", t.path, t.key, { data: { body: body(++t.n) } }), "save");
  return (workerdSchedCpuMs(t.pids) - c0) / BATCH;
}

const floor = await startSaveFloor();
const a = await start(scriptA);
const b = await start(scriptB);
const f = { pids: floor.pids, base: floor.base, key: a.key, path: a.path, n: 0 };
const load0 = loadavg()[0];
try {
  for (const t of [a, b, f]) await batch(t); // warm-up, not counted
  const out = { a: [], b: [], f: [], ratio: [], diff: [] };
  for (let p = 0; p < PAIRS; p++) {
    const first = p % 2 === 0 ? a : b;
    const x = await batch(first);
    const y = await batch(first === a ? b : a);
    const [ma, mb] = first === a ? [x, y] : [y, x];
    out.a.push(ma);
    out.b.push(mb);
    out.f.push(await batch(f));
    out.ratio.push(mb / ma);
    out.diff.push(mb - ma);
  }
  const p = (xs, q) => percentile(asc(xs), q);
  console.log(
    `\nA = ${buildA.label} (${scriptA})\nB = ${buildB.label} (${scriptB})\n${PAIRS} pairs of ${BATCH} saves; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}\n`,
  );
  console.log("| A p50 | B p50 | floor p50 | B − A, paired (p50, p25–p75) | B / A, paired (p50, p25–p75) |");
  console.log("| --- | --- | --- | --- | --- |");
  console.log(
    `| ${p(out.a, 50).toFixed(3)} | ${p(out.b, 50).toFixed(3)} | ${p(out.f, 50).toFixed(3)} | ${p(out.diff, 50).toFixed(3)} (${p(out.diff, 25).toFixed(3)}–${p(out.diff, 75).toFixed(3)}) | ${p(out.ratio, 50).toFixed(3)} (${p(out.ratio, 25).toFixed(3)}–${p(out.ratio, 75).toFixed(3)}) |`,
  );
} finally {
  await a.h.dispose();
  await b.h.dispose();
  await floor.dispose();
}
