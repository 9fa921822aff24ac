// `npm run bench`: content API throughput and latency over 10,000 items, then
// semantic search over 10,000 items (search.mjs), then the busy site (busy.mjs).
// Then what refused requests cost beside a cached read (benchRefused, docs/caching.md).
// Then one abusive client beside a site's readers (abuse.mjs).
// BENCH_ONLY=content, search, refused, busy or abuse runs just one of them; BENCH_ONLY=history,
// transfer or media one of the later steps of `npm run bench`. The benches that only run alone
// (ALONE below; each file's opening comment says what it measures and its options):
//   compare       a baseline commit and the working tree side by side (compare.mjs, docs/caching.md)
//   read-goals    that, the busy site and the bundle report, as the read path's goals (read-goals.mjs)
//   hop           the runtime's own hop from a Worker to a Durable Object (hop.mjs)
//   object-costs  single runtime objects and calls, one by one (object-costs.mjs)
//   memory        where the service's memory goes during reads (memory.mjs)
//   profile       a CPU profile of the service under load (profile.mjs)
//   miss-pair     the misses of two builds, paired (miss-pair.mjs)
//   save-pair     the 5 KB item save of two builds, paired (save-pair.mjs)
//   substring-search  search= misses at 1,000, 10,000 and 100,000 items (substring-scale.mjs)
//   locales       list misses in a locale beside the same lists without locales (locales.mjs)
// Runs the built Worker on workerd via Miniflare's API with a direct socket
// (no wrangler dev proxy), drives it with autocannon, and reads CPU time from
// the workerd process (/proc) to get CPU per request.
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { BENCH_POST_FIELDS, CATEGORIES, api, missPaths, must, percentile, seedItems } from "../lib.mjs";
import { benchSearch, waitForIndex } from "./search.mjs";
import { buildWorker, servicePid, startCacheFloor, startWorkerd, workerdCpuMs, workerdCpuSplitMs } from "../workerd-host.mjs";

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const operator = "bench-operator";
// Numbers the never-seen query parameter of every uncached request (see `drive`).
let requestNumber = 0;

const only = process.env.BENCH_ONLY;
const ALONE = {
  compare: "./compare.mjs",
  "read-goals": "./read-goals.mjs",
  hop: "./hop.mjs",
  "object-costs": "./object-costs.mjs",
  memory: "./memory.mjs",
  profile: "./profile.mjs",
  "miss-pair": "./miss-pair.mjs",
  "save-pair": "./save-pair.mjs",
  scale: "./scale-reads.mjs",
  "substring-search": "./scale-reads.mjs",
  storage: "./storage-scale.mjs",
  "dashboard-scale": "./dashboard-scale.mjs",
  locales: "./locales.mjs",
};
const HERE = ["content", "search", "refused", "busy", "abuse"];
const LATER = ["history", "transfer", "media"];
// A name that is none of them would otherwise run the content and search parts: say so instead.
if (only && !Object.hasOwn(ALONE, only) && !HERE.includes(only) && !LATER.includes(only))
  throw new Error(`BENCH_ONLY=${only}: not a part of the bench (${[...HERE, ...LATER, ...Object.keys(ALONE)].join(", ")})`);
if (Object.hasOwn(ALONE, only ?? "")) {
  await import(ALONE[only]);
  process.exit(0);
}
// BENCH_ONLY=history, transfer or media: that script alone (a later step of `npm run bench`).
if (LATER.includes(only)) process.exit(0);
const cpuMs = workerdCpuMs;
let base = "";
if (only !== "busy" && only !== "refused" && only !== "abuse") {
  const script = buildWorker(".bench/build");
  const host = await startWorkerd({ scriptPath: script, adminToken: operator, dashboard: false });
  base = host.base;
  try {
    if (only !== "search") await benchContent();
    if (only !== "content") await benchSearch({ base, operator, items: ITEMS, embedderProcesses: host.embedderProcesses });
  } finally {
    await host.dispose();
  }
}
if (!only || only === "refused") await benchRefused();
// Its own workerd (an SEO Engine site needs page capture from 127.0.0.1).
if (!only || only === "busy") await import("./busy.mjs");
// Its own workerd with the real limiter: what one abusive client costs a site's readers.
if (!only || only === "abuse") await import("./abuse.mjs");

