// Semantic search on 10,000 published items with the local default (USE lite in the
// embedder Worker, exact cosine scan over the site's SQLite vectors), on workerd via
// Miniflare's direct socket. Called by `npm run bench` with a running host.
// Measures: bulk indexing throughput (publish 10,000 items through items:batch, then
// the site's alarm embeds them in batches), and the latency of one request at a time
// for /search (query embedding + scan) and /related (stored vector + scan), uncached.
import { api, must, percentile, seedItems } from "../lib.mjs";
import { TOPICS } from "../../eval/items.mjs";
import { PARAPHRASES } from "../../eval/queries.mjs";

/** Waits until the site's alarm has embedded every published item; returns the index status. */
export async function waitForIndex(base, siteId, key, timeoutMs = 30 * 60_000) {
  const start = performance.now();
  for (;;) {
    const { search } = await must(api(base, "GET", `/sites/${siteId}/search`, key), "search status");
    if (search.pending === 0) return search;
    if (performance.now() - start > timeoutMs) throw new Error(`indexing stalled: ${JSON.stringify(search)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function benchSearch({ base, operator, items: count = 10_000, samples = 300, embedderProcesses }) {
  const { site } = await must(api(base, "POST", "/sites", operator, { name: "Search bench", plan: "pro" }), "site");
  const key = site.adminKey;
  await must(
    api(base, "PUT", `/sites/${site.id}/collections/articles`, key, {
      fields: [
        { key: "title", type: "text", indexed: true, required: true },
        { key: "summary", type: "text", indexed: true },
        { key: "body", type: "richText" },
      ],
    }),
    "collection",
  );
  // The 320 evaluation items, varied so that each of the 10,000 texts is distinct.
  const source = Object.values(TOPICS).flat();
  const angles = ["a beginner's guide", "common mistakes", "what experts say", "a quick checklist", "questions readers ask"];
  const article = (i) => {
    const [slug, title, summary] = source[i % source.length];
    const round = Math.floor(i / source.length);
    return {
      slug: `${slug}-${round}`,
      publish: true,
      data: {
        title: `${title}: ${angles[round % angles.length]} (${round + 1})`,
        summary,
        body: "<p>Read on for practical steps, examples and the mistakes to avoid.</p>",
      },
    };
  };

  const t0 = performance.now();
  await seedItems(base, site.id, key, "articles", count, article);
  const published = performance.now();
  const status = await waitForIndex(base, site.id, key);
  const indexed = performance.now();
  if (status.indexed !== count) throw new Error(`expected ${count} indexed, got ${JSON.stringify(status)}`);

  const serial = async (path) => {
    const times = [];
    for (let i = 0; i < samples; i++) {
      const t = performance.now();
      const res = await fetch(`${base}${path(i)}`);
      if (res.status !== 200) throw new Error(`${path(i)}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b);
  };
  const q = (i) => encodeURIComponent(PARAPHRASES[i % PARAPHRASES.length][0]);
  // A nonce in each URL: every request misses the edge cache and reaches the site object.
  const search = await serial((i) => `/v1/${site.token}/search?q=${q(i)}&limit=10&n=${i}`);
  const related = await serial(
    (i) => `/v1/${site.token}/collections/articles/items/${article((i * 37) % count).slug}/related?limit=5&n=${i}`,
  );
  const cached = await serial((i) => `/v1/${site.token}/search?q=${q(i % 10)}&limit=10`);

  console.log(`\nSemantic search on workerd (Miniflare API, direct socket): ${count} published items, local default`);
  console.log(
    `(use-lite in the embedder Worker: ${embedderProcesses} workerd process(es) of its own behind a service binding, EMBEDDER_PROCESSES; exact cosine scan over the site's SQLite vectors)\n`,
  );
  console.table([
    {
      "bulk indexing": `${count} items`,
      "publish (items:batch) s": ((published - t0) / 1000).toFixed(1),
      "embed + index s": ((indexed - published) / 1000).toFixed(1),
      "items/s (publish to all indexed)": Math.round(count / ((indexed - t0) / 1000)),
    },
  ]);
  const row = (name, t) => ({ request: name, "p50 ms": percentile(t, 50).toFixed(2), "p99 ms": percentile(t, 99).toFixed(2) });
  console.table([
    row(`search, uncached (query embedding + scan of ${count})`, search),
    row(`related, uncached (stored vector + scan of ${count})`, related),
    row("search, edge-cached", cached),
  ]);
  console.log(`one request at a time, ${samples} each`);
}
