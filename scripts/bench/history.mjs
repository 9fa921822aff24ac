// Item history on plain workerd: (1) the CPU of saving a 5 KB item, which writes the item's
// revision (a full snapshot) in the same transaction: PATCH of a published 5 KB item, batches of
// 100 sequential saves, workerd CPU per save (each thread's /proc schedstat), p50 of the batch means (goal < 2 ms),
// on the build and on a copy of it that writes no revision (builds.mjs `withoutRevisions`), in
// turn, so the difference is the revision's share; and
// (2) how long after a schedule's due time the item shows on a cached public list: N items
// scheduled a second apart, a client polling the cached list every 50 ms, first sighting minus
// the due time. Run: `node scripts/bench/history.mjs` or `BENCH_ONLY=history npm run bench`
// (BENCH_SCRIPT=<built index.js> to measure another build).
// Beside every batch of saves, the same client sends as many of the same PATCHes to the save floor
// (scripts/bench/save-floor-worker.js, a workerd process of its own: a front Worker and a SQLite
// Durable Object that writes the body as one row in a transaction and answers it back), so the
// runtime's floor of a save is measured in the same minutes, and "ours" is the save less it.
import { loadavg } from "node:os";
import { api, must, percentile } from "../lib.mjs";
import { buildWorker, startSaveFloor, startWorkerd, workerdPidsByAge, workerdSchedCpuMs } from "../workerd-host.mjs";
import { withoutRevisions } from "./builds.mjs";

// BENCH_ONLY runs one part of `npm run bench`: this one with BENCH_ONLY=history.
if (process.env.BENCH_ONLY && process.env.BENCH_ONLY !== "history") process.exit(0);

const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 8);
const SCHEDULED = Number(process.env.BENCH_SCHEDULED ?? 8);
const operator = "bench-operator";
const asc = (a) => [...a].sort((x, y) => x - y);

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
// BENCH_SCRIPT: a Worker already built (e.g. of an earlier commit, to compare); default: build this tree.
const script = process.env.BENCH_SCRIPT ?? buildWorker(".bench/build");
// The same build with the revision write cut out: the "without revisions" rows.
const scriptWithoutRevisions = withoutRevisions(script);

/** A site with a published 5 KB item (a title and six paragraphs of prose). */
async function fiveKbItem(base) {
  const { site } = await must(api(base, "POST", "/sites", operator, { name: "History bench", plan: "starter" }), "site");
  const key = site.adminKey;
  await must(
    api(base, "PUT", `/sites/${site.id}/collections/posts`, key, {
      fields: [
        { key: "title", type: "text", required: true },
        { key: "body", type: "richText" },
      ],
    }),
    "collection",
  );
  const { item } = await must(
    api(base, "POST", `/sites/${site.id}/collections/posts/items`, key, {
      slug: "five-kb",
      publish: true,
      data: { title: "Five KB", body: body(0) },
    }),
    "item",
  );
  return { site, key, item };
}
const paragraph = (i, n) => `<p>Paragraph ${i} of save ${n}: ${"the quick brown fox jumps over the lazy dog ".repeat(18).trim()}.</p>`;
const body = (n) => Array.from({ length: 6 }, (_, i) => paragraph(i, n)).join("");
const bytes = JSON.stringify({ title: "Five KB", body: body(0) }).length;

/**
 * Sequential PATCHes of the 5 KB item on a fresh runtime: workerd CPU per save (batch means, the
 * first batch warms up and is not counted) and wall time, on the built Worker `scriptPath`.
 */
async function saves(scriptPath) {
  // The floor starts first, so every workerd process started after it is the service's runtime.
  const floor = await startSaveFloor();
  const h = await startWorkerd({ scriptPath, adminToken: operator, dashboard: false, embedderProcesses: 1 }).catch(async (err) => {
    await floor.dispose();
    throw err;
  });
  try {
    const { site, key, item } = await fiveKbItem(h.base);
    const cpu = [];
    const service = [];
    const floorCpu = [];
    const ours = [];
    const wall = [];
    let n = 0;
    // The figure counts every workerd process this script started for the service: the service's
    // (front Worker, the site object, HTTP, SQLite with its commit's kernel work) and the idle
    // embedder's. The service's own share is shown beside it, labelled as such. Read from each
    // thread's schedstat (ns on a CPU, workerdSchedCpuMs): /proc/<pid>/stat's 10 ms ticks were
    // 0.1 ms per save over a batch of 100. The floor's process is counted apart.
    const mine = workerdPidsByAge().filter((p) => !floor.pids.includes(p));
    const pid = mine.at(-1);
    const savePath = `/sites/${site.id}/collections/posts/items/${item.id}`;
    for (let b = 0; b < BATCHES + 1; b++) {
      const c0 = workerdSchedCpuMs(mine);
      const s0 = workerdSchedCpuMs([pid]);
      for (let i = 0; i < BATCH; i++) {
        const t0 = performance.now();
        await must(api(h.base, "PATCH", savePath, key, { data: { body: body(++n) } }), "save");
        wall.push(performance.now() - t0);
      }
      const c1 = workerdSchedCpuMs(mine);
      const s1 = workerdSchedCpuMs([pid]);
      // The same request (path, key, 5 KB body) to the floor, right after: its batch pairs with this one.
      const f0 = workerdSchedCpuMs(floor.pids);
      for (let i = 0; i < BATCH; i++) await must(api(floor.base, "PATCH", savePath, key, { data: { body: body(n) } }), "floor save");
      const f1 = workerdSchedCpuMs(floor.pids);
      if (b > 0) {
        cpu.push((c1 - c0) / BATCH);
        service.push((s1 - s0) / BATCH);
        floorCpu.push((f1 - f0) / BATCH);
        ours.push((c1 - c0 - (f1 - f0)) / BATCH);
      }
    }
    const revisions = await must(
      api(h.base, "GET", `/sites/${site.id}/collections/posts/items/${item.id}/revisions?limit=1`, key),
      "revisions",
    );
    return {
      cpu: percentile(asc(cpu), 50),
      service: percentile(asc(service), 50),
      floor: percentile(asc(floorCpu), 50),
      ours: percentile(asc(ours), 50),
      processes: mine.length,
      wall: percentile(asc(wall), 50),
      revisions: revisions.total,
    };
  } finally {
    await h.dispose();
    await floor.dispose();
  }
}

