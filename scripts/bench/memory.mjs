// Where the service's memory goes during reads, through workerd's V8 inspector:
//   BENCH_ONLY=memory npm run bench     (BENCH_SCRIPT=<built index.js>, BENCH_CACHED_REQUESTS per cached case)
// (default: a fresh build of the working tree, 15,000 requests). Seeds 1,000 posts on a Pro site like
// compare.mjs, runs the misses and the three cached reads, and after each phase prints the
// service workerd's resident memory and, per isolate (inspector target), V8's heap as
// Runtime.getHeapUsage reports it, before and after a forced garbage collection. Resident
// memory that a collection gives back was garbage V8 had not yet collected; what stays is
// retained by the isolate or held natively by the runtime. BENCH_HEAP_SNAPSHOT=1 also writes
// .bench/heap-main.heapsnapshot of the main isolate after the cached reads (Chromium opens it).
import autocannon from "autocannon";
import { createWriteStream } from "node:fs";
import { api, missPaths, must } from "../lib.mjs";
import { seedBenchPosts } from "./posts.mjs";
import { buildWorker, durableObjectsOf, residentMb, servicePid, startInspectedWorkerd } from "../workerd-host.mjs";

const script = process.env.BENCH_SCRIPT || buildWorker(".bench/memory-build");
const REQUESTS = Number(process.env.BENCH_CACHED_REQUESTS ?? 15_000);
const host = await startInspectedWorkerd(script, { durableObjects: durableObjectsOf(script) });
const port = host.inspectorPort;
const pid = servicePid();

/** A connection to each isolate's inspector. */
async function inspectors() {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  return Promise.all(
    targets.map(async (t) => {
      const ws = new WebSocket(t.webSocketDebuggerUrl);
      await new Promise((r, j) => ((ws.onopen = r), (ws.onerror = j)));
      let id = 0;
      const waiting = new Map();
      const listeners = [];
      ws.onmessage = (m) => {
        const msg = JSON.parse(m.data);
        if (msg.id && waiting.has(msg.id)) waiting.get(msg.id)(msg);
        else for (const l of listeners) l(msg);
      };
      const call = (method, params = {}) =>
        new Promise((resolve) => {
          waiting.set(++id, resolve);
          ws.send(JSON.stringify({ id, method, params }));
        });
      return { name: t.title || t.id, call, listeners, close: () => ws.close() };
    }),
  );
}

const GC = process.env.BENCH_MEMORY_GC !== "0";
const mb = (b) => Math.round(b / 1024 / 1024);
const rows = [];
async function sample(phase, targets) {
  const row = { phase, "RSS MB": residentMb(pid), "peak MB": residentMb(pid, "VmHWM") };
  for (const t of targets) {
    const { result } = await t.call("Runtime.getHeapUsage");
    const n = t.name.replace(/^workerd: worker (core:user:)?/, "");
    row[`${n} heap MB (total)`] = `${mb(result.usedSize)} (${mb(result.totalSize)})`;
    if (result.backingStorageSize !== undefined) row[`${n} backing MB`] = mb(result.backingStorageSize);
  }
  // workerd's inspector has no HeapProfiler.collectGarbage; a heap snapshot collects first.
  if (GC) {
    const main = targets.find((t) => /main/.test(t.name));
    await snapshot(main, "/dev/null");
    row["RSS after GC"] = residentMb(pid);
    const { result } = await main.call("Runtime.getHeapUsage");
    row["main heap after GC"] = mb(result.usedSize);
  }
  rows.push(row);
  console.error(JSON.stringify(row));
}

async function snapshot(target, file) {
  const out = createWriteStream(file);
  const onChunk = (msg) => msg.method === "HeapProfiler.addHeapSnapshotChunk" && out.write(msg.params.chunk);
  target.listeners.push(onChunk);
  await target.call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  await new Promise((r) => out.end(r));
  target.listeners.splice(target.listeners.indexOf(onChunk), 1);
}

try {
  const { base } = host;
  // The user Worker's isolate (the front Worker and its Durable Objects) and the Cache API's.
  const targets = (await inspectors()).filter((t) => /core:user:main|cache:cache/.test(t.name));
  await sample("started", targets);
  const { site } = await must(api(base, "POST", "/sites", "op", { name: "Memory", plan: "pro" }), "site");
  await seedBenchPosts(base, site, 1000);
  await sample("seeded", targets);
  const items = `/v1/${site.token}/collections/posts/items`;
  for (const kind of ["list", "item", "filtered"]) {
    const paths = missPaths(site.token, kind, 1000);
    let n = 0;
    await autocannon({
      url: `${base}${paths[0]}`,
      connections: 8,
      amount: paths.length,
      requests: [{ setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length] }) }],
    });
    await sample(`misses ${kind} (${paths.length})`, targets);
  }
  for (const [name, path] of [
    ["list", `${items}?page=3&limit=24&sort=-date`],
    ["item", `${items}/post-424`],
    ["filtered", `${items}?page=3&limit=24&sort=-date&filter[category]=guides&search=summary`],
  ]) {
    await (await fetch(`${base}${path}`)).arrayBuffer();
    const r = await autocannon({ url: `${base}${path}`, connections: 32, amount: REQUESTS });
    if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    await sample(`cached ${name} (${REQUESTS})`, targets);
  }
  if (process.env.BENCH_HEAP_SNAPSHOT === "1")
    await snapshot(
      targets.find((t) => /main/.test(t.name)),
      ".bench/heap-main.heapsnapshot",
    );
  for (const t of targets) t.close();
  console.table(rows);
} finally {
  await host.dispose();
}
