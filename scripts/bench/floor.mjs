// The local runtime's floor of a miss, measured on the floor Worker (scripts/bench/cache-floor-worker.js)
// in a workerd process of its own: serving an HTTP request with a Cache API match (`?noput`), and the
// Cache API write (the same Worker storing each miss, less that). The floor answers and writes
// `bytes` of JSON, the size of the answers it stands for: the local Cache API's write and the HTTP
// answer cost more for a 13 KB list page than for a 1 KB body, and that is the runtime's cost, not
// ours. What the compare and busy benches call "ours" is a miss's CPU less both. The compare bench
// measures the floor beside the misses, interleaved with them (`interleavedMisses`); the busy bench
// still measures it afterwards (`floorCpuBySize`).
import autocannon from "autocannon";
import { processCpuNs, startCacheFloor, workerdCpuMs, workerdPids } from "../workerd-host.mjs";

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

/**
 * The floor Worker in a workerd process of its own, kept running beside the service, for
 * `interleavedMisses`: `run(bytes, put, count, hop)` serves `count` distinct URLs (each a Cache API
 * miss), storing each answer when `put`, its body from a Durable Object when `hop`, and returns the
 * process's CPU ns for them.
 */
export async function startFloor({ connections = 8 } = {}) {
  const before = new Set(workerdPids());
  const floor = await startCacheFloor();
  const pids = workerdPids().filter((p) => !before.has(p));
  let run = 0;
  return {
    pids,
    async run(bytes, put, count, hop = false) {
      const query = `${put ? "" : "noput&"}${hop ? "hop&" : ""}bytes=${bytes}&r=${run++}`;
      const r = await driveOnce(floor.base, urlsOf(`/floor?${query}`, count), connections, () => cpuNsOf(pids));
      if (r.failed) throw new Error(`floor ${bytes} B: ${r.failed}`);
      return r.cpuNs;
    },
    dispose: () => floor.dispose(),
  };
}

const urlsOf = (prefix, count) => Array.from({ length: count }, (_, n) => `${prefix}&u=${n}`);
const cpuNsOf = (pids) => pids.reduce((sum, pid) => sum + processCpuNs(pid), 0);

/**
 * `cpu()` once the process has gone quiet: an answer reaches the client before its `waitUntil`
 * work (the Cache API write) ends, so the last requests' writes are still running when autocannon
 * returns; the chunk is charged with them (at most a few ms of waiting).
 */
async function settled(cpu) {
  let last = cpu();
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const now = cpu();
    // Under 0.2 ms of CPU in 20 ms: nothing of the chunk's is running any more.
    if (now - last < 200_000) return now;
    last = now;
  }
  return last;
}

/** One autocannon run over `paths` (each once), with the CPU ns `cpu()` counted across it. */
async function driveOnce(origin, paths, connections, cpu) {
  let next = 0;
  const cpu0 = cpu();
  const r = await autocannon({
    url: `${origin}${paths[0]}`,
    connections: Math.min(connections, paths.length),
    amount: paths.length,
    // autocannon ends a run on its next sample tick (1 s by default): a chunk of 40 would idle most of a second.
    sampleInt: 10,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
  });
  const cpuNs = (await settled(cpu)) - cpu0;
  return {
    cpuNs,
    requests: r.requests.total,
    rps: r.requests.total / Math.max(r.duration, 1e-3),
    failed: r.non2xx || r.errors ? `${r.non2xx} non-2xx, ${r.errors} errors` : "",
  };
}

/**
 * Misses of the service and the floor, measured in the same minutes: `paths` (distinct URLs, each
 * read once) are served in chunks of `chunk` (40: 20–35 rounds a case), and beside each chunk the floor serves as many requests
 * with the Cache API write, as many without, and as many with the write whose body comes from a
 * Durable Object (the runtime's hop, as a miss asks the site object), at `bytes` (the mean size of
 * the case's answers); the order of the four turns every round. Each figure is the CPU of its own process (ns, all
 * threads) summed over its chunks ÷ their requests, so a burst of the machine's other load, a
 * slower minute or a store already holding thousands of entries weighs on both sides alike, where
 * a floor measured minutes later in a fresh process saw another machine. `warm` (a first share of
 * `paths`) is served before and not counted: the first requests of an isolate compile its code
 * (V8's tiers), a one-off per isolate, not a cost per miss; the floor is warmed as much.
 * Returns per-request ms: `miss`, `floorPut` (answer + match + write), `runtime` (answer + match),
 * `hop` (what the hop to a Durable Object adds to floorPut: the part of "ours" that is the
 * runtime's, not our code's), and each round's `ours` (miss less floorPut) to show the spread.
 */
export async function interleavedMisses({ origin, pid, floor, paths, bytesOf, chunk: chunkSize = 40, warm = 100, connections = 8 }) {
  const warmPaths = paths.slice(0, warm);
  const measured = paths.slice(warm);
  const w = await driveOnce(origin, warmPaths, connections, () => processCpuNs(pid));
  if (w.failed) throw new Error(`warm-up misses: ${w.failed}`);
  const bytes = await bytesOf(warmPaths);
  await floor.run(bytes, true, warm);
  await floor.run(bytes, false, warm);
  await floor.run(bytes, true, warm, true);
  const sums = { miss: 0, floorPut: 0, runtime: 0, hopPut: 0, n: 0, rps: 0 };
  const perRound = [];
  for (let k = 0; k * chunkSize < measured.length; k++) {
    const chunk = measured.slice(k * chunkSize, (k + 1) * chunkSize);
    const steps = [
      async () => {
        const r = await driveOnce(origin, chunk, connections, () => processCpuNs(pid));
        if (r.failed) throw new Error(`misses: ${r.failed}`);
        if (r.requests !== chunk.length) throw new Error(`misses: ${r.requests} of ${chunk.length} requests answered`);
        sums.rps += r.rps * chunk.length;
        return ["miss", r.cpuNs];
      },
      async () => ["floorPut", await floor.run(bytes, true, chunk.length)],
      async () => ["runtime", await floor.run(bytes, false, chunk.length)],
      async () => ["hopPut", await floor.run(bytes, true, chunk.length, true)],
    ];
    const round = {};
    for (let i = 0; i < steps.length; i++) {
      const [name, ns] = await steps[(i + k) % steps.length]();
      round[name] = ns / 1e6 / chunk.length;
      sums[name] += ns;
    }
    sums.n += chunk.length;
    perRound.push(round.miss - round.floorPut);
  }
  const ms = (ns) => ns / 1e6 / sums.n;
  return {
    bytes,
    miss: ms(sums.miss),
    missRps: sums.rps / sums.n,
    floorPut: ms(sums.floorPut),
    runtime: ms(sums.runtime),
    hop: ms(sums.hopPut) - ms(sums.floorPut),
    requests: sums.n,
    perRound,
  };
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
