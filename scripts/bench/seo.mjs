// `npm run bench` (part 3): sitemap.xml, its parts, rss.xml and feed.json for 50,000 items, on
// workerd (Miniflare API, direct socket, no wrangler dev proxy): regeneration time
// inside the Durable Object, peak memory growth of the workerd process while it
// runs, how long a publish waits, and requests/s serving the stored documents.
import autocannon from "autocannon";
import { readFileSync, writeFileSync } from "node:fs";
import { api, must, seedItems, ssrBenchSite } from "../lib.mjs";
import { workerdPids } from "../workerd-host.mjs";

// BENCH_ONLY runs one part of `npm run bench` (api.mjs lists them): not this one.
if (process.env.BENCH_ONLY) process.exit(0);

const ITEMS = Number(process.env.BENCH_SEO_ITEMS ?? 50_000);
// Past 5,000 items the sitemap is an index and part N holds the items of the N-th 5,000 seqs: the
// post published after the seed (seq ITEMS + 1) is in the last part.
const URL_DOC = ITEMS + 1 > 5_000 ? `sitemap-${Math.ceil((ITEMS + 1) / 5_000)}.xml` : "sitemap.xml";

const status = (pid, key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
/** Resets the peak-RSS mark of every workerd process (Linux: 5 > clear_refs), so VmHWM then measures what follows. */
const resetPeaks = () =>
  workerdPids().forEach((pid) => {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
    } catch {
      /* not ours */
    }
  });
const rssMb = (key) => workerdPids().reduce((s, pid) => s + status(pid, key), 0) / 1024;

const { base, site, key, pages, close } = await ssrBenchSite("SEO bench", [
  { key: "title", type: "text", indexed: true, required: true },
  { key: "summary", type: "text" },
  { key: "body", type: "richText" },
  { key: "cover", type: "image" },
]);
const pageUrl = pages.url;

try {
  await seedItems(base, site.id, key, "posts", ITEMS, (i) => {
    return {
      slug: `post-${i}`,
      publish: true,
      data: {
        title: `Post ${i} & friends`,
        summary: `Summary of post ${i}.`,
        body: `<p>Body of post ${i}, <em>rich</em>.</p>`,
        ...(i % 2 ? { cover: { url: `https://img.example.com/${i}.jpg`, width: 1200, height: 630 } } : {}),
      },
    };
  });
  const pageHtml = `<!doctype html><html><head><title>Bench blog</title><meta name="description" content="All posts"></head><body>
    <div data-oc-list="posts"><article><a data-oc-link data-oc-field="title"></a></article></div>
    <script src="${base}/embed.js" data-oc-token="${site.token}" defer></script></body></html>`;
  pages.set(pageHtml);

  // 1. Capture: a small collection's documents are built before it returns, a large one's parts
  // are queued and built one per alarm run; the index is served with no-store until they are.
  const headers = { "x-service-token": site.token };
  resetPeaks();
  const rssBefore = rssMb("VmRSS");
  const c0 = performance.now();
  await must(api(base, "PUT", `/sites/${site.id}/ssr/capture`, key, { pageUrl, collection: "posts" }), "capture");
  const captureMs = performance.now() - c0;
  let builtMs = null;
  for (let i = 0; i < 400 && builtMs === null; i++) {
    const res = await fetch(`${base}/blog/sitemap.xml`, { headers });
    await res.arrayBuffer();
    if (res.headers.get("cache-control") !== "no-store") builtMs = performance.now() - c0;
    else await new Promise((r) => setTimeout(r, 25));
  }
  const peakGrowth = rssMb("VmHWM") - rssBefore;
  const afterCapture = (await must(api(base, "GET", `/sites/${site.id}/ssr/capture`, key), "get")).capture.documents.lastBuild;

  // 2. A publish: how long it waits, and how long until the sitemap shows it (its part, rebuilt by the alarm).
  const t0 = performance.now();
  await must(
    api(base, "POST", `/sites/${site.id}/collections/posts/items`, key, { slug: "fresh-post", publish: true, data: { title: "Fresh" } }),
    "publish",
  );
  const publishMs = performance.now() - t0;
  let visibleMs = null;
  for (let i = 0; i < 200 && visibleMs === null; i++) {
    const body = await (await fetch(`${base}/blog/${URL_DOC}`, { headers })).text();
    if (body.includes("fresh-post")) visibleMs = performance.now() - t0;
    else await new Promise((r) => setTimeout(r, 25));
  }
  const afterPublish = (await must(api(base, "GET", `/sites/${site.id}/ssr/capture`, key), "get")).capture.documents.lastBuild;

  // 3. Serving the stored documents (cached at the edge after the first request).
  const serve = [];
  for (const doc of [...new Set(["sitemap.xml", URL_DOC]), "rss.xml", "feed.json"]) {
    const res = await fetch(`${base}/blog/${doc}`, { headers });
    const size = (await res.arrayBuffer()).byteLength;
    const r = await autocannon({ url: `${base}/blog/${doc}`, headers, connections: 32, duration: 5 });
    serve.push({
      document: doc,
      KB: Math.round(size / 1024),
      "req/s": Math.round(r.requests.average),
      "p50 ms": r.latency.p50,
      "p99 ms": r.latency.p99,
      errors: r.errors + r.non2xx,
    });
  }

  console.log(
    `\nSEO documents on workerd (Miniflare API, direct socket, no wrangler dev proxy); ${ITEMS} published items, half with an image`,
  );
  console.log(
    `Rebuild time is measured inside the Durable Object (Date.now around the rebuild); memory is workerd's peak RSS growth (VmHWM after - VmRSS before).\n`,
  );
  console.table([
    {
      step: "capture, then the last part's run (index, rss, feed.json)",
      "rebuild ms": afterCapture.ms,
      URLs: afterCapture.urls,
      "MB built": (afterCapture.bytes / 1e6).toFixed(1),
      "peak RSS growth MB": peakGrowth.toFixed(0),
    },
    {
      step: "rebuild after one publish (its part and the index; alarm job)",
      "rebuild ms": afterPublish.ms,
      URLs: afterPublish.urls,
      "MB built": (afterPublish.bytes / 1e6).toFixed(1),
      "peak RSS growth MB": "",
    },
  ]);
  console.log(
    `publish request: ${publishMs.toFixed(1)} ms (the rebuild runs after it returns); new item visible in ${URL_DOC} after ${visibleMs === null ? "never (5 s)" : `${visibleMs.toFixed(0)} ms`}`,
  );
  console.log(
    `capture request: ${captureMs.toFixed(0)} ms; every part built (sitemap.xml cacheable) after ${builtMs === null ? "never (10 s)" : `${builtMs.toFixed(0)} ms`}`,
  );
  console.log(`goal: one run's rebuild at most 30 ms of CPU at any size; a publish never waits for it\n`);
  console.table(serve);
} finally {
  await close();
}