// Alternating (with, without, with, without…) so a machine that gets busier shows as spread.
const runs = [];
for (let r = 0; r < ROUNDS; r++) {
  runs.push({ mode: "with revisions", load: loadavg()[0], ...(await saves(script)) });
  runs.push({ mode: "without revisions", load: loadavg()[0], ...(await saves(scriptWithoutRevisions)) });
}
const median = (xs) => percentile(asc(xs), 50);
const withRev = runs.filter((r) => r.mode === "with revisions");
const without = runs.filter((r) => r.mode !== "with revisions");

const host = await startWorkerd({ scriptPath: script, adminToken: operator, dashboard: false, embedderProcesses: 1 });
try {
  const base = host.base;
  const { site, key } = await fiveKbItem(base);

  // Due moment → visible on the cached public list.
  const list = `${base}/v1/${site.token}/collections/posts/items?limit=100`;
  const start = Date.now() + 4000;
  const scheduled = [];
  for (let i = 0; i < SCHEDULED; i++) {
    const slug = `due-${i}`;
    const { item: d } = await must(
      api(base, "POST", `/sites/${site.id}/collections/posts/items`, key, { slug, data: { title: slug } }),
      "draft",
    );
    const at = start + i * 1000;
    await must(
      api(base, "PUT", `/sites/${site.id}/collections/posts/items/${d.id}/schedule`, key, { publishAt: new Date(at).toISOString() }),
      "schedule",
    );
    scheduled.push({ slug, at, seen: 0 });
  }
  let hits = 0;
  let reads = 0;
  while (scheduled.some((s) => !s.seen) && Date.now() < start + SCHEDULED * 1000 + 30_000) {
    const r = await fetch(list);
    const text = await r.text();
    reads++;
    if (r.headers.get("x-cache") === "HIT") hits++;
    const now = Date.now();
    for (const s of scheduled) if (!s.seen && text.includes(`"${s.slug}"`)) s.seen = now;
    await new Promise((res) => setTimeout(res, 50));
  }
  const lag = asc(scheduled.filter((s) => s.seen).map((s) => s.seen - s.at));

  console.log(
    `\nItem save with and without its revision (${ROUNDS} rounds, each ${BATCHES} × ${BATCH} sequential PATCH of a ${(bytes / 1024).toFixed(1)} KB published item on a fresh runtime; workerd CPU per save from each thread's /proc schedstat, in ns)\n`,
  );
  console.log(
    "| build | round | load (1 min) | CPU ms/save (p50 of batch means; all workerd processes) | of which the service process (p50) | runtime floor of a save (p50) | ours = save − floor (p50 of paired batches) | wall p50 ms | revisions kept |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  runs.forEach((r, i) =>
    console.log(
      `| ${r.mode} | ${Math.floor(i / 2) + 1} | ${r.load.toFixed(1)} | ${r.cpu.toFixed(2)} | ${r.service.toFixed(2)} | ${r.floor.toFixed(2)} | ${r.ours.toFixed(2)} | ${r.wall.toFixed(2)} | ${r.revisions} |`,
    ),
  );
  console.log(
    `\nCPU counts the ${runs[0].processes} workerd processes this script started: the service's (the front Worker, the site's Durable Object, HTTP, SQLite and its commit's kernel work) and the embedder's (idle on this starter site). Not counted: this Node client and Miniflare's Node side.`,
  );
  const share = median(withRev.map((r) => r.cpu)) - median(without.map((r) => r.cpu));
  console.log(`\nThe revision's share: ${share.toFixed(2)} ms CPU per save (median with − median without).`);
  console.log(
    `\nThe runtime floor of a save (scripts/bench/save-floor-worker.js, its own workerd process, the same PATCH after every batch of saves): ${median(runs.map((r) => r.floor)).toFixed(2)} ms CPU (median of the runs); ours = save − floor, with revisions: ${median(withRev.map((r) => r.ours)).toFixed(2)} ms.`,
  );
  console.log("\nGoal: a 5 KB item save stays below 2 ms of CPU at p50.");
  console.log(
    `\nSchedule due → visible on the cached public list (${SCHEDULED} items 1 s apart; a client polling every 50 ms; ${reads} reads, ${hits} cache hits)\n`,
  );
  console.log("| seen | p50 ms after due | max ms after due |");
  console.log("| --- | --- | --- |");
  console.log(`| ${lag.length}/${SCHEDULED} | ${lag.length ? percentile(lag, 50) : "—"} | ${lag.length ? lag.at(-1) : "—"} |`);
} finally {
  await host.dispose();
}
