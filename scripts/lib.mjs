// Helpers shared by the scripts: reading .dev.vars, waiting for a server, JSON calls.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

export function readDevVars(path = ".dev.vars") {
  if (!existsSync(path)) return {};
  const out = {};
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"?([^"\n]*)"?\s*$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/** ADMIN_TOKEN from the environment, else .dev.vars, else a new one stored in .dev.vars. */
export function adminToken(path = ".dev.vars") {
  if (process.env.ADMIN_TOKEN) return { token: process.env.ADMIN_TOKEN, source: "environment" };
  const vars = readDevVars(path);
  if (vars.ADMIN_TOKEN) return { token: vars.ADMIN_TOKEN, source: path };
  const token = `op_${randomBytes(24).toString("hex")}`;
  const prior = existsSync(path) ? readFileSync(path, "utf8") : "";
  writeFileSync(path, `${prior}${prior && !prior.endsWith("\n") ? "\n" : ""}ADMIN_TOKEN="${token}"\n`, { mode: 0o600 });
  return { token, source: `generated, stored in ${path}` };
}

/** SITE_ID_SECRET from the environment, else .dev.vars, else a new one stored in .dev.vars. */
export function siteIdSecret(path = ".dev.vars") {
  return devSecret("SITE_ID_SECRET", path);
}

/** The key signing account links and passkey challenges (AUTH_SECRET): env, else .dev.vars, else generated there. */
export function authSecret(path = ".dev.vars") {
  return devSecret("AUTH_SECRET", path);
}

function devSecret(name, path) {
  if (process.env[name]) return process.env[name];
  const vars = readDevVars(path);
  if (vars[name]) return vars[name];
  const secret = randomBytes(24).toString("hex");
  const prior = existsSync(path) ? readFileSync(path, "utf8") : "";
  writeFileSync(path, `${prior}${prior && !prior.endsWith("\n") ? "\n" : ""}${name}="${secret}"\n`, { mode: 0o600 });
  return secret;
}

export async function waitFor(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function api(base, method, path, auth, body) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { raw: text };
  }
  return { status: r.status, body: json };
}

export async function must(promise, what) {
  const r = await promise;
  if (r.status >= 300) throw new Error(`${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The benchmarks' `posts` collection: blog posts with indexed text, a category, a date and a cover image. */
export const BENCH_POST_FIELDS = [
  { key: "title", type: "text", indexed: true, required: true },
  { key: "summary", type: "text", indexed: true },
  { key: "body", type: "richText" },
  { key: "category", type: "text", indexed: true },
  { key: "date", type: "date", indexed: true },
  { key: "cover", type: "image" },
];

/** A one-page "customer site" for the benchmarks: serves whatever `set(html)` last gave, at /blog/. */
export async function benchPageServer() {
  const { createServer } = await import("node:http");
  let html = "";
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/blog/`, set: (h) => (html = h), close: () => server.close() };
}

/**
 * The benchmarks' server-rendering set-up: the built Worker on workerd (captures of
 * 127.0.0.1 allowed), a one-page customer site, and an SEO Engine site with a `posts`
 * collection of `fields`.
 */
export async function ssrBenchSite(name, fields) {
  const { buildWorker, startWorkerd } = await import("./workerd-host.mjs");
  const operator = "bench-operator";
  const host = await startWorkerd({
    // BENCH_SCRIPT: a Worker built before (another commit's, e.g. .bench/compare/<sha>/build/index.js) instead of the working tree.
    scriptPath: process.env.BENCH_SCRIPT || buildWorker(".bench/build"),
    adminToken: operator,
    vars: { SSR_ALLOW_PRIVATE_FETCH: "true" },
    embedderProcesses: 1,
    // Benchmarks measure the API and rendering path: locally, Miniflare's Static Assets router is a
    // JavaScript Worker in front of ours on the same thread (about 0.2 ms a request); in production
    // that routing is Cloudflare's, not our Worker's CPU (docs/caching.md).
    dashboard: false,
  });
  const pages = await benchPageServer();
  try {
    const { site } = await must(api(host.base, "POST", "/sites", operator, { name, plan: "seo_engine" }), "site");
    await must(api(host.base, "PUT", `/sites/${site.id}/collections/posts`, site.adminKey, { fields }), "collection");
    return { base: host.base, mf: host.mf, site, key: site.adminKey, pages, close: async () => (pages.close(), await host.dispose()) };
  } catch (err) {
    pages.close();
    await host.dispose();
    throw err;
  }
}

