// `BENCH_ONLY=compare npm run bench`: the read path of a baseline commit and of the working
// tree, side by side, on this machine in one run. Each build is the built Worker on plain
// workerd (Miniflare API, direct socket, no wrangler dev proxy) with 1,000 posts; the runs
// go baseline, working tree, baseline (BENCH_COMPARE_ROUNDS=2: B W B W B), so a machine that
// gets busier or quieter during the run shows up as two different baseline figures.
//
// BENCH_BASELINE=<commit>: the baseline (default: the last commit that recorded figures in
// docs/caching.md's side-by-side table). BENCH_BUILDS=a,b,WORK: any commits in any order
// (WORK = the working tree; a path ending in .js = a Worker built by hand), for bisecting. BENCH_CACHED_REQUESTS: requests per cached case (15,000).
// BENCH_COMPARE_MISSES=0 skips the misses; BENCH_COMPARE_ASSETS=1 runs with Miniflare's asset router.
//
// Per build: CPU per request of the service's workerd (user + system time from /proc, the
// embedder's processes not counted) and req/s for three cached reads (32 connections) and
// the same three as misses (each request a URL nobody asked before, 8 connections), the
// local runtime's floor (scripts/bench/floor.mjs: the floor Worker answering and writing as many
// bytes as each case's answers, in its own workerd beside the service, its requests interleaved with
// the misses in chunks: `interleavedMisses`), our part of a miss (all less the floor's HTTP + match
// and Cache API write at that size, both counted in ns per thread), peak resident memory, bundle size.
// BENCH_FLOOR_APART=1 also prints our part counted with the floor apart (the whole phase less a floor
// measured afterwards in a fresh process), to show what measuring the floor in the same minutes changes.
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { api, missPaths, must } from "../lib.mjs";
import { seedBenchPosts } from "./posts.mjs";
import { floorCpuBySize, interleavedMisses, meanAnswerBytes, sample, startFloor } from "./floor.mjs";
import { durableObjectsOf, residentMb, servicePid, startWorkerd, workerdCpuMs } from "../workerd-host.mjs";
import { buildOf } from "./builds.mjs";

const CACHED_REQUESTS = Number(process.env.BENCH_CACHED_REQUESTS ?? 15_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const MISS_CONNECTIONS = 8;
const MISSES = process.env.BENCH_COMPARE_MISSES !== "0";
const ITEMS = 1000;
const ROUNDS = Math.max(1, Number(process.env.BENCH_COMPARE_ROUNDS ?? 1));
const DOC = "docs/caching.md";
/** A line of the side-by-side table in DOC starts with this; the commit that last changed one is the default baseline. */
const RECORD_MARK = "| compare ";
const operator = "bench-operator";

const sh = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: "utf8", ...opts }).trim();

/** The last commit on HEAD's history that changed a recorded line of the side-by-side table. */
function recordedBaseline() {
  const sha = sh("git", ["log", "-1", "--format=%H", `-G^${RECORD_MARK.replace("|", "\\|")}`, "--", DOC]);
  if (!sha) throw new Error(`no figures recorded in ${DOC} yet: name a baseline with BENCH_BASELINE=<commit>`);
  return sha;
}

/** The read cases: the cached URL, and distinct URLs doing the same work, each read once as a miss. */
function cases(token) {
  const items = `/v1/${token}/collections/posts/items`;
  return [
    { name: "list, page 3 of 42, sorted", cached: `${items}?page=3&limit=24&sort=-date`, misses: missPaths(token, "list", ITEMS) },
    { name: "single item", cached: `${items}/post-424`, misses: missPaths(token, "item", ITEMS) },
    {
      name: "filter + sort",
      cached: `${items}?page=3&limit=24&sort=-date&filter[category]=guides&search=summary`,
      misses: missPaths(token, "filtered", ITEMS),
    },
  ];
}

async function autocannonRun(origin, paths, { connections, duration, amount }) {
  let next = 0;
  return autocannon({
    url: `${origin}${paths[0]}`,
    connections,
    ...(duration ? { duration } : { amount }),
    requests: paths.length > 1 ? [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }] : undefined,
  });
}

