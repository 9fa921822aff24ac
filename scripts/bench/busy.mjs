// `npm run bench` (busy site; BENCH_ONLY=busy alone): one SEO Engine site read over
// ~270 distinct URLs (lists, filters, search, single items, rendered list and item pages,
// the sitemap) by 64 connections for 60 s: without a writer, then with one doing one
// publish, unpublish or edit a second through another isolate, then through the readers' own. The built Worker on workerd (Miniflare API,
// direct socket, no wrangler dev proxy). Reports throughput, latency, errors, site object
// requests per publish, CPU split into ours and the local Cache API's write, resident
// memory of each workerd process every 5 s, and freshness after the 2 s bound.
// BENCH_SCRIPT=<index.js> runs a Worker built before (another commit's) instead of the working tree.
import autocannon from "autocannon";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { BENCH_POST_FIELDS, api, missPaths, must, seedItems, ssrBenchSite } from "../lib.mjs";
import { waitForIndex } from "./search.mjs";
import { residentMb, servicePid, workerdCpuMs, workerdPidsByAge } from "../workerd-host.mjs";
import { floorCpuBySize, meanAnswerBytes, sample } from "./floor.mjs";

const SECONDS = Number(process.env.BENCH_BUSY_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_BUSY_CONNECTIONS ?? 64);
const ITEMS = 480; // 20 list pages of 24
const BOUND_MS = 2000; // the documented freshness promise
const CATEGORIES = ["news", "guides", "reviews", "recipes", "travel", "tech", "sport", "music"];

const { base, site, key, pages, mf, close } = await ssrBenchSite("Busy site", BENCH_POST_FIELDS);

