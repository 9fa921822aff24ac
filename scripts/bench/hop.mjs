// The local runtime's cost of the hop from a Worker to a Durable Object (docs/caching.md):
//   BENCH_ONLY=hop npm run bench        (BENCH_HOP_BYTES=550,13000 the answer sizes)
// scripts/bench/hop-worker.js on plain workerd (no wrangler proxy), 8 connections, distinct URLs:
// a Worker answering itself, through a Durable Object's `fetch`, and through an RPC method. The
// three alternate in 20 rounds of 200 requests; CPU per request of the workerd process (each
// thread's schedstat, ns). The hop is what "our part of a miss" cannot cut: every miss asks the site object.
import autocannon from "autocannon";
import { loadavg } from "node:os";
import { startBenchWorker, workerdSchedCpuMs } from "../workerd-host.mjs";

const SIZES = (process.env.BENCH_HOP_BYTES ?? "550,13000").split(",").map(Number);
const ROUNDS = 20;
const PER_ROUND = 200;
const MODES = ["/direct", "/fetch", "/rpc"];

const { base, pids, dispose } = await startBenchWorker("hop", "scripts/bench/hop-worker.js", { HOP: "HopObject" });
const cpuMs = () => workerdSchedCpuMs(pids);
let run = 0;

/** CPU ms per request of `count` distinct URLs of `mode`, once the process has gone quiet. */
async function drive(mode, bytes, count) {
  const paths = Array.from({ length: count }, (_, i) => `${mode}?bytes=${bytes}&r=${run}&u=${i}`);
  run++;
  let next = 0;
  const cpu0 = cpuMs();
  const r = await autocannon({
    url: `${base}${paths[0]}`,
    connections: 8,
    amount: count,
    sampleInt: 10,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
  });
  if (r.non2xx || r.errors) throw new Error(`${mode}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return (cpuMs() - cpu0) / count;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rows = [];
try {
  for (const bytes of SIZES) {
    for (const mode of MODES) await drive(mode, bytes, 500);
    const per = Object.fromEntries(MODES.map((m) => [m, []]));
    for (let k = 0; k < ROUNDS; k++)
      for (let i = 0; i < MODES.length; i++) {
        const mode = MODES[(i + k) % MODES.length];
        per[mode].push(await drive(mode, bytes, PER_ROUND));
      }
    const direct = median(per["/direct"]);
    rows.push({
      "answer bytes": bytes,
      "direct ms": direct.toFixed(3),
      "via fetch ms": median(per["/fetch"]).toFixed(3),
      "via RPC ms": median(per["/rpc"]).toFixed(3),
      "hop, fetch ms": (median(per["/fetch"]) - direct).toFixed(3),
      "hop, RPC ms": (median(per["/rpc"]) - direct).toFixed(3),
    });
  }
} finally {
  await dispose();
}
console.log(
  `\nThe hop to a Durable Object on plain workerd (CPU per request of the workerd process, medians of ${ROUNDS} interleaved rounds of ${PER_ROUND}; load ${loadavg()[0].toFixed(1)}):`,
);
console.table(rows);
