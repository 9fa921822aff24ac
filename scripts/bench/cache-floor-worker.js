// Bench-only Worker: the least any Worker can do under the content API's caching
// contract. It looks the URL up in the Cache API and, on a miss, answers ~1 KB of
// JSON and stores it, as the contract requires. No SQLite and no code of ours: its
// uncached throughput is the ceiling the local Cache API sets for ours. With `?noput`
// it answers without storing: the difference is what the local Cache API's write costs. With
// `?bytes=N` the answer is N bytes of JSON (default ~1 KB), so a write can be measured at the size
// of the answers it stands for (a list page is ~13 KB): the body is exactly N bytes (at least its ~55-byte envelope).
// With `?hop` the body comes from a Durable Object (one per Worker, by a fixed name) that answers
// those bytes at once, as the front Worker asks the site object on a miss: the difference is what the
// runtime's hop to a Durable Object costs (the stub, the request, the object's turn, the answer read
// back), with none of our work on either side.
import { DurableObject } from "cloudflare:workers";

const envelope = (title) => JSON.stringify({ item: { id: "floor", slug: "floor", data: { title } } });
const bodyOf = (bytes) => envelope("t".repeat(Math.max(0, bytes - envelope("").length)));
const sized = new Map();
const sizedBody = (bytes) => {
  let body = sized.get(bytes);
  if (body === undefined) sized.set(bytes, (body = bodyOf(bytes)));
  return body;
};

export class FloorObject extends DurableObject {
  fetch(request) {
    const bytes = Number(new URL(request.url).searchParams.get("bytes") ?? 960);
    return new Response(sizedBody(bytes), { headers: { "content-type": "application/json" } });
  }
}

export default {
  async fetch(request, env, ctx) {
    const hit = await caches.default.match(request.url);
    if (hit) return hit;
    const params = new URL(request.url).searchParams;
    const bytes = Number(params.get("bytes") ?? 960);
    const body = params.has("hop")
      ? await (await env.FLOOR.get(env.FLOOR.idFromName("floor")).fetch(new Request(request.url))).arrayBuffer()
      : sizedBody(bytes);
    const response = new Response(body, {
      headers: { "content-type": "application/json", "cache-control": "public, s-maxage=31536000" },
    });
    if (!params.has("noput")) ctx.waitUntil(caches.default.put(request.url, response.clone()));
    return response;
  },
};
