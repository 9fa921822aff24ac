// `BENCH_ONLY=scale npm run bench`: the content API's reads as a site grows (lists,
// filters, an item, and `search=`: docs/api.md), on the built Worker on plain workerd (Miniflare's direct socket, no
// wrangler dev proxy). One site per size (BENCH_SCALE_SIZES, default 1000,10000,100000) with a
// `posts` collection (indexed title, number and option, a 2 KB rich-text body), seeded through
// items:batch. Every measured read is a miss: an edit of a shown item comes before each one, so
// its cost is the object's, not the cache's. Each `total` is checked against what was seeded.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { api, must, percentile, seededPostsSite } from "../lib.mjs";
import { buildWorker, residentMb, servicePid, startWorkerd, workerdSchedCpuMs } from "../workerd-host.mjs";

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "1000,10000,100000").split(",").map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const operator = "bench-operator";
const BODY = `<p>${"Notes on kneading, proving and baking at home. ".repeat(40)}</p>`;

const host = await startWorkerd({ scriptPath: buildWorker(".bench/build"), adminToken: operator, dashboard: false });
const base = host.base;

/** Titles: every 100th holds "lantern" (1 %), every one "post", none "zzq". */
const title = (i) => `Post ${i}: ${i % 100 === 7 ? "lantern festival" : ["bread", "garden", "travel", "music"][i % 4]} notes`;

const siteOf = (n) =>
  seededPostsSite(base, operator, {
    name: `Search ${n}`,
    plan: "pro",
    fields: [
      { key: "title", type: "text", indexed: true, required: true },
      { key: "n", type: "number", indexed: true },
      {
        key: "category",
        type: "option",
        indexed: true,
        options: ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"].map((value) => ({ value })),
      },
      { key: "body", type: "richText" },
    ],
    count: n,
    item: (i) => ({ slug: `post-${i}`, publish: true, data: { title: title(i), n: i, category: `c${i % 10}`, body: BODY } }),
  });

/**
 * p50 wall time and mean CPU of the object's answer to `query`, each after an edit of an item
 * the answer shows (its body, which no read filters or sorts on; an edit of an item a list does
 * not show would let the edge carry the cached list on) and a pause for the work it queues (the
 * alarm's jobs), so only the read is counted. `expectTotal` null: an item, not a list.
 */
async function measure(site, query, expectTotal, path = "collections/posts/items") {
  const walls = [];
  let cpu = 0;
  const probe = await (await fetch(`${base}/v1/${site.token}/${path}?${query}`)).json();
  const shown = probe.item?.id ?? probe.items?.[0]?.id ?? site.firstId;
  for (let i = 0; i < SAMPLES; i++) {
    await must(
      api(base, "PATCH", `/sites/${site.id}/collections/posts/items/${shown}`, site.adminKey, { data: { body: `${BODY}<p>${i}</p>` } }),
      "edit",
    );
    await new Promise((r) => setTimeout(r, 40));
    const c0 = workerdSchedCpuMs([servicePid()]);
    const t = performance.now();
    const res = await fetch(`${base}/v1/${site.token}/${path}?${query}`);
    const body = await res.json();
    if (expectTotal === null) body.total = null;
    walls.push(performance.now() - t);
    cpu += workerdSchedCpuMs([servicePid()]) - c0;
    if (res.status !== 200 || res.headers.get("x-cache") === "HIT")
      throw new Error(`${query}: ${res.status} ${res.headers.get("x-cache")}`);
    if (body.total !== expectTotal) throw new Error(`${query}: total ${body.total}, expected ${expectTotal}`);
  }
  const sorted = walls.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), cpu: cpu / SAMPLES };
}

/**
 * p50 wall time and mean CPU of a dashboard call (`path` under the site, with its admin key): its
 * answers are private, never cached, so no edit is needed before each. `expectTotal` checks a list.
 */
async function dashboard(site, path, expectTotal) {
  const walls = [];
  let cpu = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const c0 = workerdSchedCpuMs([servicePid()]);
    const t = performance.now();
    const r = await api(base, "GET", `/sites/${site.id}${path}`, site.adminKey);
    walls.push(performance.now() - t);
    cpu += workerdSchedCpuMs([servicePid()]) - c0;
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    if (expectTotal !== undefined && r.body.total !== expectTotal)
      throw new Error(`${path}: total ${r.body.total}, expected ${expectTotal}`);
  }
  return {
    p50: percentile(
      walls.sort((a, b) => a - b),
      50,
    ),
    cpu: cpu / SAMPLES,
  };
}

