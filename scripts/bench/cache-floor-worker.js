// Bench-only Worker: the least any Worker can do under the content API's caching
// contract. It looks the URL up in the Cache API and, on a miss, answers ~1 KB of
// JSON and stores it, as the contract requires. No Durable Object, no SQLite: its
// uncached throughput is the ceiling the local Cache API sets for ours. With `?noput`
// it answers without storing: the difference is what the local Cache API's write costs. With
// `?bytes=N` the answer is N bytes of JSON (default ~1 KB), so a write can be measured at the size
// of the answers it stands for (a list page is ~13 KB): the body is exactly N bytes (at least its ~55-byte envelope).
const envelope = (title) => JSON.stringify({ item: { id: "floor", slug: "floor", data: { title } } });
const bodyOf = (bytes) => envelope("t".repeat(Math.max(0, bytes - envelope("").length)));
const sized = new Map();

export default {
  async fetch(request, _env, ctx) {
    const hit = await caches.default.match(request.url);
    if (hit) return hit;
    const params = new URL(request.url).searchParams;
    const bytes = Number(params.get("bytes") ?? 960);
    let body = sized.get(bytes);
    if (body === undefined) sized.set(bytes, (body = bodyOf(bytes)));
    const response = new Response(body, {
      headers: { "content-type": "application/json", "cache-control": "public, s-maxage=31536000" },
    });
    if (!params.has("noput")) ctx.waitUntil(caches.default.put(request.url, response.clone()));
    return response;
  },
};