try {
  await seedItems(base, site.id, key, "posts", ITEMS, (i) => ({
    slug: `post-${i}`,
    publish: true,
    data: {
      title: `Post ${i} about ${CATEGORIES[i % 8]}`,
      summary: `A short summary for post ${i}, with words like edge, cache and render.`,
      body: `<p>Body of post ${i} with <strong>rich</strong> text.</p>`,
      category: CATEGORIES[i % 8],
      date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
      cover: { url: `https://img.example.com/${i}.jpg`, alt: `Cover ${i}`, width: 1600, height: 900 },
    },
  }));
  const live = await must(
    api(base, "POST", `/sites/${site.id}/collections/posts/items`, key, {
      slug: "live",
      publish: true,
      data: { title: "live rev 0", category: "news", date: new Date().toISOString() },
    }),
    "live item",
  );
  pages.set(`<!doctype html><html><head><title>Busy blog</title><meta name="description" content="All posts"></head><body>
    <div data-oc-list="posts" data-oc-sort="-date" data-oc-limit="24"><article><a data-oc-link data-oc-field="title"></a>
    <p data-oc-field="summary"></p><img data-oc-field="cover"></article></div>
    <script src="${base}/embed.js" data-oc-token="${site.token}" defer></script></body></html>`);
  await must(api(base, "PUT", `/sites/${site.id}/ssr/capture`, key, { pageUrl: pages.url, collection: "posts" }), "capture");
  await waitForIndex(base, site.id, key);

  const urls = mixOfUrls(site.token);
  const sitesNs = await mf.getDurableObjectNamespace("SITE", "main");
  const siteStub = sitesNs.get(sitesNs.idFromName(site.id));
  const siteReads = async () => {
    const s = await siteStub.stats();
    const { version } = await siteStub.metaForHost();
    return { all: s.publicReads + s.metaReads, stored: s.publicReads - s.unchangedReads, version };
  };

  // Warm every URL once, then run without and with the writer.
  for (const u of urls) await (await fetch(`${base}${u.path}`, { headers: u.headers })).arrayBuffer();
  // The writer: through another isolate, as in production (the dashboard's isolate is not the
  // readers'): its calls go to the site object directly, so the readers' isolate learns of each
  // change when its site memo expires. Then through the readers' own isolate (read-your-writes).
  const direct = (method, path, body) =>
    siteStub
      .fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
      .then(async (r) => ({ status: r.status, body: await r.text() }));
  const viaWorker = (method, path, body) => api(base, method, path, key, body);
  // CPU of the service's workerd alone (not the embedder's, which re-embeds changed items),
  // uncached reads first, on a quiet site.
  const service = servicePid();
  const uncached = [];
  for (const [name, kind] of [
    ["list, about 24 items (page, limit 20-28, sort)", "list"],
    ["single item", "item"],
  ]) {
    const paths = missPaths(site.token, kind, ITEMS);
    const r = await uncachedCpu(paths, service);
    uncached.push({ name, kind, ...r, bytes: await meanAnswerBytes(base, sample(paths)) });
  }
  // The floor writes as many bytes as the answers it stands for (scripts/bench/floor.mjs).
  const floors = await floorCpuBySize(uncached.map((u) => u.bytes));
  // The Cache API writes under a writer are mostly list pages and rendered pages: costed at a list's size.
  const putMs = floors[uncached[0].bytes].put;
  const runtimeMs = floors[uncached[0].bytes].runtime;
  const uncachedRows = uncached.map((u) => {
    const f = floors[u.bytes];
    return {
      read: u.name,
      "answer bytes": u.bytes,
      "req/s": u.rps,
      "CPU ms/req, all": u.cpu.toFixed(3),
      "Cache API write": f.put.toFixed(3),
      "ours + HTTP + match": (u.cpu - f.put).toFixed(3),
      "HTTP + match (floor)": f.runtime.toFixed(3),
      ours: (u.cpu - f.put - f.runtime).toFixed(3),
      goal: u.kind === "list" ? "≤ 0.6" : "≤ 0.3",
    };
  });

  const quiet = await loadRun({ urls, writer: null, siteReads, service });
  const busy = await loadRun({ urls, writer: { name: "another isolate", call: direct }, siteReads, liveId: live.item.id, service });
  const same = await loadRun({ urls, writer: { name: "the readers' isolate", call: viaWorker }, siteReads, liveId: live.item.id, service });

  console.log(
    `\nBusy site on workerd (Miniflare API, direct socket, no wrangler dev proxy): ${urls.length} distinct URLs, ${CONNECTIONS} connections, ${SECONDS} s per run`,
  );
  const rows = [quiet, busy, same].map((r) => {
    const cacheApiMs = r.cacheWrites * putMs;
    return {
      run: r.writer ? `writer (1 change/s) via ${r.writer}` : "no writer",
      "req/s": Math.round(r.rps),
      "req/s w/o Cache API write (est.)": Math.round(r.requests / (SECONDS - cacheApiMs / 1000)),
      "p50 ms": r.p50,
      "p99 ms": r.p99,
      "max ms": r.max,
      errors: r.errors,
      changes: r.changes,
      versions: r.versions,
      "site object reqs / version": r.versions ? (r.siteReads / r.versions).toFixed(1) : `${r.siteReads} in all`,
      "CPU ms/req": (r.cpuMs / r.requests).toFixed(3),
      "of which Cache API write": (cacheApiMs / r.requests).toFixed(3),
      "fresh after 2 s": r.writer ? `${r.fresh}/${r.probed}` : "-",
    };
  });
  console.table(rows);
  const q = rows[0];
  // The busy site's goals, each figure beside its goal (read-goals.mjs prints them with the rest).
  const goals = rows.slice(1).flatMap((b) => {
    const share = b["req/s"] / q["req/s"];
    const p99 = b["p99 ms"] / Math.max(1, q["p99 ms"]);
    const [fresh, probed] = b["fresh after 2 s"].split("/").map(Number);
    return [
      {
        part: "busy site",
        goal: `${b.run}: throughput ≥ 60 % of no writer`,
        figure: `${(100 * share).toFixed(0)} % (${b["req/s"]} vs ${q["req/s"]} req/s)`,
        holds: share >= 0.6,
      },
      {
        part: "busy site",
        goal: `${b.run}: p99 ≤ 3 × quiet p99`,
        figure: `${p99.toFixed(1)} × (${b["p99 ms"]} vs ${q["p99 ms"]} ms)`,
        holds: p99 <= 3,
      },
      {
        part: "busy site",
        goal: `${b.run}: 100 % fresh after 2 s, no errors`,
        figure: `${fresh}/${probed} fresh, ${b.errors} errors`,
        holds: probed > 0 && fresh === probed && b.errors === 0,
      },
    ];
  });
  mkdirSync(".bench", { recursive: true });
  writeFileSync(
    ".bench/busy-goals.json",
    JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, load: loadavg()[0], goals }, null, 2),
  );
  for (const b of rows.slice(1)) {
    console.log(
      `${b.run}: throughput ${((100 * b["req/s"]) / q["req/s"]).toFixed(0)}% of no writer (goal ≥ 60%), without the Cache API write ${((100 * b["req/s w/o Cache API write (est.)"]) / q["req/s w/o Cache API write (est.)"]).toFixed(0)}%; p99 ${(b["p99 ms"] / Math.max(1, q["p99 ms"])).toFixed(1)} × the quiet p99 (goal ≤ 3); p99/p50 ${(b["p99 ms"] / Math.max(1, b["p50 ms"])).toFixed(1)}; site object requests per new version ${b["site object reqs / version"]} vs ${urls.length + 2} distinct URLs read after each (with the probe's two)`,
    );
  }
  for (const r of [quiet, busy, same]) {
    console.log(
      `\nWhere a sampled request waits (${r.writer ? `writer via ${r.writer}` : "no writer"}): one request of the mix at a time beside the load`,
    );
    console.table(r.phases);
  }
  console.log("\nResident memory (MB) of each workerd process, every 5 s:");
  console.table([quiet, busy, same].flatMap((r) => r.rss));
  for (const r of [quiet, busy, same])
    console.log(`${r.writer ? `writer via ${r.writer}` : "no writer"}: service RSS growth after 15 s: ${r.rssGrowth}`);
  console.log(
    `\nCPU per uncached read (unique URLs, 8 connections). The floor Worker (scripts/bench/cache-floor-worker.js) measures the local runtime's part alone, answering and writing as many bytes as each read's answers: serving an HTTP request with a Cache API match, and the Cache API write (the list's ${putMs.toFixed(3)} ms costs the busy runs' writes above; HTTP + match ${runtimeMs.toFixed(3)} ms)`,
  );
  console.table(uncachedRows);
} finally {
  await close();
}

