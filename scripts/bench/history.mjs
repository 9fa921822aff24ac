// Issue 27 on plain workerd: (1) the CPU of saving a 5 KB item, which now writes the item's
// revision (a full snapshot) in the same transaction: PATCH of a published 5 KB item, batches of
// 100 sequential saves, workerd process CPU per save, p50 of the batch means (goal < 2 ms); and
// (2) how long after a schedule's due time the item shows on a cached public list: N items
// scheduled a second apart, a client polling the cached list every 50 ms, first sighting minus
// the due time. Run: `node scripts/bench/history.mjs`.
import { api, must, percentile } from "../lib.mjs";
import { buildWorker, startWorkerd, workerdCpuMs } from "../workerd-host.mjs";

// BENCH_ONLY runs one part of `npm run bench` (api.mjs, media.mjs): not this one.
if (process.env.BENCH_ONLY) process.exit(0);

const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 8);
const SCHEDULED = Number(process.env.BENCH_SCHEDULED ?? 8);
const operator = "bench-operator";
const asc = (a) => [...a].sort((x, y) => x - y);

const script = buildWorker(".bench/build");
const host = await startWorkerd({ scriptPath: script, adminToken: operator, dashboard: false, embedderProcesses: 1 });
try {
  const base = host.base;
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
  // A 5 KB item: a title and six paragraphs of prose.
  const paragraph = (i, n) => `<p>Paragraph ${i} of save ${n}: ${"the quick brown fox jumps over the lazy dog ".repeat(18).trim()}.</p>`;
  const body = (n) => Array.from({ length: 6 }, (_, i) => paragraph(i, n)).join("");
  const { item } = await must(
    api(base, "POST", `/sites/${site.id}/collections/posts/items`, key, {
      slug: "five-kb",
      publish: true,
      data: { title: "Five KB", body: body(0) },
    }),
    "item",
  );
  const bytes = JSON.stringify({ title: "Five KB", body: body(0) }).length;
  const cpu = [];
  const wall = [];
  let n = 0;
  for (let b = 0; b < BATCHES + 1; b++) {
    const c0 = workerdCpuMs();
    for (let i = 0; i < BATCH; i++) {
      const t0 = performance.now();
      await must(api(base, "PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, key, { data: { body: body(++n) } }), "save");
      wall.push(performance.now() - t0);
    }
    // The first batch warms the isolate and the object up; it is not counted.
    if (b > 0) cpu.push((workerdCpuMs() - c0) / BATCH);
  }
  const revisions = await must(
    api(base, "GET", `/sites/${site.id}/collections/posts/items/${item.id}/revisions?limit=1`, key),
    "revisions",
  );

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
    `\nItem save with its revision (${BATCHES} × ${BATCH} sequential PATCH of a ${(bytes / 1024).toFixed(1)} KB published item; workerd CPU per save)\n`,
  );
  console.log("| what | CPU ms/save (p50 of batch means) | wall p50 ms | revisions kept after the run |");
  console.log("| --- | --- | --- | --- |");
  console.log(
    `| PATCH, revision written in the same transaction | ${percentile(asc(cpu), 50).toFixed(3)} | ${percentile(asc(wall), 50).toFixed(2)} | ${revisions.total} |`,
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
