// What single runtime objects and calls cost on this runtime, one by one (docs/caching.md):
//   BENCH_ONLY=object-costs npm run bench
// scripts/bench/object-costs-worker.js on plain workerd: each request runs one operation 50 times;
// 8 interleaved rounds of 200 requests per operation, 4 connections; CPU per request of the
// workerd process (each thread's schedstat), less an empty request's, ÷ 50 = µs per operation.
// The V8 profiler's self times of native calls are several times these (its sampling inflates
// them): this is the scale to weigh a profile's entries by.
import autocannon from "autocannon";
import { loadavg } from "node:os";
import { startBenchWorker, workerdSchedCpuMs } from "../workerd-host.mjs";

const OPS = ["empty", "URL", "Headers copy, 3 deletes, 2 sets", "Response, 550 B", "Request", "sha256-550B", "sha256-20KB"];
const K = 50;
const PER_ROUND = 200;
const ROUNDS = 8;

const { base, pids, dispose } = await startBenchWorker("object-costs", "scripts/bench/object-costs-worker.js");
const cpuMs = () => workerdSchedCpuMs(pids);

async function drive(op) {
  const c0 = cpuMs();
  const r = await autocannon({ url: `${base}/${encodeURIComponent(op)}?k=${K}`, connections: 4, amount: PER_ROUND, sampleInt: 10 });
  if (r.non2xx || r.errors) throw new Error(`${op}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  await new Promise((resolve) => setTimeout(resolve, 30));
  return (cpuMs() - c0) / PER_ROUND;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const per = Object.fromEntries(OPS.map((op) => [op, []]));
try {
  for (const op of OPS) await drive(op);
  for (let r = 0; r < ROUNDS; r++) for (const op of OPS) per[op].push(await drive(op));
} finally {
  await dispose();
}
const empty = median(per.empty);
console.log(
  `\nOne operation on plain workerd (CPU of the process, medians of ${ROUNDS} interleaved rounds; load ${loadavg()[0].toFixed(1)}):`,
);
console.table(
  OPS.map((op) => ({
    operation: op,
    "ms per request": median(per[op]).toFixed(3),
    "µs per operation": op === "empty" ? "-" : ((1000 * (median(per[op]) - empty)) / K).toFixed(1),
  })),
);
