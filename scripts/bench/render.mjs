// `npm run bench` (part 2): server-side rendering. A list page of 24 items and an
// item page rendered into a ~100 KB captured template, on workerd (Miniflare API,
// direct socket, no wrangler dev proxy); compared with the same job done in Node
// with cheerio (load, inject, serialise).
import autocannon from "autocannon";
import * as cheerio from "cheerio";
import { build } from "esbuild";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { get } from "node:http";
import { api, must, percentile, seedItems, ssrBenchSite } from "../lib.mjs";
import { workerdCpuMs } from "../workerd-host.mjs";

// BENCH_ONLY runs one part of `npm run bench` (api.mjs lists them): not this one.
if (process.env.BENCH_ONLY) process.exit(0);

const PAGES = Number(process.env.BENCH_RENDER_PAGES ?? 100);
const PER_PAGE = 24;

const CARD = `<article class="card">
  <a class="card-link" data-oc-link><h2 class="card-title" data-oc-field="title">Sample title</h2></a>
  <img class="cover" data-oc-field="cover" src="/placeholder.jpg" alt="" sizes="(min-width: 800px) 33vw, 100vw" loading="lazy">
  <p class="summary" data-oc-field="summary" data-oc-if="summary">Sample summary</p>
  <div class="body" data-oc-field="body"><p>Sample body</p></div>
  <time data-oc-field="date" data-oc-attr-datetime="date" data-oc-format="D MMM YYYY">1 Jan 2024</time>
  <span class="category" data-oc-field="category">News</span>
</article>`;