/** One build, fresh workerd: seed, misses, cached reads, floor, peak memory. */
async function measure(build) {
  const host = await startWorkerd({
    scriptPath: build.script,
    adminToken: operator,
    // BENCH_COMPARE_ASSETS=1 puts Miniflare's Static Assets router in front, as wrangler.toml's [assets]
    // does under `wrangler dev` (a JavaScript Worker on the same thread; not our Worker's cost in production).
    dashboard: process.env.BENCH_COMPARE_ASSETS === "1",
    embedderProcesses: 1,
    durableObjects: durableObjectsOf(build.script),
  });
  const pid = servicePid();
  const rows = {};
  // The machine's load (1-minute average) when the build's measurements start and end: a shared
  // machine's figures are only comparable within one interleaved run (baseline, new, baseline).
  const load = { start: loadavg()[0] };
  try {
    const { base } = host;
    const { site } = await must(api(base, "POST", "/sites", operator, { name: "Compare", plan: "pro" }), "site");
    await seedBenchPosts(base, site, ITEMS);
    const memory = { seeded: residentMb(pid), seededPeak: residentMb(pid, "VmHWM") };
    const all = cases(site.token);
    // Misses first, on a cold cache: every URL is read once (BENCH_COMPARE_MISSES=0 skips them, for a quick bisect).
    // The floor Worker runs beside the service and serves its requests between chunks of the misses
    // (scripts/bench/floor.mjs, interleavedMisses), so both are measured in the same minutes.
    const floor = MISSES ? await startFloor({ connections: MISS_CONNECTIONS }) : null;
    const bytes = {};
    const apart = {};
    try {
      for (const c of MISSES ? all : []) {
        const cpu0 = workerdCpuMs([pid]);
        const m = await interleavedMisses({
          origin: base,
          pid,
          floor,
          paths: c.misses,
          bytesOf: (paths) => meanAnswerBytes(base, sample(paths)),
          connections: MISS_CONNECTIONS,
        });
        // The whole phase, warm-up included, for BENCH_FLOOR_APART=1.
        apart[c.name] = (workerdCpuMs([pid]) - cpu0) / c.misses.length;
        bytes[c.name] = m.bytes;
        rows[c.name] = {
          ...rows[c.name],
          missCpu: m.miss,
          missRps: m.missRps,
          bytes: m.bytes,
          floorPut: m.floorPut - m.runtime,
          floorRuntime: m.runtime,
          hop: m.hop,
          ours: m.miss - m.floorPut,
          oursRounds: m.perRound,
        };
      }
    } finally {
      await floor?.dispose();
    }
    memory.misses = residentMb(pid);
    memory.missesPeak = residentMb(pid, "VmHWM");
    for (const c of all) {
      const warm = await fetch(`${base}${c.cached}`);
      if (warm.status !== 200) throw new Error(`${build.label} ${c.cached}: ${warm.status} ${await warm.text()}`);
      await warm.arrayBuffer();
      const cpu0 = workerdCpuMs([pid]);
      // A fixed number of requests, so both builds serve as many and their peak memory compares.
      const r = await autocannonRun(base, [c.cached], { connections: CONNECTIONS, amount: CACHED_REQUESTS });
      if (r.non2xx || r.errors) throw new Error(`${build.label} ${c.name} cached: ${r.non2xx} non-2xx, ${r.errors} errors`);
      rows[c.name] = Object.assign(
        rows[c.name] ?? { missCpu: NaN, missRps: NaN, ours: NaN, bytes: NaN, floorPut: NaN, floorRuntime: NaN, hop: NaN },
        {
          cpu: (workerdCpuMs([pid]) - cpu0) / r.requests.total,
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
        },
      );
    }
    const peakMb = residentMb(pid, "VmHWM");
    memory.cached = residentMb(pid);
    // What the resident memory is made of: anonymous memory (heaps, malloc) against mapped files
    // (workerd's own binary, SQLite's files), which the kernel can drop and read again.
    memory.anon = residentMb(pid, "RssAnon");
    memory.file = residentMb(pid, "RssFile");
    await host.dispose();
    // BENCH_FLOOR_APART=1: also the floor apart (the whole phase's CPU less a floor measured
    // afterwards in a fresh process), to show what the interleaving changes.
    if (MISSES && process.env.BENCH_FLOOR_APART === "1") {
      const floors = await floorCpuBySize(Object.values(bytes));
      for (const [name, r] of Object.entries(rows)) {
        const f = floors[bytes[name]];
        r.oursApart = apart[name] - f.put - f.runtime;
      }
    }
    load.end = loadavg()[0];
    return { label: build.label, bundleKb: Math.round(statSync(build.script).size / 1024), peakMb, memory, rows, load };
  } catch (err) {
    await host.dispose().catch(() => undefined);
    throw err;
  }
}

