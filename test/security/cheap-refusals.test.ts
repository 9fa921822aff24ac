import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { randomId, siteIdMac } from "../../src/ids";
import { verdictCount } from "../../src/edge/issued";
import { siteMetaEntry } from "../../src/edge/site-meta";
import { addItem, call, newBlog, type TestSite } from "../helpers";

// Refusals the front Worker answers before its full path (src/routing/refusals.ts). The timing
// goal is the bench's (`BENCH_ONLY=refused npm run bench`); here: what they cost in calls and
// state, and that their answers are the full path's, byte for byte.

const SECRET = "test-site-id-secret-0123456789";
const stats = (site: TestSite) => env.SITE.get(env.SITE.idFromName(site.id)).stats();
const madeUpId = () => randomId(16);
const wrongToken = (site: TestSite) => `pk_${site.id}_${randomId(24)}`;

const FULL_PATH_404_HEADERS = [
  "access-control-allow-headers",
  "access-control-allow-methods",
  "access-control-allow-origin",
  "access-control-expose-headers",
  "access-control-max-age",
  "cache-control",
  "content-type",
  "strict-transport-security",
  "vary",
  "x-content-type-options",
];

/** Status, body and headers (less Date) of an answer, to compare the early path with the full one. */
async function answer(res: Response) {
  const headers = [...res.headers].filter(([k]) => k !== "date").sort(([a], [b]) => a.localeCompare(b));
  return { status: res.status, body: await res.text(), headers };
}

describe("refusals cost less than a cached read", () => {
  it("the site id MAC is HMAC-SHA-256 as WebCrypto computes it (ids issued before stay valid)", async () => {
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    for (let i = 0; i < 25; i++) {
      const random = randomId(10);
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`site:${random}`)));
      let bits = ((mac[0]! << 24) | (mac[1]! << 16) | (mac[2]! << 8) | mac[3]!) >>> 2;
      let expected = "";
      for (let c = 0; c < 6; c++, bits >>>= 5) expected = "abcdefghijklmnopqrstuvwxyz234567"[bits & 31] + expected;
      expect(siteIdMac(SECRET, random)).toBe(expected);
    }
  });

  it("a made-up site id: the full path's 404, its MAC verdict remembered once (bounded)", async () => {
    const id = madeUpId();
    const token = `pk_${id}_${randomId(24)}`;
    const before = verdictCount();
    const early = await answer(await call("GET", `/v1/${token}/collections/posts/items?page=2`));
    expect(verdictCount() - before).toBe(1);
    // What the full path (router, envelope, CORS, policies, front headers) always answered.
    expect(early.headers.map(([k]) => k)).toEqual(FULL_PATH_404_HEADERS);
    expect(early.status).toBe(404);
    expect(JSON.parse(early.body)).toEqual({ error: { code: "not_found", message: "Unknown site token." } });
    const h = new Map(early.headers);
    expect(h.get("x-content-type-options")).toBe("nosniff");
    expect(h.get("vary")).toBe("x-service-token");
    expect(h.get("access-control-allow-origin")).toBe("*");
    // A site nobody was issued has no limits to name.
    expect(h.get("ratelimit-policy")).toBeUndefined();
    expect(h.get("strict-transport-security")).toMatch(/^max-age=/);
    // The same id again costs no new verdict.
    const search = await call("GET", `/v1/${token}/search?q=x`);
    expect(search.status).toBe(404);
    await search.body?.cancel();
    expect(verdictCount() - before).toBe(1);
    const head = await call("HEAD", `/v1/${token}/collections/posts/items`);
    expect(head.status).toBe(404);
    expect(await head.text()).toBe("");
  });

  it("a wrong token of a real site is refused from the memo: no site-object call per request", async () => {
    const site = await newBlog();
    await addItem(site, "posts", { slug: "a", data: { title: "A" }, publish: true });
    const list = `/v1/${site.token}/collections/posts/items`;
    expect((await call("GET", list)).status).toBe(200);
    const before = await stats(site);
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await answer(await call("GET", `/v1/${wrongToken(site)}/collections/posts/items`)));
    // At most the memo's own renewal (SITE_META_TTL_MS is 1 s here), never one call per wrong token.
    expect((await stats(site)).metaReads - before.metaReads).toBeLessThanOrEqual(1);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([404]));
    expect(answers[0]!.headers.map(([k]) => k)).toEqual(FULL_PATH_404_HEADERS);
    expect(JSON.parse(answers[0]!.body).error.message).toBe("Unknown site token.");
    // Once the memo has expired, wrong tokens arriving together share the one call that renews it.
    await new Promise((r) => setTimeout(r, 1100));
    const mid = await stats(site);
    const together = await Promise.all(Array.from({ length: 16 }, () => call("GET", `/v1/${wrongToken(site)}/collections/posts/items/a`)));
    expect(together.map((r) => r.status)).toEqual(Array(16).fill(404));
    await Promise.all(together.map((r) => r.body?.cancel()));
    expect((await stats(site)).metaReads - mid.metaReads).toBe(1);
    // The memo renewed by a wrong token holds the real one, which reads on.
    expect(siteMetaEntry(site.id)?.token).toBe(site.token);
    const real = await call("GET", list);
    expect(real.status).toBe(200);
    await real.body?.cancel();
  });

  it("a dashboard call with an admin key of a made-up site id: the full path's 401", async () => {
    for (const method of ["GET", "DELETE"]) {
      const id = madeUpId();
      const key = `sk_${id}_${randomId(40)}`;
      const early = await answer(await call(method, `/sites/${id}/collections/posts`, { auth: key }));
      const full = await answer(await call(method, `/sites/${id}/collections/p%6Fsts`, { auth: key }));
      expect(early).toEqual(full);
      expect(early.status).toBe(401);
      expect(JSON.parse(early.body).error.message).toBe("Wrong site admin key.");
      // A site's writes are counted by its object, which a key of no issued site never reaches.
      expect(new Map(early.headers).get("ratelimit-policy")).toBeUndefined();
    }
    // A capture names its policy; the early path (no body) works it out without the full path's
    // header reads, and answers what the full path (a body) answers.
    const id = madeUpId();
    const key = `sk_${id}_${randomId(40)}`;
    const early = await answer(await call("POST", `/sites/${id}/ssr/capture`, { auth: key }));
    const full = await answer(await call("POST", `/sites/${id}/ssr/capture`, { auth: key, body: {} }));
    expect(early).toEqual(full);
    expect(early.status).toBe(401);
    expect(new Map(early.headers).get("ratelimit-policy")).toBe('"capture";q=60;w=60');
  });
});