async function benchContent() {
  const { site } = await must(api(base, "POST", "/sites", operator, { name: "Bench", plan: "pro" }), "site");
  const key = site.adminKey;
  await must(api(base, "PUT", `/sites/${site.id}/collections/posts`, key, { fields: BENCH_POST_FIELDS }), "collection");
  const categories = ["news", "guides", "reviews", "recipes", "travel", "tech", "sport", "music"];
  const t0 = performance.now();
  await seedItems(base, site.id, key, "posts", ITEMS, (i) => {
    return {
      slug: `post-${i}`,
      publish: true,
      data: {
        title: `Post number ${i} about ${categories[i % 8]}`,
        summary: `A short summary for post ${i}, with a few words to search through.`,
        body: `<p>Body of post ${i}.</p>`,
        category: categories[i % 8],
        date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
        cover: { url: `https://img.example.com/${i}.jpg`, alt: `Cover ${i}`, width: 1600, height: 900 },
      },
    };
  });
  const seedSeconds = (performance.now() - t0) / 1000;
  // The site is on Pro, so its items are being embedded for search: measure a quiet site.
  await waitForIndex(base, site.id, key);

  const listPath = `/v1/${site.token}/collections/posts/items?page=3&limit=24&sort=-date`;
  const filteredPath = `/v1/${site.token}/collections/posts/items?page=3&limit=24&sort=-date&filter[category]=guides&search=summary`;
  const itemPath = `/v1/${site.token}/collections/posts/items/post-${Math.min(4242, ITEMS - 1)}`;
  const scenarios = [
    ["(a) list p3, limit 24, sort -date", listPath, "list"],
    ["(b) + filter[category] + search", filteredPath, "filtered"],
    ["(c) single item", itemPath, "item"],
  ];
  // Misses: distinct URLs doing the same work (the cache key ignores parameters an endpoint does
  // not understand), each read once; one cursor per kind, so no run reads another's URLs again.
  const missLists = Object.fromEntries(["list", "filtered", "item"].map((k) => [k, missPaths(site.token, k, ITEMS)]));
  const cursor = { list: 0, filtered: 0, item: 0 };
  const nextMisses = (kind) => ({ list: missLists[kind], from: () => cursor[kind]++ });

  const rows = [];
  for (const [name, path, kind] of scenarios) {
    await fetch(`${base}${path}`); // warm the cache entry for the cached run
    // Uncached: every request is a URL (cache key) never read before, so each one misses the cache.
    rows.push({ scenario: name, mode: "uncached", ...(await drive(base, path, { misses: nextMisses(kind) })) });
    rows.push({ scenario: name, mode: "cached", ...(await drive(base, path)) });
  }

  // The same shape of read without the Cache API: the dashboard's list (page 3, 24 items, admin key)
  // goes front Worker → site object → SQLite → JSON like (a), but is never cached. Its gap to (a)
  // uncached is what the local Cache API's match and put cost on workerd's one thread.
  const dashboardPath = `/sites/${site.id}/collections/posts/items?page=3&limit=24`;
  const dashboard = await drive(base, dashboardPath, { unique: "n", headers: { authorization: `Bearer ${key}` } });
  rows.push({ scenario: "dashboard list p3, limit 24 (no Cache API)", mode: "never cached", ...dashboard });

  // The floor: a Worker that does nothing but the Cache API lookup and store of a miss.
  const floor = await startCacheFloor();
  const floorRow = await drive(floor.base, "/floor", { unique: "n" });
  await floor.dispose();
  rows.push({ scenario: "floor: Cache API match + put only (bench/cache-floor-worker.js)", mode: "uncached", ...floorRow });

  // Uncached list latency as the load grows: past one connection, p50 is mostly time spent
  // queueing for workerd's one thread (Little's law: connections / throughput).
  const load = [];
  for (const connections of [1, 2, 4, 8, 16, 32]) {
    load.push({
      connections,
      ...(await drive(base, listPath, { misses: nextMisses("list"), connections, duration: Math.min(DURATION, 5) })),
    });
  }

  // Latency of one request at a time: what a single visitor sees, without queueing behind 32 others.
  const serial = [];
  for (const [name, , kind] of scenarios) {
    const times = [];
    const misses = nextMisses(kind);
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      const res = await fetch(`${base}${misses.list[misses.from() % misses.list.length]}`);
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    serial.push({
      scenario: name,
      mode: "uncached, 1 connection",
      "p50 ms": percentile(times, 50).toFixed(2),
      "p99 ms": percentile(times, 99).toFixed(2),
    });
  }

  console.log(
    `\nContent API on workerd (Miniflare API, direct socket, no wrangler dev proxy); ${ITEMS} items seeded in ${seedSeconds.toFixed(1)} s through items:batch`,
  );
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${DURATION} s per row; CPU = workerd process user+sys time / requests (front Worker + Durable Object + HTTP)\n`,
  );
  console.table(rows);
  console.log("\n(a) uncached, by number of connections:");
  console.table(load);
  console.table(serial);
  for (const [name] of scenarios) {
    const u = rows.find((r) => r.scenario === name && r.mode === "uncached");
    const c = rows.find((r) => r.scenario === name && r.mode === "cached");
    console.log(`${name}: cached/uncached throughput = ${(c["req/s"] / u["req/s"]).toFixed(1)}x`);
  }
}

/**
 * What a refused request costs beside a cached read: an attacker's loop of random ids, wrong
 * tokens or a client over its quota must cost the service less than serving a real visitor.
 * Its own workerd, with wrangler.toml's Rate Limiting bindings (the content host runs without
 * them: its thousands of uncached reads from one client would be refused), and a small site.
 */
async function benchRefused() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 3);
  const items = Number(process.env.BENCH_ITEMS ?? 500);
  const host = await startWorkerd({
    scriptPath: buildWorker(".bench/build"),
    adminToken: operator,
    dashboard: false,
    embedderProcesses: 1,
    rateLimits: true,
    // The site's reads quota at 300 a minute (a deployment's RATE_LIMITS), so one client spends it
    // within a few hundred requests before each round.
    vars: { RATE_LIMITS: JSON.stringify({ reads: { pro: 300 } }) },
  });
  try {
    const origin = host.base;
    // Pro for list parameters like (a); its items are embedded for search, so wait for a quiet site.
    const { site } = await must(api(origin, "POST", "/sites", operator, { name: "Refused", plan: "pro" }), "site");
    const key = site.adminKey;
    await must(api(origin, "PUT", `/sites/${site.id}/collections/posts`, key, { fields: BENCH_POST_FIELDS }), "collection");
    await seedItems(origin, site.id, key, "posts", items, (i) => ({
      slug: `post-${i}`,
      publish: true,
      data: {
        title: `Post ${i}`,
        summary: `Summary ${i}.`,
        body: `<p>Body ${i}.</p>`,
        category: CATEGORIES[i % 8],
        date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
        cover: { url: `https://img.example.com/${i}.jpg`, alt: `Cover ${i}`, width: 1600, height: 900 },
      },
    }));
    await waitForIndex(origin, site.id, key);

    const query = "?page=3&limit=24&sort=-date";
    const listPath = `/v1/${site.token}/collections/posts/items${query}`;
    await fetch(`${origin}${listPath}`); // warm the cache entry

    // Every row sends requests made before the run, one after another from a list (the cached row
    // too, a list of its one URL), so autocannon does the same work per request in every row. Made
    // per request (random ids drawn inside setupRequest), the client's own cost differed by row; on
    // this 2-core machine a slower client means fewer requests per wake-up of workerd, and so more
    // of workerd's CPU per request: the rows measured the client as much as the refusal.
    // A row's `before` makes its list anew each round: an id or token is never sent twice.
    const perRound = Math.ceil(seconds * 15_000);
    const lists = {};
    const fromList = (name) => {
      let n = 0;
      return [{ setupRequest: (req) => ({ ...req, ...lists[name][n++ % lists[name].length] }) }];
    };

    // Rate limited: one client (its address in CF-Connecting-IP, as Cloudflare sets it) spends
    // the site's `reads` quota on uncached single items right before its row, then reads lists
    // nobody read before: each one misses the cache, and the front Worker refuses it from what it
    // kept of the site object's 429 (a 429 is never stored). Needs >= 300 items.
    const client = { "cf-connecting-ip": "203.0.113.7" };
    // Each round spends it again once the isolate has forgotten the refusal (Retry-After passed):
    // through URLs never read before (a cached read is free), one cursor across the rounds.
    const spendPaths = [...missPaths(site.token, "item", items), ...missPaths(site.token, "filtered", items)];
    let spent = 0;
    const spendQuota = async () => {
      for (let i = 0, refused = false; !refused; i++) {
        if (i > 1000 || spent >= spendPaths.length) throw new Error("the reads limit never refused: is RATE_LIMITS set?");
        const res = await fetch(`${origin}${spendPaths[spent++]}`, { headers: client });
        await res.arrayBuffer();
        refused = res.status === 429;
      }
    };
    lists.cached = [{ path: listPath }];
    // (Not the cached row's own URL: that one is a hit, answered whatever the client's quota.)
    lists.limited = missPaths(site.token, "list", items)
      .filter((path) => path !== listPath)
      .map((path) => ({ path, headers: client }));
    const make = (name, one) => () => {
      lists[name] = Array.from({ length: perRound }, one);
    };

    const cases = [
      ["cached read: list p3, limit 24 (as (a))", 200, { requests: fromList("cached") }],
      [
        "random site id in a public token (fresh per request)",
        404,
        {
          before: make("random", () => ({ path: `/v1/pk_${random(16)}_${random(24)}/collections/posts/items${query}` })),
          requests: fromList("random"),
        },
      ],
      [
        "wrong token of the real site (fresh per request)",
        404,
        {
          before: make("wrong", () => ({ path: `/v1/pk_${site.id}_${random(24)}/collections/posts/items${query}` })),
          requests: fromList("wrong"),
        },
      ],
      [
        "dashboard: random site id + random admin key",
        401,
        {
          before: make("dashboard", () => {
            const id = random(16);
            return {
              path: `/sites/${id}/collections/posts/items?page=3&limit=24`,
              headers: { authorization: `Bearer sk_${id}_${random(40)}` },
            };
          }),
          requests: fromList("dashboard"),
        },
      ],
      ["rate limited: reads quota spent, uncached list", 429, { before: spendQuota, requests: fromList("limited") }],
    ];
    // BENCH_REFUSED_ROUNDS rounds (5) of every row in turn, BENCH_SECONDS (3) each, with the cached
    // read both first and last in every round: each refusal is compared with the mean of the two
    // cached runs around it, in its own round. On this 2-core machine one run of a row varies by
    // ±20–30 % even when it is quiet (workerd's CPU per request falls as its throughput rises, and
    // the throughput moves with the client and the other load), and a machine getting busier or
    // quieter during a round otherwise shows up as a difference between rows. The figure is the
    // median of the rounds' ratios, with their range.
    const rounds = Math.max(1, Number(process.env.BENCH_REFUSED_ROUNDS ?? 5));
    // The service's workerd alone: the embedder's process (idle here, the site indexed) adds only noise.
    const service = [servicePid()];
    const loadBefore = loadavg();
    // BENCH_REFUSED_RATE: every row at that offered rate (requests/s over the 32 connections)
    // instead of as fast as the client can (the default). workerd's CPU per request falls as its
    // throughput rises (more requests per wake-up of its event loop), so on a busy machine, where
    // throughput moves from row to row with the other load, rows run flat out compare their
    // throughputs as much as their work. At one rate below every row's capacity they carry the
    // same traffic.
    const rate = Number(process.env.BENCH_REFUSED_RATE ?? 0);
    const runs = cases.map(() => []);
    // Per round: the cached read's two runs (first, last), and each refusal's ratio to their mean.
    const cachedRuns = [];
    const ratios = cases.map(() => []);
    const run = async ([, expected, how]) => {
      await how.before?.();
      const row = await drive(origin, listPath, { ...how, duration: seconds, statuses: true, pids: service, overallRate: rate });
      if (row.status.split(", ").some((seen) => !seen.startsWith(`${expected}:`))) row.status += ` (expected ${expected})`;
      return row;
    };
    for (let round = 0; round < rounds; round++) {
      const first = await run(cases[0]);
      const middle = [];
      for (const c of cases.slice(1)) middle.push(await run(c));
      const last = await run(cases[0]);
      const cachedCpu = (Number(first["CPU ms/req"]) + Number(last["CPU ms/req"])) / 2;
      cachedRuns.push([first, last]);
      runs[0].push(first, last);
      ratios[0].push(Number(last["CPU ms/req"]) / Number(first["CPU ms/req"]));
      for (const [i, row] of middle.entries()) {
        runs[i + 1].push(row);
        ratios[i + 1].push(Number(row["CPU ms/req"]) / cachedCpu);
      }
    }
    const median = (xs) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    };
    const rows = cases.map(([name], i) => ({
      request: name,
      "req/s": Math.round(median(runs[i].map((r) => r["req/s"]))),
      "p50 ms": median(runs[i].map((r) => r["p50 ms"])),
      "p99 ms": median(runs[i].map((r) => r["p99 ms"])),
      "CPU ms/req": median(runs[i].map((r) => Number(r["CPU ms/req"]))).toFixed(3),
      // The cached row: its first / last run of each round.
      "CPU ms/req of each round":
        i === 0
          ? cachedRuns.map(([a, b]) => `${a["CPU ms/req"]}+${b["CPU ms/req"]}`).join(" / ")
          : runs[i].map((r) => r["CPU ms/req"]).join(" / "),
      // User and system time apart (medians): the system part is the sockets' and the memory's.
      "user / sys ms/req": `${median(runs[i].map((r) => r.userMs)).toFixed(3)} / ${median(runs[i].map((r) => r.sysMs)).toFixed(3)}`,
      status: runs[i].map((r) => r.status).join("; "),
      errors: runs[i].reduce((n, r) => n + r.errors, 0),
      // The cached row: its last run over its first (how far the machine drifted within a round).
      "CPU vs cached (median of rounds)": `${median(ratios[i]).toFixed(2)}x`,
      "vs cached, each round": ratios[i].map((x) => x.toFixed(2)).join(" / "),
      "range of rounds": `${Math.min(...ratios[i]).toFixed(2)}–${Math.max(...ratios[i]).toFixed(2)}`,
    }));
    const [cached] = rows;
    for (const row of rows) row["req/s vs cached"] = `${(row["req/s"] / cached["req/s"]).toFixed(2)}x`;
    console.log(`\nRefused requests beside a cached read (workerd, Rate Limiting bindings of wrangler.toml, ${items} items)`);
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${rate ? `${rate} requests/s offered, ` : ""}${seconds} s per run, ${rounds} rounds of the cached read, every refusal in turn and the cached read again (figures: medians; "vs cached": each refusal over the mean of its round's two cached runs, the median of the rounds); CPU: the service's workerd process; status: answers seen (code: count), per round; load (1, 5, 15 min) ${loadBefore.map((l) => l.toFixed(1)).join(" ")} before the rows, ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} after\n`,
    );
    console.table(rows);
  } finally {
    await host.dispose();
  }
}

/** `length` random characters of the id alphabet (src/contract/ids.ts). */
function random(length) {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  return Array.from(randomBytes(length), (b) => alphabet[b & 31]).join("");
}

/**
 * One autocannon run against `path`. With `unique`, each request gets a never-seen query
 * parameter of that name (for what is never cached: the dashboard, the floor Worker); with
 * `misses`, each request takes the next of those URLs. CPU is all workerd processes' time, or `pids`'.
 */
async function drive(origin, path, opts = {}) {
  const { unique, misses, headers, connections = CONNECTIONS, duration = DURATION, statuses, pids, overallRate } = opts;
  const sep = path.includes("?") ? "&" : "?";
  const requests = opts.requests
    ? opts.requests
    : misses
      ? [{ setupRequest: (req) => ({ ...req, path: misses.list[misses.from() % misses.list.length] }) }]
      : unique
        ? [{ setupRequest: (req) => ({ ...req, path: `${path}${sep}${unique}=${requestNumber++}` }) }]
        : undefined;
  const splitBefore = workerdCpuSplitMs(pids);
  const cpuBefore = cpuMs(pids);
  const r = await autocannon({
    url: `${origin}${path}`,
    connections,
    duration,
    headers,
    requests,
    ...(overallRate ? { overallRate } : {}),
  });
  const cpu = cpuMs(pids) - cpuBefore;
  const split = workerdCpuSplitMs(pids);
  return {
    "req/s": Math.round(r.requests.average),
    "p50 ms": r.latency.p50,
    "p99 ms": r.latency.p99,
    "CPU ms/req": r.requests.total ? (cpu / r.requests.total).toFixed(3) : "-",
    ...(statuses
      ? {
          status: Object.entries(r.statusCodeStats)
            .map(([code, { count }]) => `${code}: ${count}`)
            .join(", "),
          errors: r.errors,
          userMs: r.requests.total ? (split.user - splitBefore.user) / r.requests.total : 0,
          sysMs: r.requests.total ? (split.sys - splitBefore.sys) / r.requests.total : 0,
        }
      : { errors: r.errors + r.non2xx }),
  };
}