/**
 * Publishes `count` items made by `make(i)` into a collection, through items:batch, `per` at a time
 * (at most 1,000, and few enough that a body stays under the API's 1 MB limit).
 */
export async function seedItems(base, siteId, key, collection, count, make, per = 1000) {
  for (let start = 0; start < count; start += per) {
    const items = Array.from({ length: Math.min(per, count - start) }, (_, j) => make(start + j));
    await must(api(base, "POST", `/sites/${siteId}/collections/${collection}/items:batch`, key, { items }), "batch");
  }
}

/**
 * A new site (made by `operator`) with a `posts` collection of `fields`, seeded with `count` items
 * `item(i, prepared)` through items:batch, 300 a call (2–3 KB items stay under the 1 MB body).
 * `prepare(site)` runs between the collection and the seed (media the items show). Returns the
 * site and the seed's rate.
 */
export async function seededPostsSite(base, operator, { name, plan, fields, count, item, prepare }) {
  const { site } = await must(api(base, "POST", "/sites", operator, { name, plan }), "site");
  await must(api(base, "PUT", `/sites/${site.id}/collections/posts`, site.adminKey, { name: "Posts", fields }), "collection");
  const prepared = prepare ? await prepare(site) : undefined;
  const t0 = performance.now();
  await seedItems(base, site.id, site.adminKey, "posts", count, (i) => item(i, prepared), 300);
  return { site, seedPerSecond: count / ((performance.now() - t0) / 1000) };
}

/** The p-th percentile of ascending `sorted` (nearest rank). */
/**
 * The secret of the newest mailed link of `kind` (`verify`, `invite`, `reset`) to `email`, read
 * from the local mail catcher's inbox (maildev's REST API), as a person follows the mail.
 */
export async function mailedToken(inbox, email, kind) {
  for (let i = 0; i < 100; i++) {
    const all = await (await fetch(`${inbox}/api/email`)).json();
    const hit = all.reverse().find((m) => m.to.some((t) => t.address === email) && m.text.includes(`#/${kind}/`));
    if (hit) return decodeURIComponent(new RegExp(`#/${kind}/(\\S+)`).exec(hit.text)[1]);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${kind} mail to ${email}`);
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** The benchmarks' categories of posts (item i is in CATEGORIES[i % 8]). */
export const CATEGORIES = ["news", "guides", "reviews", "recipes", "travel", "tech", "sport", "music"];

/**
 * Distinct URLs that each do the work of one kind of read over `items` posts, for measuring
 * misses: the edge cache key holds only the parameters an endpoint understands (docs/caching.md),
 * so a never-seen junk parameter no longer makes a miss. Lists and filtered lists vary page,
 * limit (20-28, about the 24 of the cached case) and sort; items vary the slug.
 */
export function missPaths(token, kind, items) {
  const base = `/v1/${token}/collections/posts/items`;
  const out = [];
  const sorts = ["-date", "date", "-title", "title"];
  if (kind === "item") for (let i = 0; i < items; i++) out.push(`${base}/post-${i}`);
  for (let limit = 20; limit <= 28; limit++)
    for (const sort of sorts) {
      if (kind === "list")
        for (let page = 1; page <= Math.floor(items / limit); page++) out.push(`${base}?page=${page}&limit=${limit}&sort=${sort}`);
      if (kind === "filtered")
        for (const c of CATEGORIES)
          for (let page = 1; page <= Math.floor(items / CATEGORIES.length / limit); page++)
            out.push(`${base}?page=${page}&limit=${limit}&sort=${sort}&filter[category]=${c}&search=summary`);
    }
  // Interleaved, so that a run cut short still mixes every limit and sort.
  return out
    .map((p, i) => [(i * 7919) % out.length, p])
    .sort((a, b) => a[0] - b[0])
    .map(([, p]) => p);
}
