// `npm run bench` (BENCH_ONLY=abuse alone): what one abusive client costs a site's readers, with
// the site limits' documented defaults and wrangler.toml's bindings (the real limiter). The built
// Worker on workerd (Miniflare API, direct socket, no wrangler dev proxy). Readers from 50
// addresses read the site's lists and items (every URL a miss after an edit, then hits) for
// BENCH_ABUSE_SECONDS (30): alone, then beside one client sending 1,000 req/s of made-up item
// URLs, then (a Pro site) beside one sending random search terms at 100 req/s. Prints the
// readers' throughput and latency in each row and what became of the abuser's requests.
import autocannon from "autocannon";
import { loadavg } from "node:os";
import { BENCH_POST_FIELDS, CATEGORIES, api, missPaths, must, seedItems } from "../lib.mjs";
import { buildWorker, servicePid, startWorkerd, workerdCpuMs } from "../workerd-host.mjs";
import { waitForIndex } from "./search.mjs";

const SECONDS = Number(process.env.BENCH_ABUSE_SECONDS ?? 30);
const ITEMS = 2000;
const READERS = 50;
const operator = "bench-operator";

const host = await startWorkerd({
  scriptPath: buildWorker(".bench/build"),
  adminToken: operator,
  dashboard: false,
  embedderProcesses: 1,
  rateLimits: true,
});
const rows = [];
try {
  for (const plan of ["starter", "pro"]) {
    const { site } = await must(api(host.base, "POST", "/sites", operator, { name: `Abuse ${plan}`, plan }), "site");
    const key = site.adminKey;
    await must(api(host.base, "PUT", `/sites/${site.id}/collections/posts`, key, { fields: BENCH_POST_FIELDS }), "collection");
    await seedItems(host.base, site.id, key, "posts", ITEMS, (i) => ({
      slug: `post-${i}`,
      publish: true,
      data: { title: `Post ${i}`, summary: `Summary ${i}.`, body: `<p>Body ${i}.</p>`, category: CATEGORIES[i % 8] },
    }));
    if (plan === "pro") await waitForIndex(host.base, site.id, key);
    const reads = [...missPaths(site.token, "item", ITEMS), ...missPaths(site.token, "list", ITEMS)];
    const abusers =
      plan === "starter"
        ? [
            ["none", null],
            ["made-up item URLs, 1,000 req/s", { rate: 1000, path: (n) => `/v1/${site.token}/collections/posts/items/nope-${n}` }],
          ]
        : [
            ["none", null],
            [
              "random search terms, 100 req/s",
              { rate: 100, path: (n) => `/v1/${site.token}/search?q=${encodeURIComponent(`random words ${n} ${Math.random()}`)}` },
            ],
          ];
    for (const [name, abuse] of abusers) {
      // An edit: every URL of the site misses the edge cache once again.
      await must(
        api(host.base, "POST", `/sites/${site.id}/collections/posts/items`, key, {
          slug: `new-${Date.now()}`,
          publish: true,
          data: { title: "New" },
        }),
        "edit",
      );
      // Each row starts in a window of its own: the previous row's counts are forgotten.
      await new Promise((r) => setTimeout(r, 61_000 - (Date.now() % 60_000)));
      const cpu0 = workerdCpuMs([servicePid()]);
      let n = 0;
      let m = 0;
      const readers = autocannon({
        url: host.base,
        connections: 16,
        duration: SECONDS,
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              path: reads[n % reads.length],
              headers: { "cf-connecting-ip": `203.0.113.${n++ % READERS}` },
            }),
          },
        ],
      });
      const abuser = abuse
        ? autocannon({
            url: host.base,
            connections: 16,
            duration: SECONDS,
            overallRate: abuse.rate,
            requests: [{ setupRequest: (req) => ({ ...req, path: abuse.path(m++), headers: { "cf-connecting-ip": "198.51.100.66" } }) }],
          })
        : null;
      const [r, a] = await Promise.all([readers, abuser]);
      const cpu = workerdCpuMs([servicePid()]) - cpu0;
      const codes = (x) =>
        Object.entries(x.statusCodeStats)
          .map(([code, { count }]) => `${code}: ${count}`)
          .join(", ");
      rows.push({
        plan,
        abuser: name,
        "readers req/s": Math.round(r.requests.average),
        "readers p50 ms": r.latency.p50,
        "readers p99 ms": r.latency.p99,
        "readers' answers": codes(r),
        "abuser's answers": a ? codes(a) : "-",
        "CPU ms/req": (cpu / (r.requests.total + (a?.requests.total ?? 0)) || 0).toFixed(3),
      });
    }
  }
} finally {
  await host.dispose();
}
console.log(
  `\nOne abusive client beside a site's readers (${READERS} addresses, 16 connections, ${SECONDS} s per row; site limits at their defaults; load ${loadavg()[0].toFixed(1)}):`,
);
console.table(rows);
console.log(
  "The flood's share is half the site's reads a minute (starter: 6,000): past it, it is refused from the front Worker's memory. The local embedding model shares this machine's cores with the readers; in production the model is Workers AI.",
);