/** The 10th–90th percentile of per-round figures and the mean between them. */
function roundsSpread(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const cut = Math.floor(s.length / 10);
  const mid = s.slice(cut, s.length - cut);
  return `${s[cut].toFixed(2)}–${s[s.length - 1 - cut].toFixed(2)} (${(mid.reduce((a, b) => a + b, 0) / mid.length).toFixed(3)})`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const baselineCommit = process.env.BENCH_BUILDS ? null : (process.env.BENCH_BASELINE ?? recordedBaseline());
const order = process.env.BENCH_BUILDS
  ? process.env.BENCH_BUILDS.split(",").map((s) => s.trim())
  : [baselineCommit, ...Array.from({ length: ROUNDS }, () => ["WORK", baselineCommit]).flat()];
const builds = new Map();
for (const name of new Set(order)) builds.set(name, buildOf(name));
// The local embedder (a workerd of its own) is the working tree's; buildWorker builds it with WORK.
if (!builds.has("WORK")) execFileSync(process.execPath, ["embedder/build.mjs"], { stdio: "inherit" });

const runs = [];
for (const name of order) {
  const build = builds.get(name);
  console.error(`measuring ${build.label} (${runs.length + 1} of ${order.length})`);
  runs.push({ name, ...(await measure(build)) });
}

// Per build, the median of its runs.
const summary = [...builds.keys()].map((name) => {
  const mine = runs.filter((r) => r.name === name);
  const caseNames = Object.keys(mine[0].rows);
  const pick = (c, k) => median(mine.map((r) => r.rows[c][k]));
  return {
    name,
    label: builds.get(name).label,
    runs: mine.length,
    bundleKb: mine[0].bundleKb,
    peakMb: median(mine.map((r) => r.peakMb)),
    cases: Object.fromEntries(
      caseNames.map((c) => [
        c,
        Object.fromEntries(
          ["cpu", "rps", "p50", "p99", "missCpu", "missRps", "ours", "bytes", "floorPut", "floorRuntime", "hop"].map((k) => [
            k,
            pick(c, k),
          ]),
        ),
      ]),
    ),
  };
});

mkdirSync(".bench", { recursive: true });
writeFileSync(".bench/compare-last.json", JSON.stringify({ at: new Date().toISOString(), order, runs, summary }, null, 2));
console.log(
  `\nSide by side: ${ITEMS} posts, cached reads ${CONNECTIONS} connections × ${CACHED_REQUESTS} requests, misses ${MISS_CONNECTIONS} connections (each URL once)`,
);
console.log(`order: ${runs.map((r) => r.label).join(" → ")}`);
console.log("\nEach run:");
console.table(
  runs.flatMap((r) =>
    Object.entries(r.rows).map(([c, x]) => ({
      build: r.label,
      read: c,
      "cached CPU ms/req": x.cpu.toFixed(3),
      "cached req/s": Math.round(x.rps),
      "miss CPU ms/req": x.missCpu.toFixed(2),
      "ours of a miss": x.ours.toFixed(3),
      // Each round's own (a chunk of misses less the floor's chunks beside it): how far one strays,
      // and the mean of the middle 80 % of rounds (a diagnostic; the figure above counts every round).
      "ours, rounds p10–p90 (trimmed mean)": x.oursRounds ? roundsSpread(x.oursRounds) : "",
      ...(x.oursApart === undefined ? {} : { "ours, floor apart": x.oursApart.toFixed(3) }),
      "peak MB": r.peakMb,
      load: `${r.load.start.toFixed(1)} → ${r.load.end.toFixed(1)}`,
    })),
  ),
);
console.log(
  "Resident memory of the service's workerd (MB): after seeding (peak so far), after the misses (peak so far), after the cached reads (peak), and of that last figure anonymous / mapped files",
);
console.table(
  runs.map((r) => ({
    build: r.label,
    seeded: `${r.memory.seeded} (${r.memory.seededPeak})`,
    misses: `${r.memory.misses} (${r.memory.missesPeak})`,
    cached: `${r.memory.cached} (${r.peakMb})`,
    "anon / file": `${r.memory.anon} / ${r.memory.file}`,
  })),
);
const [base, ...others] = summary;
for (const other of others) {
  console.log(
    `\n${other.label} against ${base.label} (medians of ${other.runs} and ${base.runs} runs; ratio = ${other.name === "WORK" ? "working tree" : other.label} ÷ baseline):`,
  );
  const table = [];
  for (const c of Object.keys(base.cases)) {
    const b = base.cases[c];
    const o = other.cases[c];
    table.push({
      read: `${c} — cached`,
      "base CPU ms/req": b.cpu.toFixed(3),
      "CPU ms/req": o.cpu.toFixed(3),
      "CPU ratio": (o.cpu / b.cpu).toFixed(2),
      "base req/s": Math.round(b.rps),
      "req/s": Math.round(o.rps),
      "req/s ratio": (o.rps / b.rps).toFixed(2),
    });
  }
  for (const c of Object.keys(base.cases)) {
    const b = base.cases[c];
    const o = other.cases[c];
    table.push({
      read: `${c} — miss (ours)`,
      "base CPU ms/req": `${b.missCpu.toFixed(2)} (${b.ours.toFixed(3)})`,
      "CPU ms/req": `${o.missCpu.toFixed(2)} (${o.ours.toFixed(3)})`,
      "CPU ratio": (o.missCpu / b.missCpu).toFixed(2),
      "base req/s": Math.round(b.missRps),
      "req/s": Math.round(o.missRps),
      "req/s ratio": (o.missRps / b.missRps).toFixed(2),
    });
  }
  table.push({
    read: "peak resident MB (service workerd)",
    "base CPU ms/req": String(base.peakMb),
    "CPU ms/req": String(other.peakMb),
    "CPU ratio": (other.peakMb / base.peakMb).toFixed(2),
  });
  table.push({
    read: "bundle index.js KB",
    "base CPU ms/req": String(base.bundleKb),
    "CPU ms/req": String(other.bundleKb),
    "CPU ratio": (other.bundleKb / base.bundleKb).toFixed(2),
  });
  console.table(table);
}
if (MISSES) {
  console.log(
    "\nFloor (local runtime, per request, the floor Worker answering and writing as many bytes as the case's answers; ours = miss CPU less both):",
  );
  console.table(
    summary.flatMap((s) =>
      Object.entries(s.cases).map(([c, x]) => ({
        build: s.label,
        read: c,
        "answer bytes": Math.round(x.bytes),
        "HTTP + Cache API match ms": x.floorRuntime.toFixed(3),
        "Cache API write ms": x.floorPut.toFixed(3),
        "miss ms": x.missCpu.toFixed(3),
        "ours ms": x.ours.toFixed(3),
        "of ours, the runtime's Durable Object hop ms": x.hop.toFixed(3),
      })),
    ),
  );
}

// The read path's goals for the working tree against the baseline, each figure beside its goal
// (read-goals.mjs prints them with the busy site's and the bundle's).
const work = summary.find((s) => s.name === "WORK");
if (work && work !== base) {
  const [listCase, itemCase, filterCase] = Object.keys(base.cases);
  const ratio = (c, k) => work.cases[c][k] / base.cases[c][k];
  const goals = [
    ...[listCase, itemCase, filterCase].map((c) => ({
      part: "cached reads",
      goal: `${c} — cached CPU ≤ 0.8 × baseline`,
      figure: `${ratio(c, "cpu").toFixed(2)} × (${work.cases[c].cpu.toFixed(3)} vs ${base.cases[c].cpu.toFixed(3)} ms)`,
      holds: ratio(c, "cpu") <= 0.8,
    })),
    ...(MISSES
      ? [
          [listCase, 0.6],
          [itemCase, 0.3],
        ].map(([c, limit]) => ({
          part: "misses",
          goal: `${c} — our part of a miss ≤ ${limit} ms`,
          figure: `${work.cases[c].ours.toFixed(3)} ms (miss ${work.cases[c].missCpu.toFixed(2)} less floor ${(work.cases[c].floorRuntime + work.cases[c].floorPut).toFixed(2)} at ${Math.round(work.cases[c].bytes)} B; of it the runtime's hop to a Durable Object ${work.cases[c].hop.toFixed(2)})`,
          holds: work.cases[c].ours <= limit,
        }))
      : []),
    {
      part: "memory",
      goal: "peak resident memory of the reads ≤ baseline",
      figure: `${work.peakMb} vs ${base.peakMb} MB`,
      holds: work.peakMb <= base.peakMb,
    },
  ];
  writeFileSync(
    ".bench/compare-goals.json",
    JSON.stringify({ at: new Date().toISOString(), goals, loads: runs.map((r) => ({ build: r.label, ...r.load })) }, null, 2),
  );
  console.log(`\nThe read path's goals (this run's part): ${work.label} against ${base.label}`);
  console.table(goals.map((g) => ({ ...g, holds: g.holds ? "yes" : "NO" })));
}
