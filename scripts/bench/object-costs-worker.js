// The Worker of scripts/bench/object-costs.mjs: each request runs one operation `k` times (the
// path names it) and answers a number, so the process's CPU per request less an empty request's,
// divided by `k`, is what one operation costs the runtime. Nothing of ours is imported.
import { createHash } from "node:crypto";

const item = JSON.stringify({ id: "x".repeat(12), data: { title: "T", body: "lorem ipsum ".repeat(45) } }).slice(0, 550);
const page = "lorem ipsum dolor sit amet, ".repeat(720);
const url = "http://localhost/v1/tok_abcdefghijkl/collections/posts/items/some-slug-here";
// A site object's answer as the front Worker receives it (made in a handler: no I/O objects at start-up).
let answer;
const originAnswer = () =>
  new Response("x", {
    headers: {
      "content-type": "application/json",
      etag: '"abc"',
      "cache-control": "public, max-age=60",
      "x-oc-cache-version": "12",
      "x-oc-cache-changes": "a,b",
      "x-oc-depends-on": "item1",
      vary: "accept-encoding",
    },
  });

const ops = {
  empty: () => 0,
  "sha256-550B": () => createHash("sha256").update(item, "utf8").digest("hex").length,
  "sha256-20KB": () => createHash("sha256").update(page, "utf8").digest("hex").length,
  Request: () => new Request(url, { headers: { "x-oc-a": "1", "x-oc-b": "2" }, redirect: "manual" }).method.length,
  "Headers copy, 3 deletes, 2 sets": () => {
    const h = new Headers(answer.headers);
    h.delete("x-oc-cache-version");
    h.delete("x-oc-cache-changes");
    h.delete("x-oc-depends-on");
    h.set("etag", '"x"');
    h.set("cache-control", "public");
    return 1;
  },
  URL: () => new URL(url).pathname.length,
  "Response, 550 B": () => new Response(item, { headers: { "content-type": "application/json", etag: '"x"' } }).status,
};

export default {
  async fetch(request) {
    answer ??= originAnswer();
    const u = new URL(request.url);
    const op = ops[decodeURIComponent(u.pathname.slice(1))];
    if (!op) return new Response("unknown operation", { status: 404 });
    const k = Number(u.searchParams.get("k") ?? 50);
    let n = 0;
    for (let i = 0; i < k; i++) n += op();
    return new Response(String(n));
  },
};