/** The mix: lists, filtered lists, searches, single items, rendered list and item pages, the sitemap. */
function mixOfUrls(token) {
  const api = (p) => ({ path: `/v1/${token}/collections/posts/items${p}` });
  const page = (p) => ({ path: p, headers: { "x-service-token": token } });
  const out = [];
  for (let p = 1; p <= 20; p++) out.push(api(`?page=${p}&limit=24&sort=-date`));
  for (const c of CATEGORIES) for (let p = 1; p <= 3; p++) out.push(api(`?filter[category]=${c}&page=${p}&limit=12`));
  for (let i = 0; i < 20; i++) out.push(api(`?search=post%20${i}&limit=10`));
  for (let i = 0; i < 120; i++) out.push(api(`/post-${i * 4}`));
  for (let p = 1; p <= 10; p++) out.push(page(`/blog/${p > 1 ? `?page=${p}` : ""}`));
  for (let i = 0; i < 60; i++) out.push(page(`/blog/post-${i * 8}`));
  out.push(page("/blog/sitemap.xml"));
  return out;
}

/** One 60 s run over the mix, with a freshness probe and (optionally) the writer. */
async function loadRun({ urls, writer, siteReads, liveId, service }) {
  let next = 0;
  const ops = [];
  const probes = [];
  let running = true;
  const reads0 = await siteReads();
  const cpu0 = workerdCpuMs([service]);
  const t0 = performance.now();
  const rss = [];
  const sampler = setInterval(() => rss.push(rssRow(writer?.name ?? "no writer", performance.now() - t0)), 5000);
  const writing = writer ? writeLoop(writer.call, liveId, ops, () => running) : Promise.resolve();
  const probing = probeLoop(probes, () => running);
  const samples = [];
  const sampling = sampleLoop(urls, samples, () => running);
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (req) => {
          const u = urls[next++ % urls.length];
          return { ...req, path: u.path, headers: { ...req.headers, ...u.headers } };
        },
      },
    ],
  });
  running = false;
  clearInterval(sampler);
  await Promise.all([writing, probing, sampling]);
  const cpuMs = workerdCpuMs([service]) - cpu0;
  const reads1 = await siteReads();
  const reads = reads1.all - reads0.all;
  const { fresh, probed } = freshness(ops, probes);
  const serviceRss = rss.map((x) => x.service);
  const at15 = rss.find((x) => x["t s"] >= 15)?.service;
  return {
    writer: writer?.name ?? null,
    rps: r.requests.average,
    requests: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.non2xx + r.timeouts,
    changes: ops.length,
    // Each change bumps the cache version, and so does the search index when it has embedded the change.
    versions: reads1.version - reads0.version,
    siteReads: reads,
    // Each public read but an "unchanged" one is followed by one Cache API write (404s aside).
    cacheWrites: reads1.stored - reads0.stored,
    cpuMs,
    fresh,
    probed,
    rss,
    phases: phasesOf(samples, ops),
    rssGrowth: at15 ? `${(((serviceRss.at(-1) - at15) / at15) * 100).toFixed(1)}% (${at15} → ${serviceRss.at(-1)} MB; goal < 10%)` : "-",
  };
}

