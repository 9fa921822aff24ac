// Outbound webhooks and exports (issue 28): deliveries per second from one site object to a local
// receiver that answers 204 at once (the site sends 6 at a time, each signed), and rows per second
// of a collection's CSV export and of the whole site's JSON export, streamed from the object.
// The built Worker on plain workerd (scripts/workerd-host.mjs). Run: `node scripts/bench/transfer.mjs`.
import { createServer } from "node:http";
import { api, must } from "../lib.mjs";
import { buildWorker, startWorkerd } from "../workerd-host.mjs";

// BENCH_ONLY runs one part of `npm run bench` (api.mjs, media.mjs): not this one.
if (process.env.BENCH_ONLY) process.exit(0);

const DELIVERIES = Number(process.env.BENCH_WEBHOOKS ?? 2000);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 10000);
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

const script = buildWorker(".bench/build");
const host = await startWorkerd({
  scriptPath: script,
  adminToken: operator,
  dashboard: false,
  embedderProcesses: 1,
  vars: { SSR_ALLOW_PRIVATE_FETCH: "true" },
});
const body = "x".repeat(1500);
async function seed(base, site, n, prefix) {
  for (let done = 0; done < n; done += 1000) {
    const items = Array.from({ length: Math.min(1000, n - done) }, (_, i) => ({
      slug: `${prefix}-${done + i}`,
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

  // Webhook deliveries: one item.created event per item, one endpoint.
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

  // Exports: a collection of EXPORT_ROWS items of ~1.6 KB.
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

  console.log("\nOutbound webhooks and exports (one site object on workerd)\n");
  console.log("| what | rate | unit | wall s |");
  console.log("| --- | --- | --- | --- |");
  for (const [what, rate, unit, secs] of rows) console.log(`| ${what} | ${Math.round(rate)} | ${unit} | ${secs.toFixed(1)} |`);
} finally {
  await host.dispose();
  receiver.close();
}
