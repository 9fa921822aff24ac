import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, OPERATOR, type TestSite, call, callJson, expectStatus, newBlog, newSite } from "../helpers";
import { capture, pathOf, putPage } from "../ssr-helpers";
import { listPage } from "../fixtures/blog-pages";
import { signUp } from "../helpers/accounts";
import { pageClient } from "../../src/limits/proxy-key";
import { clientKey } from "../../src/limits/client";

// Each test sends thousands of requests: minutes are allowed on a busy machine (they take seconds alone).
// A site's own traffic, with the site limits' documented defaults (src/contract/limits.ts
// SITE_LIMITS) and the real site object counting: what a crawler, a build server, an owner's
// script and the dashboard send is never refused; a flooding client is.

let n = 0;
/** A client address of its own per test. */
const uniqueV4 = () => `198.18.${(Date.now() >> 8) & 255}.${++n & 255}`;

/** Seeds `count` published posts through `items:batch`, 1,000 at a time. */
async function seedPosts(site: TestSite, count: number, prefix = "post"): Promise<void> {
  for (let from = 0; from < count; from += 1000) {
    const items = Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({
      slug: `${prefix}-${from + i}`,
      data: { title: `Post ${from + i}`, views: from + i },
      publish: true,
    }));
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items:batch`, { auth: site.adminKey, body: { items } }), 201);
  }
}

/** Runs `tasks` `width` at a time; returns every status. */
async function statusesOf(tasks: (() => Promise<Response>)[], width: number): Promise<number[]> {
  const out: number[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        const res = await tasks[i]!();
        out[i] = res.status;
        await res.body?.cancel();
      }
    }),
  );
  return out;
}

const counts = (statuses: number[]) => Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length]));

/** An SEO Engine blog of `items` posts with its list page captured; `base`: the path its pages answer under. */
async function seoSite(items: number): Promise<{ site: TestSite; base: string }> {
  const site = await newBlog("seo_engine");
  await seedPosts(site, items);
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
  await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
  return { site, base: pathOf(pageUrl) };
}

describe("a site's own traffic is never refused", () => {
  it(
    "a crawler reads the list and 2,000 item pages through the signed proxy right after a publish: all 200",
    { timeout: 120_000 },
    async () => {
      const { site, base } = await seoSite(2000);
      const { body } = await callJson<{ proxyKey: string }>("GET", `/sites/${site.id}/ssr/proxy-key`, { auth: site.adminKey });
      const proxyKey = body.proxyKey;
      expect(proxyKey).toMatch(/^px_[A-Za-z0-9_-]{43}$/);
      // A publish: every page of the site misses the edge cache again.
      await expectStatus(
        callJson("POST", `/sites/${site.id}/collections/posts/items`, {
          auth: site.adminKey,
          body: { slug: "new", data: { title: "New" }, publish: true },
        }),
        201,
      );
      const crawler = {
        "x-service-token": site.token,
        "x-proxy-key": proxyKey,
        "x-visitor-ip": "66.249.66.1",
        "cf-connecting-ip": "2a06:98c0:3600::103",
      };
      const paths = [base, ...Array.from({ length: 2000 }, (_, i) => `${base}post-${i}`)];
      const statuses = await statusesOf(
        paths.map((p) => () => call("GET", p, { headers: crawler })),
        4,
      );
      expect(counts(statuses)).toEqual({ 200: 2001 });
    },
  );

  it("a proxy deployed before the proxy key (no key): 600 item pages, all 200", { timeout: 120_000 }, async () => {
    const { site, base } = await seoSite(600);
    const proxy = { "x-service-token": site.token, "cf-connecting-ip": "2a06:98c0:3600::103" };
    const statuses = await statusesOf(
      [base, ...Array.from({ length: 600 }, (_, i) => `${base}post-${i}`)].map((p) => () => call("GET", p, { headers: proxy })),
      4,
    );
    expect(counts(statuses)).toEqual({ 200: 601 });
  });

  it("a build server reads every list page and every item's related items, 8 at a time: no 429", { timeout: 120_000 }, async () => {
    const site = await newBlog("pro");
    await seedPosts(site, 600);
    const build = { "cf-connecting-ip": uniqueV4() };
    const base = `/v1/${site.token}/collections/posts/items`;
    const paths = [
      ...Array.from({ length: 6 }, (_, i) => `${base}?limit=100&page=${i + 1}`),
      ...Array.from({ length: 600 }, (_, i) => `${base}/post-${i}/related`),
    ];
    const statuses = await statusesOf(
      paths.map((p) => () => call("GET", p, { headers: build })),
      8,
    );
    expect(counts(statuses)).toEqual({ 200: 606 });
    // Related items call no model: they count as reads, not as searches.
    const related = await call("GET", `${base}/post-1/related?limit=3`, { headers: build });
    expect(related.headers.get("ratelimit-policy")).toBe('"reads";q=24000;w=60');
    await related.body?.cancel();
  });

  it("an owner's script adds 1,000 items one POST at a time with the admin key: 1,000 × 201", { timeout: 120_000 }, async () => {
    const site = await newBlog("starter");
    const statuses: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const res = await call("POST", `/sites/${site.id}/collections/posts/items`, {
        auth: site.adminKey,
        body: { slug: `s-${i}`, data: { title: `S ${i}` } },
      });
      statuses.push(res.status);
      if (i === 0) expect(res.headers.get("ratelimit-policy")).toBe('"writes";q=6000;w=60, "site-writes";q=12000;w=60');
      await res.body?.cancel();
    }
    expect(counts(statuses)).toEqual({ 201: 1000 });
  });

  it("the dashboard's Publish selected on 500 drafts of a Free site, signed in: 500 × 200", { timeout: 120_000 }, async () => {
    const person = await signUp();
    const session = { cookie: person.cookie, origin: ORIGIN };
    const ws = await expectStatus(
      callJson<{ workspace: { id: string } }>("POST", "/workspaces", { body: { name: "Shop" }, headers: session }),
      201,
    );
    const made = await expectStatus(
      callJson<{ site: TestSite }>("POST", "/sites", { body: { name: "Shop", workspaceId: ws.workspace.id }, headers: session }),
      201,
    );
    const siteId = made.site.id;
    await expectStatus(
      callJson("PUT", `/sites/${siteId}/collections/products`, {
        body: { name: "Products", fields: [{ key: "title", type: "text", indexed: true, required: true }] },
        headers: session,
      }),
      201,
    );
    const items = Array.from({ length: 500 }, (_, i) => ({ slug: `p-${i}`, data: { title: `Product ${i}` } }));
    const created = await expectStatus(
      callJson<{ items: { id: string }[] }>("POST", `/sites/${siteId}/collections/products/items:batch`, {
        body: { items },
        headers: session,
      }),
      201,
    );
    const statuses: number[] = [];
    for (const item of created.items) {
      const res = await call("POST", `/sites/${siteId}/collections/products/items/${item.id}/publish`, { headers: session });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(counts(statuses)).toEqual({ 200: 500 });
  });

  it("the operator's own calls are not counted: 300 in a row", { timeout: 120_000 }, async () => {
    const site = await newSite("starter");
    const statuses = await statusesOf(
      Array.from({ length: 300 }, () => () => call("GET", `/sites/${site.id}`, { auth: OPERATOR })),
      4,
    );
    expect(counts(statuses)).toEqual({ 200: 300 });
  });
});

describe("abuse is still held", () => {
  it(
    "a client flooding made-up URLs is held to its share while the site's readers go on; then it is refused from memory",
    { timeout: 120_000 },
    async () => {
      const site = await newBlog("starter");
      await seedPosts(site, 20);
      const base = `/v1/${site.token}/collections/posts/items`;
      const readers = ["203.0.113.10", "203.0.113.11", "203.0.113.12"];
      // The site's readers use more than 1 % of its 12,000 misses: from now on one client gets at most half.
      const before = await statusesOf(
        Array.from(
          { length: 150 },
          (_, i) => () => call("GET", `${base}?page=${i + 1}`, { headers: { "cf-connecting-ip": readers[i % 3]! } }),
        ),
        4,
      );
      expect(counts(before)).toEqual({ 200: 150 });
      const flood = { "cf-connecting-ip": uniqueV4() };
      let taken = 0;
      let refused: Response | null = null;
      for (let round = 0; round < 100 && !refused; round++) {
        const batch = await Promise.all(
          Array.from({ length: 100 }, (_, i) => call("GET", `${base}/nope-${round}-${i}`, { headers: flood })),
        );
        for (const res of batch) {
          if (res.status === 429 && !refused) refused = res;
          else {
            if (res.status !== 429) taken++;
            await res.body?.cancel();
          }
        }
      }
      expect(refused).not.toBeNull();
      // Half of the site's 12,000, give or take the slide of the window across a minute's edge.
      expect(taken).toBeGreaterThanOrEqual(5900);
      expect(taken).toBeLessThanOrEqual(7200);
      expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused!.headers.get("ratelimit-policy")).toBe('"reads";q=12000;w=60');
      const error = ((await refused!.json()) as { error: { code: string; message: string; details: { per: string } } }).error;
      expect(error.code).toBe("rate_limited");
      expect(error.details.per).toBe("client");
      expect(error.message).toMatch(/share/);
      // The readers are still served.
      const during = await statusesOf(
        Array.from(
          { length: 60 },
          (_, i) => () => call("GET", `${base}?page=${i + 200}`, { headers: { "cf-connecting-ip": readers[i % 3]! } }),
        ),
        4,
      );
      expect(counts(during)).toEqual({ 200: 60 });
      // The flood's next requests are refused by the front Worker: the site object sees none of them.
      const object = env.SITE.get(env.SITE.idFromName(site.id));
      const reads = (await object.stats()).publicReads;
      const again = await statusesOf(
        Array.from({ length: 200 }, (_, i) => () => call("GET", `${base}/again-${i}`, { headers: flood })),
        4,
      );
      expect(counts(again)).toEqual({ 429: 200 });
      expect((await object.stats()).publicReads).toBe(reads);
    },
  );

  it(
    "random search terms: the model is called for at most the client's share of the site's new queries",
    { timeout: 120_000 },
    async () => {
      const site = await newBlog("pro");
      const readers = ["203.0.113.20", "203.0.113.21"];
      const ask = (q: string, ip: string) =>
        call("GET", `/v1/${site.token}/search?q=${encodeURIComponent(q)}`, { headers: { "cf-connecting-ip": ip } });
      // Other visitors search too (more than 1 % of the site's 600 new queries a minute).
      expect(
        counts(
          await statusesOf(
            Array.from({ length: 10 }, (_, i) => () => ask(`bread recipe ${i}`, readers[i % 2]!)),
            2,
          ),
        ),
      ).toEqual({ 200: 10 });
      const object = env.SITE.get(env.SITE.idFromName(site.id));
      const calls = (await object.stats()).queryEmbeddings;
      const flood = uniqueV4();
      let first429: Response | null = null;
      let taken = 0;
      for (let i = 0; i < 700 && !first429; i++) {
        const res = await ask(`random words number ${i}`, flood);
        if (res.status === 429) first429 = res;
        else {
          taken++;
          await res.body?.cancel();
        }
      }
      expect(first429).not.toBeNull();
      expect(taken).toBeLessThanOrEqual(330);
      expect(first429!.headers.get("ratelimit-policy")).toBe('"search";q=600;w=60');
      await first429!.body?.cancel();
      // The model ran once per new query the flood was allowed, never for a refused one.
      expect((await object.stats()).queryEmbeddings - calls).toBeLessThanOrEqual(taken + 1);
      // Another visitor's new query is still answered.
      const other = await ask("sourdough starter", readers[0]!);
      expect(other.status).toBe(200);
      await other.body?.cancel();
    },
  );

  it("a visitor's address is believed only beside the site's proxy key", { timeout: 120_000 }, async () => {
    const site = await newSite("seo_engine");
    const page = (headers: Record<string, string>) =>
      new Request(`${ORIGIN}/blog/`, { headers: { "x-service-token": site.token, ...headers } });
    const { proxyKey } = await import("../../src/limits/proxy-key");
    const key = (await proxyKey(env, site.id))!;
    expect(
      await pageClient(page({ "x-proxy-key": key, "x-visitor-ip": "192.0.2.44", "cf-connecting-ip": "2a06:98c0:3600::103" }), env, site.id),
    ).toBe("visitor:192.0.2.44");
    // A stranger with the public token names any address it likes: it counts as its own connection.
    const forged = page({ "x-proxy-key": `${key.slice(0, -2)}xx`, "x-visitor-ip": "192.0.2.45", "cf-connecting-ip": "198.51.100.9" });
    expect(await pageClient(forged, env, site.id)).toBe(clientKey(forged, env));
    expect(await pageClient(page({ "x-visitor-ip": "192.0.2.46", "cf-connecting-ip": "198.51.100.9" }), env, site.id)).toBe("198.51.100.9");
    // Another site's key is not this site's.
    const other = await newSite("seo_engine");
    expect(
      await pageClient(page({ "x-proxy-key": (await proxyKey(env, other.id))!, "x-visitor-ip": "192.0.2.47" }), env, site.id),
    ).not.toMatch(/^visitor:/);
  });
});
