import { describe, expect, it } from "vitest";
import { ORIGIN, call, newBlog, newSite } from "../helpers";
import { capture } from "../ssr-helpers";
import { putPage } from "../ssr-helpers";
import { listPage } from "../fixtures/blog-pages";
import { renderedBlog } from "../hostname-helpers";
import { isRefused } from "../../src/limits/rate-limit";

let n = 0;
/** A client address of its own per test, so tests never share a bucket. */
const uniqueV4 = () => `198.18.${(Date.now() >> 8) & 255}.${++n & 255}`;

async function expectLimited(res: Response, policy: RegExp): Promise<void> {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(res.headers.get("ratelimit-policy")).toMatch(policy);
  // The binding knows no remaining count: no RateLimit field.
  expect(res.headers.get("ratelimit")).toBeNull();
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
}

describe("rate limits (Workers Rate Limiting binding, Miniflare locally)", () => {
  it("search: 30 uncached queries a minute per client and site; an IPv6 client counts by its /64; other clients go on", async () => {
    const site = await newBlog("pro");
    const same64 = ["2001:db8:aa:1::1", "2001:0db8:00aa:0001:ffff:0:0:2"];
    const answers: Response[] = [];
    // Two windows' worth and one: however the minute falls, one window sees more than 30.
    for (let i = 0; i < 61; i++) {
      answers.push(await call("GET", `/v1/${site.token}/search?q=bread+${i}`, { headers: { "cf-connecting-ip": same64[i % 2]! } }));
    }
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((r) => r.status !== 429 && r.status !== 200)).toEqual([]);
    await Promise.all(answers.filter((r) => r !== refused[0]).map((r) => r.body?.cancel()));
    await expectLimited(refused[0]!, /^"search";q=30;w=60$/);
    const ok = await call("GET", `/v1/${site.token}/search?q=bread+other`, { headers: { "cf-connecting-ip": "2001:db8:aa:2::1" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-policy")).toBe('"search";q=30;w=60');
  });

  it("a refused client is refused from memory until its Retry-After: no limiter call, no cache lookup, same answer", async () => {
    const site = await newBlog("pro");
    const other = await newBlog("pro");
    const ip = uniqueV4();
    const headers = { "cf-connecting-ip": ip };
    let first: Response | null = null;
    // Two windows' worth and one of uncached searches: however the minute falls, one is refused.
    for (let i = 0; i < 61 && !first; i++) {
      const res = await call("GET", `/v1/${site.token}/search?q=flour+${i}`, { headers });
      if (res.status === 429) first = res;
      else await res.body?.cancel();
    }
    expect(first).not.toBeNull();
    const firstBody = await first!.text();
    // The limiter's verdict is held for this client and site (the key the limiter counts by) ...
    expect(isRefused("search", `${ip}|${site.id}`)).toBe(true);
    expect(isRefused("search", `${ip}|${other.id}`)).toBe(false);
    // ... so its next reads, even of queries never asked, get the same 429 without reaching it.
    for (let i = 0; i < 5; i++) {
      const again = await call("GET", `/v1/${site.token}/search?q=sugar+${i}`, { headers });
      expect(again.status).toBe(429);
      expect(again.headers.get("retry-after")).toBe("60");
      expect(again.headers.get("ratelimit-policy")).toBe('"search";q=30;w=60');
      expect(again.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await again.text()).toBe(firstBody);
    }
    // Another site's bucket is untouched.
    const ok = await call("GET", `/v1/${other.token}/search?q=flour`, { headers });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it("cached reads are free: the same list 400 times from one client is never refused", async () => {
    const site = await newBlog("pro");
    const headers = { "cf-connecting-ip": uniqueV4() };
    const statuses = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const res = await call("GET", `/v1/${site.token}/collections/posts/items`, { headers });
      statuses.add(res.status);
      await res.body?.cancel();
    }
    expect([...statuses]).toEqual([200]);
  });

  it("pages through the reverse-proxy Worker count per site: every visitor arrives from the proxy's address", async () => {
    const site = await renderedBlog();
    const other = await renderedBlog();
    const answers: Response[] = [];
    // Two windows' worth and one of uncached renders (a new path each), each from another address
    // as the proxy would forward them: per client, none would ever be refused.
    for (let i = 0; i < 601; i++) {
      answers.push(
        await call("GET", `/missing-${i}`, {
          headers: { "x-service-token": site.token, "cf-connecting-ip": `198.51.${i >> 8}.${i & 255}` },
        }),
      );
    }
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    await Promise.all(answers.filter((r) => r !== refused[0]).map((r) => r.body?.cancel()));
    await expectLimited(refused[0]!, /^"reads";q=300;w=60$/);
    // Another site's pages are another bucket.
    const ok = await call("GET", "/missing-0", { headers: { "x-service-token": other.token, "cf-connecting-ip": "198.51.1.1" } });
    expect(ok.status).toBe(404);
    expect(((await ok.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("the publish webhook: 10 a minute per sender and site; a stranger's posts never spend the builder's", async () => {
    const site = await newBlog("seo_engine");
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    const made = await capture(site, { pageUrl, collection: "posts" });
    const hook = new URL(made.body.capture.webhookUrl).pathname;
    const stranger = { "cf-connecting-ip": uniqueV4() };
    const answers: Response[] = [];
    for (let i = 0; i < 21; i++) answers.push(await call("POST", hook, { body: {}, headers: stranger }));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    await Promise.all(answers.filter((r) => r !== refused[0]).map((r) => r.body?.cancel()));
    await expectLimited(refused[0]!, /^"webhook";q=10;w=60$/);
    // The site builder, from its own address, still reaches the signature check (401 unsigned, not 429).
    const builder = await call("POST", hook, { body: {}, headers: { "cf-connecting-ip": uniqueV4() } });
    expect(builder.status).toBe(401);
    expect(builder.headers.get("ratelimit-policy")).toBe('"webhook";q=10;w=60');
  });

  it("dashboard writes name their policies; sign-in (counted exactly) tells what is left", async () => {
    const site = await newSite("pro");
    const write = await call("PATCH", `/sites/${site.id}`, { auth: site.adminKey, body: { name: "Renamed" } });
    expect(write.headers.get("ratelimit-policy")).toBe('"writes";q=60;w=60');
    const operator = await call("GET", `/sites/${site.id}`, { auth: "test-operator-token" });
    expect(operator.headers.get("ratelimit-policy")).toBe('"operator";q=120;w=60');
    const client = { "cf-connecting-ip": uniqueV4(), origin: ORIGIN };
    const wrong = `${site.adminKey.slice(0, -4)}aaaa`;
    const first = await call("POST", "/sessions", { body: { key: wrong }, headers: client });
    expect(first.status).toBe(401);
    expect(first.headers.get("ratelimit-policy")).toBe('"sign-in";q=3;w=86400');
    expect(first.headers.get("ratelimit")).toBe('"sign-in";r=2;t=86400');
    await call("POST", "/sessions", { body: { key: wrong }, headers: client });
    const third = await call("POST", "/sessions", { body: { key: wrong }, headers: client });
    expect(third.headers.get("ratelimit")).toBe('"sign-in";r=0;t=2');
    const locked = await call("POST", "/sessions", { body: { key: wrong }, headers: client });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("ratelimit")).toMatch(/^"sign-in";r=0;t=[12]$/);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