/** A realistic site-builder page of about 100 KB: inline CSS, navigation, long static sections, the list widget. */
function template(service, token) {
  const css = Array.from(
    { length: 300 },
    (_, i) => `.c${i}{margin:${i % 7}px;padding:${i % 5}px;color:#${(i * 2654435761).toString(16).slice(-6)}}`,
  ).join("\n");
  const nav = Array.from(
    { length: 40 },
    (_, i) => `<li class="nav-item"><a class="nav-link" href="/section-${i}/">Section ${i}</a></li>`,
  ).join("");
  const sections = Array.from(
    { length: 140 },
    (_, i) =>
      `<section class="block c${i}"><h3 class="block-title">Block ${i}</h3><p class="text">Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p><div class="grid"><div class="col"><img src="/img/${i}.jpg" alt="Image ${i}" width="400" height="300"></div><div class="col"><p>Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur.</p></div></div></section>`,
  ).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Blog</title><meta name="description" content="Stories from Acme">
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${css}</style></head><body>
<header class="site-header"><nav><ul class="nav">${nav}</ul></nav></header>
<main><h1>Blog</h1>
<div class="posts" data-oc-list="posts" data-oc-sort="-date" data-oc-limit="${PER_PAGE}">${CARD}<p class="empty" data-oc-empty hidden>No posts yet.</p></div>
${sections}
</main><footer class="site-footer"><p>© Acme</p></footer>
<script src="${service}/embed.js" data-oc-token="${token}" defer></script></body></html>`;
}

/** GET with time to first byte and total time, in ms. */
function timedGet(url, headers) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    get(url, { headers }, (res) => {
      let ttfb = null;
      let bytes = 0;
      res.on("data", (c) => {
        if (ttfb === null) ttfb = performance.now() - t0;
        bytes += c.length;
      });
      res.on("end", () => resolve({ status: res.statusCode, ttfb, total: performance.now() - t0, bytes, cache: res.headers["x-cache"] }));
    }).on("error", reject);
  });
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99) };
};

const { base, site, key, pages, close } = await ssrBenchSite("Render bench", [
  { key: "title", type: "text", indexed: true, required: true },
  { key: "summary", type: "text" },
  { key: "body", type: "richText" },
  { key: "category", type: "text", indexed: true },
  { key: "date", type: "date", indexed: true },
  { key: "cover", type: "image" },
]);
const pageUrl = pages.url;

try {
  const total = PAGES * PER_PAGE;
  const itemsData = [];
  await seedItems(base, site.id, key, "posts", total, (i) => {
    const data = {
      title: `Post ${i}: notes on "edge" rendering & <templates>`,
      summary: `Summary of post ${i}, a sentence or two long, as blogs usually have.`,
      body: `<p>Body of post ${i} with <strong>rich</strong> text and <a href="https://example.com/${i}">a link</a>.</p>`.repeat(3),
      category: ["news", "guides", "reviews"][i % 3],
      date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
      cover: { url: `https://img.example.com/${i}.jpg`, alt: `Cover ${i}`, width: 1600, height: 900 },
    };
    itemsData.push({ slug: `post-${i}`, ...data });
    return { slug: `post-${i}`, publish: true, data };
  });
  const pageHtml = template(base, site.token);
  pages.set(pageHtml);
  await must(api(base, "PUT", `/sites/${site.id}/ssr/capture`, key, { pageUrl, collection: "posts" }), "capture");
  const headers = { "x-service-token": site.token };

  // Every request below is a cache miss: each list page and item page is asked for once.
  const measure = async (paths) => {
    const ttfb = [];
    const totalMs = [];
    let bytes = 0;
    const cpu0 = workerdCpuMs();
    for (const path of paths) {
      const r = await timedGet(`${base}${path}`, headers);
      if (r.status !== 200 || r.cache !== "MISS") throw new Error(`${path}: ${r.status} ${r.cache}`);
      ttfb.push(r.ttfb);
      totalMs.push(r.total);
      bytes = r.bytes;
    }
    return { ttfb: stats(ttfb), total: stats(totalMs), cpu: (workerdCpuMs() - cpu0) / paths.length, bytes };
  };
  const list = await measure(Array.from({ length: PAGES }, (_, i) => `/blog/${i ? `?page=${i + 1}` : ""}`));
  const item = await measure(Array.from({ length: PAGES }, (_, i) => `/blog/post-${i * 7}`));
  // The render alone, inside workerd: the same compiled template and items, no HTTP, SQLite or cache.
  const listBody = await (await fetch(`${base}/v1/${site.token}/collections/posts/items?limit=${PER_PAGE}&sort=-date`)).json();
  const { schema } = await (await fetch(`${base}/v1/${site.token}/collections/posts/schema`)).json();
  const bundle = await build({
    entryPoints: ["scripts/bench/render-worker.ts"],
    bundle: true,
    format: "esm",
    write: false,
    platform: "neutral",
    target: "es2022",
  });
  const renderMf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: bundle.outputFiles[0].text,
      compatibilityDate: "2026-11-01",
      compatibilityFlags: ["nodejs_compat"],
    }),
  );
  const pure = await (
    await renderMf.dispatchFetch("http://bench/", {
      method: "POST",
      body: JSON.stringify({ html: pageHtml, items: listBody.items, schema, base: "/blog/", batches: 60, batch: 25 }),
    })
  ).json();
  await renderMf.dispose();
  const pureList = stats(pure.list.perRender);
  const pureItem = stats(pure.item.perRender);
  const pureProduct = stats(pure.product.perRender);

  const cached = await autocannon({ url: `${base}/blog/`, headers, connections: 32, duration: 5 });

  // The reference: the same list page built in Node with cheerio (parse, inject 24 items, serialise).
  const page24 = itemsData.slice(0, PER_PAGE);
  const srcset = (u) =>
    [320, 640, 960, 1280, 1920]
      .map((w) => `${u.replace("https://img.example.com/", `https://img.example.com/cdn-cgi/image/width=${w},format=auto/`)} ${w}w`)
      .join(", ");
  const cheerioRender = () => {
    const $ = cheerio.load(pageHtml);
    const widget = $("[data-oc-list]").first();
    const tpl = widget.children().first();
    const out = [];
    for (const it of page24) {
      const card = tpl.clone();
      card.find("[data-oc-link]").attr("href", `/blog/${it.slug}`);
      card.find('[data-oc-field="title"]').text(it.title);
      card.find("img").attr({ src: it.cover.url, srcset: srcset(it.cover.url), alt: it.cover.alt });
      card.find('[data-oc-field="summary"]').text(it.summary);
      card.find('[data-oc-field="body"]').html(it.body);
      card.find("time").text(it.date.slice(0, 10)).attr("datetime", it.date);
      card.find('[data-oc-field="category"]').text(it.category);
      out.push($.html(card));
    }
    widget.html(out.join("")).attr("data-oc-rendered", "1");
    return $.html();
  };
  for (let i = 0; i < 20; i++) cheerioRender();
  const cheerioTimes = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    cheerioRender();
    cheerioTimes.push(performance.now() - t);
  }
  const ch = stats(cheerioTimes);

  const f = (n) => n.toFixed(2);
  console.log(`\nServer-side rendering on workerd (Miniflare API, direct socket, no wrangler dev proxy)`);
  console.log(
    `Template ${(pageHtml.length / 1024).toFixed(0)} KB; ${total} published items; ${PAGES} distinct uncached pages per row, one request at a time.`,
  );
  console.log(`CPU = workerd process user+sys time / renders, whole request (HTTP, front Worker, Durable Object, SQLite, render).`);
  console.log(`Wall time of a single uncached render on an idle machine bounds its CPU time from above.\n`);
  console.table([
    {
      page: "list, 24 items",
      "CPU ms/render (mean)": f(list.cpu),
      "wall p50 ms": f(list.total.p50),
      "wall p99 ms": f(list.total.p99),
      "TTFB p50 ms": f(list.ttfb.p50),
      "TTFB p99 ms": f(list.ttfb.p99),
      "KB out": (list.bytes / 1024).toFixed(0),
    },
    {
      page: "item",
      "CPU ms/render (mean)": f(item.cpu),
      "wall p50 ms": f(item.total.p50),
      "wall p99 ms": f(item.total.p99),
      "TTFB p50 ms": f(item.ttfb.p50),
      "TTFB p99 ms": f(item.ttfb.p99),
      "KB out": (item.bytes / 1024).toFixed(0),
    },
  ]);
  console.log(`\nThe render alone inside workerd (compiled template + HTMLRewriter stream to the last byte), per render,`);
  console.log(`median and p99 over 60 batches of 25 renders (workerd's clock is coarse, so each sample is a batch mean):\n`);
  console.table([
    {
      renderer: "workerd: list page, 24 items",
      "p50 ms": f(pureList.p50),
      "p99 ms": f(pureList.p99),
      "KB out": (pure.list.bytes / 1024).toFixed(0),
    },
    {
      renderer: "workerd: item page, Article JSON-LD",
      "p50 ms": f(pureItem.p50),
      "p99 ms": f(pureItem.p99),
      "KB out": (pure.item.bytes / 1024).toFixed(0),
    },
    {
      renderer: "workerd: item page, Product JSON-LD",
      "p50 ms": f(pureProduct.p50),
      "p99 ms": f(pureProduct.p99),
      "KB out": (pure.product.bytes / 1024).toFixed(0),
    },
    { renderer: "cheerio in Node: list page (load, inject 24, serialise)", "p50 ms": f(ch.p50), "p99 ms": f(ch.p99), "KB out": "" },
  ]);
  console.log(`item page with Product JSON-LD / with Article, p50 = ${(pureProduct.p50 / pureItem.p50).toFixed(2)}x (goal <= 1.1x)`);
  console.log(`cheerio p50 / workerd render p50 (list) = ${(ch.p50 / pureList.p50).toFixed(1)}x (goal >= 10x; render goal <= 1 ms median)`);
  console.log(
    `cached list page: ${Math.round(cached.requests.average)} req/s, p50 ${cached.latency.p50} ms, p99 ${cached.latency.p99} ms (32 connections, 5 s)`,
  );
} finally {
  await close();
}
