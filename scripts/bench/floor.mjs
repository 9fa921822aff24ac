// The local runtime's floor of a miss, measured on the floor Worker (scripts/bench/cache-floor-worker.js)
// in a workerd process of its own: serving an HTTP request with a Cache API match (`?noput`), and the
// Cache API write (the same Worker storing each miss, less that). The floor answers and writes
// `bytes` of JSON, the size of the answers it stands for: the local Cache API's write and the HTTP
// answer cost more for a 13 KB list page than for a 1 KB body, and that is the runtime's cost, not
// ours. What the compare and busy benches call "ours" is a miss's CPU less both.
import autocannon from "autocannon";
import { startCacheFloor, workerdCpuMs, workerdPids } from "../workerd-host.mjs";

/** The floor's body when no size is given: about 1 KB (what the benches used before sizes were measured). */
export const DEFAULT_FLOOR_BYTES = 960;

/**
 * CPU ms per request of the floor Worker at each of `sizes` (bytes of body): `{ [bytes]: { put, runtime } }`.
 * `rounds` rounds, each an autocannon run of `requests` distinct URLs at `connections` per size and
 * mode, interleaved (every size with and without the write, then again): each figure is the median
 * of its rounds, so a burst of other load during one run does not decide it.
 */
export async function floorCpuBySize(sizes, { requests = 1000, rounds = 3, connections = 8 } = {}) {
  const before = new Set(workerdPids());
  const floor = await startCacheFloor();
  const pids = workerdPids().filter((p) => !before.has(p));
  let run = 0;
  const perRequest = async (bytes, noput) => {
    // Every URL is new to the Cache API (a fresh `u`), so each request misses, as ours do.
    const paths = Array.from({ length: requests }, (_, n) => `/floor?${noput ? "noput&" : ""}bytes=${bytes}&r=${run}&u=${n}`);
    run++;
    let next = 0;
    const cpu0 = workerdCpuMs(pids);
    const r = await autocannon({
      url: `${floor.base}${paths[0]}`,
      connections,
      amount: paths.length,
      requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
    });
    if (r.non2xx || r.errors) throw new Error(`floor ${bytes} B: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return (workerdCpuMs(pids) - cpu0) / r.requests.total;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  try {
    const unique = [...new Set(sizes.map((b) => Math.round(b)))];
    const runs = new Map(unique.map((b) => [b, { withPut: [], without: [] }]));
    for (let round = 0; round < rounds; round++)
      for (const bytes of unique) {
        runs.get(bytes).withPut.push(await perRequest(bytes, false));
        runs.get(bytes).without.push(await perRequest(bytes, true));
      }
    const out = {};
    for (const [bytes, r] of runs) {
      const runtime = median(r.without);
      out[bytes] = { put: Math.max(0, median(r.withPut) - runtime), runtime };
    }
    return out;
  } finally {
    await floor.dispose();
  }
}

/** The mean body size of `paths`' answers (read after they were measured: each is then a hit). */
export async function meanAnswerBytes(origin, paths, headers = {}) {
  let total = 0;
  for (const p of paths) total += (await (await fetch(`${origin}${p}`, { headers })).arrayBuffer()).byteLength;
  return Math.round(total / Math.max(1, paths.length));
}

/** Every `n`-th of `paths`, at most `count`: a sample spread over a list of misses. */
export function sample(paths, count = 24) {
  const step = Math.max(1, Math.floor(paths.length / count));
  return paths.filter((_, i) => i % step === 0).slice(0, count);
}
