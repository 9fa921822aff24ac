// Bench-only Worker for scripts/bench/hop.mjs: what the local runtime charges for the hop from a
// Worker to a Durable Object, with none of our code on either side. `/direct` answers N bytes of
// JSON itself; `/fetch` gets them from a Durable Object's `fetch` (a Request in, a Response read
// back whole); `/rpc` from a method of the same object (the text returned by RPC).
import { DurableObject } from "cloudflare:workers";

const bodies = new Map();
const bodyOf = (bytes) => {
  let body = bodies.get(bytes);
  if (body === undefined) bodies.set(bytes, (body = JSON.stringify({ item: { title: "t".repeat(Math.max(0, bytes - 22)) } })));
  return body;
};
const bytesOf = (url) => Number(new URL(url).searchParams.get("bytes") ?? 550);

export class HopObject extends DurableObject {
  fetch(request) {
    return new Response(bodyOf(bytesOf(request.url)), { headers: { "content-type": "application/json", etag: '"e"' } });
  }
  read(url) {
    return { body: bodyOf(bytesOf(url)), etag: '"e"' };
  }
}

const HEADERS = { "content-type": "application/json", "cache-control": "public, s-maxage=31536000" };

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path === "/direct") return new Response(bodyOf(bytesOf(request.url)), { headers: HEADERS });
    const stub = env.HOP.get(env.HOP.idFromName("hop"));
    if (path === "/fetch") {
      const answer = await stub.fetch(new Request(request.url, { headers: { "x-oc-depends-on": "1" }, redirect: "manual" }));
      return new Response(await answer.arrayBuffer(), { headers: { ...HEADERS, etag: answer.headers.get("etag") } });
    }
    if (path === "/rpc") {
      const answer = await stub.read(request.url);
      return new Response(answer.body, { headers: { ...HEADERS, etag: answer.etag } });
    }
    return new Response("not found", { status: 404 });
  },
};
