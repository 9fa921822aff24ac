// Outbound webhooks, exports and imports: deliveries per second from one site object to
// a local receiver that answers 204 at once (the site sends 6 at a time, each signed); rows per
// second of a collection's CSV export and of the whole site's JSON export, streamed from the
// object; rows per second of a CSV import (10,000 rows of ~2 KB: upload, dry run, write), and the
// p50/p99 of public reads of the same site (each a miss, so the object answers) with and without
// the import running (goal: p99 within 2x).
// The built Worker on plain workerd (scripts/workerd-host.mjs). Run: `node scripts/bench/transfer.mjs`
// or `BENCH_ONLY=transfer npm run bench` (BENCH_WEBHOOKS, BENCH_EXPORT_ROWS, BENCH_IMPORT_ROWS change
// the sizes; 0 skips that part).
import { createServer } from "node:http";
import { api, must, percentile } from "../lib.mjs";
import { buildWorker, startWorkerd } from "../workerd-host.mjs";
import { waitForIndex } from "./search.mjs";
import { benchImportCsv, timedImport } from "./import-run.mjs";
import { withoutRevisions } from "./builds.mjs";

// BENCH_ONLY runs one part of `npm run bench`: this one with BENCH_ONLY=transfer.
if (process.env.BENCH_ONLY && process.env.BENCH_ONLY !== "transfer") process.exit(0);

const DELIVERIES = Number(process.env.BENCH_WEBHOOKS ?? 2000);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 10000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10000);
const READERS = 4;
// The import's site: Starter by default, which has no semantic search, so the bench times the import
// and the reads alone. On Pro every imported row is also embedded on the same alarm; the local model
// embeds a few items a second on this machine (Workers AI far more), so BENCH_IMPORT_PLAN=pro mostly
// measures the local embedder (and first waits for the readers' 3,000 items to be embedded).
const IMPORT_PLAN = process.env.BENCH_IMPORT_PLAN ?? "starter";
const READ_SITE = process.env.BENCH_READ_SITE ?? "same";
const operator = "bench-operator";

let received = 0;
let firstAt = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (received++ === 0) firstAt = performance.now();
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

const built = buildWorker(".bench/build");
// BENCH_NO_REVISIONS=1: the build with the revision write cut out (builds.mjs), to measure what
// that copy of each imported row costs.
const script = process.env.BENCH_NO_REVISIONS === "1" ? withoutRevisions(built) : built;
const host = await startWorkerd({
  scriptPath: script,
  adminToken: operator,
  dashboard: false,
  embedderProcesses: 1,
  vars: { SSR_ALLOW_PRIVATE_FETCH: "true" },
});
const body = "x".repeat(1500);
// 400 items of ~1.6 KB a batch: a request body is at most 1 MB.
const SEED_BATCH = 400;
async function seed(base, site, n, prefix) {
  for (let done = 0; done < n; done += SEED_BATCH) {
    const items = Array.from({ length: Math.min(SEED_BATCH, n - done) }, (_, i) => ({
      slug: `${prefix}-${done + i}`,
      publish: true,
      data: { title: `Post ${done + i}, "quoted"`, body: `<p>${body}</p>` },
    }));
    await must(api(base, "POST", `/sites/${site.id}/collections/posts/items:batch`, site.adminKey, { items }), "batch");
  }
}
try {
  const base = host.base;
  const fields = [
    { key: "title", type: "text" },
    { key: "body", type: "richText" },
  ];
  const rows = [];

  // Webhook deliveries: one item.created event per item, one endpoint (BENCH_WEBHOOKS=0 skips them).
  if (DELIVERIES > 0) await benchDeliveries(base, fields, rows);
  // Exports: a collection of EXPORT_ROWS items of ~1.6 KB (BENCH_EXPORT_ROWS=0 skips them).
  if (EXPORT_ROWS > 0) await benchExports(base, fields, rows);
  if (IMPORT_ROWS > 0) await benchImport(base, fields, rows);
  console.log("\nOutbound webhooks, exports and imports (one site object on workerd)\n");
  console.log("| what | rate | unit | wall s |");
  console.log("| --- | --- | --- | --- |");
  for (const [what, rate, unit, secs] of rows) console.log(`| ${what} | ${Math.round(rate)} | ${unit} | ${secs.toFixed(1)} |`);
} finally {
  await host.dispose();
  receiver.close();
}