/** One change a second to the `live` item: mostly edits of its title, and an unpublish then publish every 10. */
async function writeLoop(call, liveId, ops, running) {
  const item = `/sites/${site.id}/collections/posts/items/${liveId}`;
  for (let k = 1; running(); k++) {
    const started = performance.now();
    let change;
    if (k % 10 === 5) change = { k, published: false, call: () => call("POST", `${item}/unpublish`) };
    else if (k % 10 === 6) change = { k, published: true, call: () => call("POST", `${item}/publish`) };
    else change = { k, published: true, rev: k, call: () => call("PATCH", item, { data: { title: `live rev ${k}` } }) };
    await must(change.call(), "change");
    const prev = ops.at(-1);
    ops.push({ k, returned: performance.now(), published: change.published, rev: change.rev ?? prev?.rev ?? 0 });
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - started))));
  }
}

/**
 * Reads a URL of the mix every few ms beside the load, one at a time, recording when it was
 * issued, how long it took and how it was answered (`x-cache`): where requests wait after a change.
 */
async function sampleLoop(urls, samples, running) {
  for (let i = 0; running(); i++) {
    const u = urls[(i * 7919) % urls.length];
    const issued = performance.now();
    const res = await fetch(`${base}${u.path}`, { headers: u.headers });
    await res.arrayBuffer();
    samples.push({ issued, ms: performance.now() - issued, cache: res.headers.get("x-cache") ?? "none", kind: kindOf(u) });
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The kind of read a URL of the mix is (a function declaration: the run above calls it before this line). */
function kindOf(u) {
  return u.headers
    ? u.path.includes("sitemap")
      ? "sitemap"
      : /\/blog\/(\?|$)/.test(u.path)
        ? "page, list"
        : "page, item"
    : /\?/.test(u.path)
      ? u.path.includes("search=")
        ? "search"
        : "list"
      : "item";
}

/**
 * The samples by how long after the last change returned they were issued (250 ms buckets) and by
 * how they were answered: count, p50 and p99 ms. A run without a writer is one bucket.
 */
function phasesOf(samples, ops) {
  const groups = new Map();
  for (const s of samples) {
    let last = null;
    for (const o of ops) if (o.returned <= s.issued) last = o;
    const after = last ? `${Math.min(4, Math.floor((s.issued - last.returned) / 250)) * 250} ms+` : "no change";
    for (const key of [`${after} | all`, `${after} | ${s.cache}`, `all | ${s.kind} ${s.cache}`]) {
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(s.ms);
    }
  }
  return [...groups]
    .sort((a, b) => a[0].localeCompare(b[0], "en", { numeric: true }))
    .map(([key, ms]) => {
      const sorted = ms.sort((a, b) => a - b);
      const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
      const [after, answer] = key.split(" | ");
      return { "after the last change": after, answer, n: sorted.length, "p50 ms": at(0.5), "p99 ms": at(0.99) };
    });
}

/** Reads the live item through the content API and as a rendered page, one at a time, recording what each saw. */
async function probeLoop(probes, running) {
  for (let i = 0; running(); i++) {
    const page = i % 2 === 1;
    const issued = performance.now();
    const res = await fetch(`${base}${page ? "/blog/live" : `/v1/${site.token}/collections/posts/items/live`}`, {
      headers: page ? { "x-service-token": site.token } : {},
    });
    const text = await res.text();
    const rev = /live rev (\d+)/.exec(text)?.[1];
    probes.push({ issued, published: res.status === 200, rev: rev === undefined ? null : Number(rev), status: res.status });
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Of the probes issued more than BOUND_MS after a change returned, how many saw that change (or a later one). */
function freshness(ops, probes) {
  let fresh = 0;
  let probed = 0;
  for (const p of probes) {
    let e = -1;
    for (let i = 0; i < ops.length && ops[i].returned <= p.issued - BOUND_MS; i++) e = i;
    if (e < 0) continue;
    probed++;
    const seen = ops.slice(e).some((o) => o.published === p.published && (!p.published || o.rev === p.rev));
    if (seen) fresh++;
  }
  return { fresh, probed };
}

/** Resident memory of this bench's workerd processes: the service (the last started) and the embedder. */
function rssRow(run, ms) {
  const pids = workerdPidsByAge();
  const row = { run, "t s": Math.round(ms / 1000), service: residentMb(pids.at(-1)) };
  pids.slice(0, -1).forEach((p, i) => (row[`embedder ${i + 1}`] = residentMb(p)));
  return row;
}

/** CPU per request of uncached reads: each of `paths` (distinct cache keys) read once. */
async function uncachedCpu(paths, service) {
  let n = 0;
  const cpu0 = workerdCpuMs([service]);
  const r = await autocannon({
    url: `${base}${paths[0]}`,
    connections: 8,
    amount: paths.length,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length] }) }],
  });
  return { rps: Math.round(r.requests.average), cpu: (workerdCpuMs([service]) - cpu0) / r.requests.total };
}
