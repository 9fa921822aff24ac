import { createExecutionContext, runDurableObjectAlarm, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cachedRead, inflightSize } from "../src/edge/cache";
import { addItem, call, type TestSite, newBlog } from "./helpers";
import { capturedBlog, pathOf, rendered } from "./ssr-helpers";

const stats = (site: TestSite) => env.SITE.get(env.SITE.idFromName(site.id)).stats();
const N = 24;

/** N requests at once; the answers' statuses, x-cache values and bodies. */
async function together(send: () => Promise<Response>) {
  const responses = await Promise.all(Array.from({ length: N }, send));
  return Promise.all(responses.map(async (r) => ({ status: r.status, cache: r.headers.get("x-cache"), body: await r.text() })));
}

describe("concurrent misses for one key share one read", () => {
  it.each([
    ["a list", "/collections/posts/items?limit=5"],
    ["a single item", "/collections/posts/items/a"],
  ])(`content API, %s: one site object read for ${N} concurrent misses`, async (_, path) => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const url = `/v1/${site.token}${path}`;
    await call("GET", `/v1/${site.token}/collections/posts/items/missing`); // the site's version is now known here
    const before = await stats(site);
    const answers = await together(() => call("GET", url));
    const after = await stats(site);
    expect(after.publicReads - before.publicReads).toBe(1);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.cache === "MISS")).toHaveLength(1);
    expect(answers.filter((a) => a.cache === "SHARED")).toHaveLength(N - 1);
    expect(inflightSize()).toBe(0);
  });

  it("shares a miss that is not kept (a 404) without storing it", async () => {
    const site = await newBlog();
    await call("GET", `/v1/${site.token}/collections/posts/items`);
    const before = await stats(site);
    const answers = await together(() => call("GET", `/v1/${site.token}/collections/posts/items/nope`));
    expect((await stats(site)).publicReads - before.publicReads).toBe(1);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([404]));
    const again = await call("GET", `/v1/${site.token}/collections/posts/items/nope`);
    expect(again.status).toBe(404);
    expect((await stats(site)).publicReads - before.publicReads).toBe(2);
  });

  it("one version check per site, however many requests find the memo expired at once", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const before = await stats(site);
    await together(() => call("GET", `/v1/${site.token}/collections/posts/items`));
    const after = await stats(site);
    expect(after.metaReads - before.metaReads).toBe(1);
    expect(after.publicReads - before.publicReads).toBe(1);
  });

  it("rendered pages and documents: one read for concurrent misses", async () => {
    const { site, pageUrl } = await capturedBlog([{ slug: "first", data: { title: "First" } }]);
    // The sitemap is rebuilt on the alarm after a change; run it now rather than wait.
    await runDurableObjectAlarm(env.SITE.get(env.SITE.idFromName(site.id)));
    const base = pathOf(pageUrl);
    await rendered(site, `${base}nothing-here`);
    for (const path of [base, `${base}first`, `${base}sitemap.xml`]) {
      const before = await stats(site);
      const answers = await together(() => rendered(site, path));
      expect((await stats(site)).publicReads - before.publicReads, path).toBe(1);
      expect(new Set(answers.map((a) => a.status)), path).toEqual(new Set([200]));
      expect(new Set(answers.map((a) => a.body)).size, path).toBe(1);
    }
  });
});

describe("a failed shared read", () => {
  it("is retried once instead of failing every waiter", async () => {
    const ctx = createExecutionContext();
    let calls = 0;
    const origin = async () => {
      calls++;
      if (calls === 1) throw new Error("Durable Object reset because its code was updated.");
      return new Response(JSON.stringify({ ok: true }), { headers: { "content-type": "application/json" } });
    };
    const key = { base: `https://api.test/retry-${crypto.randomUUID()}`, siteId: "s_test", version: 1 };
    const outcomes = await Promise.all(
      Array.from({ length: N }, () => cachedRead(new Request(key.base), ctx, key, origin, "key").then((o) => o.response)),
    );
    await waitOnExecutionContext(ctx);
    expect(calls).toBe(2);
    expect(new Set(outcomes.map((r) => r.status))).toEqual(new Set([200]));
  });

  it("a 500 answer is retried too, and a lasting failure reaches the client as an error", async () => {
    const ctx = createExecutionContext();
    let calls = 0;
    const failing = async () => {
      calls++;
      return new Response("boom", { status: 500 });
    };
    const key = { base: `https://api.test/fail-${crypto.randomUUID()}`, siteId: "s_test", version: 1 };
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => cachedRead(new Request(key.base), ctx, key, failing)));
    await waitOnExecutionContext(ctx);
    expect(new Set(outcomes.map((o) => o.response.status))).toEqual(new Set([500]));
    // The first read and its retry, then one more shared read (and its retry) for the waiters.
    expect(calls).toBe(4);
  });
});
