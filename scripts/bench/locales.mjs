// `BENCH_ONLY=locales npm run bench`: content API list misses in a locale against the same list
// on a site without locales, on the built Worker on plain workerd (Miniflare's direct socket, no
// wrangler dev proxy). Two sites of BENCH_LOCALE_ITEMS posts (default 10,000), the same fields;
// the second has three locales (en, fr, de falling back to fr), every post translated into fr
// (title and summary) and de (summary only, so its title falls back along the chain). Each read
// is a miss: an edit of an item it shows comes before it. Goal: a list in a locale at most 1.2×.
import { loadavg } from "node:os";
import { api, must, percentile, seededPostsSite } from "../lib.mjs";
import { buildWorker, servicePid, startWorkerd, workerdSchedCpuMs } from "../workerd-host.mjs";

const ITEMS = Number(process.env.BENCH_LOCALE_ITEMS ?? 10_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const operator = "bench-operator";
const BODY = `<p>${"Notes on kneading, proving and baking at home. ".repeat(40)}</p>`;
const host = await startWorkerd({ scriptPath: buildWorker(".bench/build"), adminToken: operator, dashboard: false });
const base = host.base;

const fields = (localized) => [
  { key: "title", type: "text", indexed: true, required: true, localized },
  { key: "summary", type: "text", indexed: true, localized },
  { key: "n", type: "number", indexed: true },
  { key: "body", type: "richText" },
];
const item = (i) => ({ slug: `post-${i}`, publish: true, data: { title: `Post ${i}`, summary: `About ${i}`, n: i, body: BODY } });

/** Every item of `site` translated into fr and de, `concurrency` requests at a time; returns translations a second. */
async function translateAll(site) {
  const ids = [];
  for (let page = 1; ; page++) {
    const r = await must(api(base, "GET", `/sites/${site.id}/collections/posts/items?limit=100&page=${page}`, site.adminKey), "page");
    ids.push(...r.items.map((i) => ({ id: i.id, slug: i.slug })));
    if (page >= r.totalPages) break;
  }
  const jobs = ids.flatMap(({ id, slug }) => [
    [id, "fr", { slug: `${slug}-fr`, data: { title: `Billet ${slug.slice(5)}`, summary: `À propos de ${slug.slice(5)}` } }],
    [id, "de", { slug: `${slug}-de`, data: { summary: `Über ${slug.slice(5)}` } }],
  ]);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < jobs.length) {
        const [id, locale, body] = jobs[next++];
        await must(api(base, "PUT", `/sites/${site.id}/collections/posts/items/${id}/locales/${locale}`, site.adminKey, body), "translate");
      }
    }),
  );
  return jobs.length / ((performance.now() - t0) / 1000);
}

/** p50 wall and mean CPU of a list miss of `query`, each after an edit of an item it shows. */
async function measure(site, query, expectTotal) {
  const walls = [];
  let cpu = 0;
  const probe = await (await fetch(`${base}/v1/${site.token}/collections/posts/items?${query}`)).json();
  const shown = probe.items[0].id;
  for (let i = 0; i < SAMPLES; i++) {
    await must(
      api(base, "PATCH", `/sites/${site.id}/collections/posts/items/${shown}`, site.adminKey, { data: { body: `${BODY}<p>${i}</p>` } }),
      "edit",
    );
    await new Promise((r) => setTimeout(r, 40));
    const c0 = workerdSchedCpuMs([servicePid()]);
    const t = performance.now();
    const res = await fetch(`${base}/v1/${site.token}/collections/posts/items?${query}`);
    const body = await res.json();
    walls.push(performance.now() - t);
    cpu += workerdSchedCpuMs([servicePid()]) - c0;
    if (res.status !== 200 || res.headers.get("x-cache") === "HIT")
      throw new Error(`${query}: ${res.status} ${res.headers.get("x-cache")}`);
    if (body.total !== expectTotal) throw new Error(`${query}: total ${body.total}, expected ${expectTotal}`);
  }
  return {
    p50: percentile(
      walls.sort((a, b) => a - b),
      50,
    ),
    cpu: cpu / SAMPLES,
  };
}

const rows = [];
let perSecond = 0;
try {
  const { site: plain } = await seededPostsSite(base, operator, {
    name: "No locales",
    plan: "pro",
    fields: fields(false),
    count: ITEMS,
    item,
  });
  const { site: multi } = await seededPostsSite(base, operator, {
    name: "Three locales",
    plan: "pro",
    fields: fields(true),
    count: ITEMS,
    item,
  });
  await must(
    api(base, "PUT", `/sites/${multi.id}/locales`, multi.adminKey, {
      primary: "en",
      secondary: [{ code: "fr" }, { code: "de", fallback: "fr" }],
    }),
    "locales",
  );
  perSecond = await translateAll(multi);
  // The translations' search texts are kept on the alarm: let it drain before reading.
  await new Promise((r) => setTimeout(r, 2000));
  const pairs = [
    ["list page 1, default sort", "limit=24", "limit=24&locale=de"],
    [
      "deep page (N/48) sorted by title",
      `sort=title&limit=24&page=${Math.floor(ITEMS / 48)}`,
      `sort=title&limit=24&page=${Math.floor(ITEMS / 48)}&locale=de`,
    ],
    [
      "range filter on the indexed number (10 %)",
      `filter[n][gte]=${ITEMS * 0.45}&filter[n][lt]=${ITEMS * 0.55}&limit=24`,
      `filter[n][gte]=${ITEMS * 0.45}&filter[n][lt]=${ITEMS * 0.55}&limit=24&locale=de`,
    ],
    ["search a word in 1 % of summaries", "search=about+7&limit=24", "search=%C3%BCber+7&limit=24&locale=de"],
  ];
  const f = (x) => x.toFixed(1);
  for (const [read, without, withLocale] of pairs) {
    const total = (await (await fetch(`${base}/v1/${plain.token}/collections/posts/items?${without}`)).json()).total;
    const a = await measure(plain, without, total);
    const b = await measure(multi, withLocale, total);
    rows.push({
      read,
      "no locales: p50 ms (CPU)": `${f(a.p50)} (${f(a.cpu)})`,
      "de → fr → en: p50 ms (CPU)": `${f(b.p50)} (${f(b.cpu)})`,
      ratio: `×${(b.p50 / a.p50).toFixed(2)}`,
    });
  }
} finally {
  await host.dispose();
}
console.log(
  `\nList misses in a locale, ${ITEMS.toLocaleString("en")} items, ${SAMPLES} per row, plain workerd (load ${loadavg()[0].toFixed(1)}); translations written at ${perSecond.toFixed(0)}/s:\n`,
);
console.table(rows);
