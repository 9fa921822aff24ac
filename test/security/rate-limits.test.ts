import { describe, expect, it } from "vitest";
import { ORIGIN, call, newBlog, newSite } from "../helpers";
import { capture } from "../ssr-helpers";
import { putPage } from "../ssr-helpers";
import { listPage } from "../fixtures/blog-pages";

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
  it("wrong operator tokens: 120 a minute per client, then even the right one waits; other clients go on", async () => {
    const site = await newSite("pro");
    const guesser = { "cf-connecting-ip": uniqueV4() };
    const answers: Response[] = [];
    // Two windows' worth and one: however the minute falls, one window sees more than 120.
    for (let i = 0; i < 241; i++) answers.push(await call("GET", `/sites/${site.id}`, { auth: `wrong-operator-${i}`, headers: guesser }));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((r) => r.status !== 429 && r.status !== 401)).toEqual([]);
    await Promise.all(answers.filter((r) => r !== refused[0]).map((r) => r.body?.cancel()));
    await expectLimited(refused[0]!, /^"operator";q=120;w=60$/);
    const right = await call("GET", `/sites/${site.id}`, { auth: "test-operator-token", headers: guesser });
    expect(right.status).toBe(429);
    await right.body?.cancel();
    const elsewhere = await call("GET", `/sites/${site.id}`, { auth: "test-operator-token", headers: { "cf-connecting-ip": uniqueV4() } });
    expect(elsewhere.status).toBe(200);
    await elsewhere.body?.cancel();
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

  it("the publish webhook: 30 a minute per sender and site; a stranger's posts never spend the builder's", async () => {
    const site = await newBlog("seo_engine");
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    const made = await capture(site, { pageUrl, collection: "posts" });
    const hook = new URL(made.body.capture.webhookUrl).pathname;
    const stranger = { "cf-connecting-ip": uniqueV4() };
    const answers: Response[] = [];
    for (let i = 0; i < 61; i++) answers.push(await call("POST", hook, { body: {}, headers: stranger }));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    await Promise.all(answers.filter((r) => r !== refused[0]).map((r) => r.body?.cancel()));
    await expectLimited(refused[0]!, /^"webhook";q=30;w=60$/);
    // The site builder, from its own address, still reaches the signature check (401 unsigned, not 429).
    const builder = await call("POST", hook, { body: {}, headers: { "cf-connecting-ip": uniqueV4() } });
    expect(builder.status).toBe(401);
    expect(builder.headers.get("ratelimit-policy")).toBe('"webhook";q=30;w=60');
  });

  it("dashboard writes name their policies; sign-in (counted exactly) tells what is left", async () => {
    const site = await newSite("pro");
    const write = await call("PATCH", `/sites/${site.id}`, { auth: site.adminKey, body: { name: "Renamed" } });
    expect(write.headers.get("ratelimit-policy")).toBe('"writes";q=12000;w=60, "site-writes";q=12000;w=60');
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