async function benchDeliveries(base, fields, rows) {
  const { site: hooked } = await must(api(base, "POST", "/sites", operator, { name: "Hooks", plan: "pro" }), "site");
  await must(api(base, "PUT", `/sites/${hooked.id}/collections/posts`, hooked.adminKey, { fields }), "collection");
  await must(api(base, "POST", `/sites/${hooked.id}/webhooks`, hooked.adminKey, { url: hookUrl, events: ["item.created"] }), "endpoint");
  const t0 = performance.now();
  await seed(base, hooked, DELIVERIES, "h");
  while (received < DELIVERIES) {
    if (performance.now() - t0 > 600_000) throw new Error(`only ${received} of ${DELIVERIES} deliveries after 10 min`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const sent = performance.now();
  rows.push([
    `webhook deliveries (${DELIVERIES} item.created, 1 endpoint, receiver answers 204)`,
    (DELIVERIES - 1) / ((sent - firstAt) / 1000),
    "deliveries/s (first to last received)",
    (sent - t0) / 1000,
  ]);
}

async function benchExports(base, fields, rows) {
  const { site } = await must(api(base, "POST", "/sites", operator, { name: "Export", plan: "pro" }), "site");
  await must(api(base, "PUT", `/sites/${site.id}/collections/posts`, site.adminKey, { fields }), "collection");
  await seed(base, site, EXPORT_ROWS, "e");
  for (const [label, path] of [
    ["collection CSV export", `/sites/${site.id}/collections/posts/export.csv`],
    ["site JSON export", `/sites/${site.id}/export.json`],
  ]) {
    const s0 = performance.now();
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${site.adminKey}` } });
    if (res.status !== 200) throw new Error(`${label}: ${res.status}`);
    let bytes = 0;
    for await (const chunk of res.body) bytes += chunk.byteLength;
    const secs = (performance.now() - s0) / 1000;
    rows.push([`${label} (${EXPORT_ROWS} rows, ${(bytes / 1e6).toFixed(1)} MB)`, EXPORT_ROWS / secs, "rows/s", secs]);
  }
}

/** IMPORT_ROWS rows of ~2 KB into a site that also answers public reads. */
async function benchImport(base, fields, rows) {
  const { site: target } = await must(api(base, "POST", "/sites", operator, { name: "Import", plan: IMPORT_PLAN }), "site");
  await must(api(base, "PUT", `/sites/${target.id}/collections/posts`, target.adminKey, { fields }), "collection");
  await seed(base, target, 3000, "r");
  // The readers' items are embedded for search first: reads "alone" are measured on a site with nothing else to do.
  if (IMPORT_PLAN === "pro") await waitForIndex(base, target.id, target.adminKey);
  // BENCH_READ_SITE=other: the readers read another site (another object in the same workerd
  // process), to tell waits in the importing object from waits for the process's one thread.
  let readSite = target;
  if (READ_SITE === "other") {
    readSite = (await must(api(base, "POST", "/sites", operator, { name: "Reads", plan: IMPORT_PLAN }), "site")).site;
    await must(api(base, "PUT", `/sites/${readSite.id}/collections/posts`, readSite.adminKey, { fields }), "collection");
    await seed(base, readSite, 3000, "r");
  }
  const file = benchImportCsv(IMPORT_ROWS);
  // Readers: each read a different item (a miss: the object answers), READERS at once.
  let writeStarted = 0;
  const slowest = [];
  const readLoop = (from, to, keepGoing) => {
    const times = [];
    let next = from;
    const one = async () => {
      while (keepGoing() && next < to) {
        const slug = `r-${next++}`;
        const r0 = performance.now();
        const res = await fetch(`${base}/v1/${readSite.token}/collections/posts/items/${slug}`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`read ${slug}: ${res.status}`);
        const took = performance.now() - r0;
        times.push(took);
        if (writeStarted) slowest.push([took, r0 - writeStarted]);
      }
    };
    return Promise.all(Array.from({ length: READERS }, one)).then(() => times.sort((a, b) => a - b));
  };
  const alone = await readLoop(0, 1000, () => true);
  let importing = false;
  let during = Promise.resolve([]);
  const { end, uploadSecs, checkSecs, writeSecs } = await timedImport(base, target, "posts", file, () => {
    importing = true;
    writeStarted = performance.now();
    during = readLoop(1000, 3000, () => importing);
  });
  importing = false;
  const duringTimes = await during;
  if (process.env.BENCH_SLOWEST) {
    // The slowest reads during the write, with when they started (ms after Start was sent).
    slowest.sort((a, b) => b[0] - a[0]);
    console.log(
      `slowest reads (ms, started at ms after ${new Date(Date.now() - (performance.now() - writeStarted)).toISOString()}): ${slowest
        .slice(0, Number(process.env.BENCH_SLOWEST))
        .map(([t, at]) => `${t.toFixed(0)}@${at.toFixed(0)}`)
        .join(" ")}`,
    );
  }
  if (end.done.created !== IMPORT_ROWS) throw new Error(`import created ${end.done.created} of ${IMPORT_ROWS}`);
  const mb = (file.length / 1e6).toFixed(1);
  rows.push([`CSV import: upload and parse (${IMPORT_ROWS} rows, ${mb} MB)`, IMPORT_ROWS / uploadSecs, "rows/s", uploadSecs]);
  rows.push([`CSV import: dry run (${IMPORT_ROWS} rows)`, IMPORT_ROWS / checkSecs, "rows/s", checkSecs]);
  rows.push([
    `CSV import: write, with revisions (${IMPORT_ROWS} rows, ${IMPORT_PLAN} plan)`,
    IMPORT_ROWS / writeSecs,
    "rows/s (goal ≥ 1,000)",
    writeSecs,
  ]);
  rows.push([
    `CSV import: all three (${IMPORT_ROWS} rows)`,
    IMPORT_ROWS / (uploadSecs + checkSecs + writeSecs),
    "rows/s",
    uploadSecs + checkSecs + writeSecs,
  ]);
  const ms = (t, p) => percentile(t, p).toFixed(1);
  const reads = [
    ["public item reads, no import", alone],
    ["public item reads during the import's write", duringTimes],
  ];
  console.log(
    `\nReads of ${READ_SITE === "other" ? "another site" : "the same site"} (${READERS} at once, each a different item, so the object answers)\n`,
  );
  console.log("| reads | n | p50 ms | p99 ms |");
  console.log("| --- | --- | --- | --- |");
  for (const [what, t] of reads) console.log(`| ${what} | ${t.length} | ${ms(t, 50)} | ${ms(t, 99)} |`);
  const ratio = percentile(duringTimes, 99) / percentile(alone, 99);
  console.log(`\np99 during / p99 alone: ${ratio.toFixed(2)} (goal ≤ 2)`);
}