/** The collection's CSV export, read to the end once: its time, CPU and size, and the service's peak memory growth. */
async function exportCsv(site) {
  // VmHWM is the peak since the process began (the seed's among it): reset it first (Linux: 5 > clear_refs).
  writeFileSync(`/proc/${servicePid()}/clear_refs`, "5");
  const before = residentMb(servicePid());
  const c0 = workerdSchedCpuMs([servicePid()]);
  const t = performance.now();
  const res = await fetch(`${base}/sites/${site.id}/collections/posts/export.csv`, {
    headers: { authorization: `Bearer ${site.adminKey}` },
  });
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`export.csv: ${res.status}`);
  return { p50: ms, cpu: workerdSchedCpuMs([servicePid()]) - c0, mb: bytes / 1e6, peak: residentMb(servicePid(), "VmHWM") - before };
}

const rows = [];
try {
  const results = new Map();
  const exports = new Map();
  for (const n of SIZES) {
    const { site, seedPerSecond } = await siteOf(n);
    const first = await must(api(base, "GET", `/sites/${site.id}/collections/posts/items?limit=1&sort=slug`, site.adminKey), "first");
    site.firstId = first.items.find((i) => i.slug === "post-0")?.id ?? first.items[0].id;
    const lanterns = Array.from({ length: n }, (_, i) => i).filter((i) => i % 100 === 7).length;
    results.set(n, {
      seed: seedPerSecond,
      "list page 1, default sort": await measure(site, "limit=24", n),
      "deep page (N/48) sorted by title": await measure(site, `sort=title&limit=24&page=${Math.floor(n / 48)}`, n),
      "filter[category]=c3&sort=-n": await measure(site, "filter[category]=c3&sort=-n&limit=24", n / 10),
      "range filter on the indexed number (10 %)": await measure(
        site,
        `filter[n][gte]=${Math.floor(n * 0.45)}&filter[n][lt]=${Math.floor(n * 0.55)}&limit=24`,
        Math.floor(n * 0.55) - Math.floor(n * 0.45),
      ),
      "item by slug": await measure(site, "", null, `collections/posts/items/post-${Math.floor(n / 2)}`),
      "search a word in 1 % of titles": await measure(site, "search=lantern", lanterns),
      "search a word in every title, page 1": await measure(site, "search=post", n),
      "search two characters (av, a quarter of titles)": await measure(
        site,
        "search=av",
        Array.from({ length: n }, (_, i) => i).filter((i) => i % 4 === 2).length,
      ),
      "search a term no title holds": await measure(site, "search=zzqx", 0),
      "search + option filter": await measure(site, "search=lantern&filter[category]=c7", lanterns),
      "dashboard: items table, page 1": await dashboard(site, "/collections/posts/items?limit=25", n),
      "dashboard: page 40, sorted by title": await dashboard(site, "/collections/posts/items?limit=25&page=40&sort=title", n),
      "dashboard: published only, by last edit": await dashboard(
        site,
        "/collections/posts/items?limit=25&status=published&sort=-updatedAt",
        n,
      ),
      "dashboard: search (slugs, indexed fields)": await dashboard(
        site,
        "/collections/posts/items?limit=25&search=lantern&searchIn=indexed",
        lanterns,
      ),
      "dashboard: overview (GET /stats)": await dashboard(site, "/stats"),
    });
    // The whole service process (every site of the sizes so far, SQLite's page cache among it):
    // an upper bound on the 100,000-item site object's memory while it serves these reads.
    results.get(n).rss = residentMb(servicePid());
    exports.set(n, await exportCsv(site));
  }
  const reads = Object.keys(results.get(SIZES[0])).filter((k) => k !== "seed" && k !== "rss");
  const f = (x) => x.toFixed(1);
  for (const read of reads) {
    const row = { read };
    for (const n of SIZES)
      row[`${n.toLocaleString("en")}: p50 ms (CPU)`] = `${f(results.get(n)[read].p50)} (${f(results.get(n)[read].cpu)})`;
    row.growth = `×${(results.get(SIZES.at(-1))[read].p50 / results.get(SIZES[0])[read].p50).toFixed(1)}`;
    rows.push(row);
  }
  const seed = { read: "seed through items:batch, items/s" };
  const exported = { read: "export.csv, whole, ms (CPU)" };
  const exportSize = { read: "export.csv MB; service peak RSS growth MB" };
  const memory = { read: "service RSS after the reads, MB (every site so far)" };
  for (const n of SIZES) {
    const col = `${n.toLocaleString("en")}: p50 ms (CPU)`;
    const e = exports.get(n);
    seed[col] = results.get(n).seed.toFixed(0);
    exported[col] = `${f(e.p50)} (${f(e.cpu)})`;
    exportSize[col] = `${e.mb.toFixed(1)}; ${e.peak.toFixed(0)}`;
    memory[col] = results.get(n).rss.toFixed(0);
  }
  rows.push(seed, exported, exportSize, memory);
} finally {
  await host.dispose();
}
console.log(
  `\nReads as a site grows, on plain workerd, ${SAMPLES} per row; content API reads are misses, each after an edit (load ${loadavg()[0].toFixed(1)}):`,
);
console.log("CPU = the service process's CPU (schedstat, not the embedder's) during each read, after its edit's queued work has run.\n");
console.table(rows);
