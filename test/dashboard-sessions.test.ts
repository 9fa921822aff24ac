import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FREE_ATTEMPTS } from "../actors/sign-in-throttle";
import { call, callJson, newSite, OPERATOR, ORIGIN } from "./helpers";

let client = 0;
/** Each test signs in from an address of its own, so wrong keys in one never slow another. */
const from = () => ({ "cf-connecting-ip": `203.0.113.${++client}`, origin: ORIGIN });

async function signIn(key: string, headers: Record<string, string> = from()): Promise<{ status: number; cookie: string; body: unknown }> {
  const res = await call("POST", "/sessions", { body: { key }, headers });
  const setCookie = res.headers.get("set-cookie") ?? "";
  return { status: res.status, cookie: setCookie.split(";")[0] ?? "", body: await res.json() };
}

const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({ cookie, ...extra });

describe("dashboard sessions", () => {
  it("exchanges the admin key for an HttpOnly, SameSite=Strict cookie that the dashboard API accepts", async () => {
    const site = await newSite("starter");
    const res = await call("POST", "/sessions", { body: { key: site.adminKey }, headers: from() });
    expect(res.status).toBe(201);
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(
      /^__Host-oc_session=ss_[a-z2-7]{16}_[a-z2-7]{40}; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=604800$/,
    );
    expect(setCookie).not.toContain(site.adminKey);
    const body = (await res.json()) as { session: { kind: string; siteId: string; expiresAt: string } };
    expect(body.session).toMatchObject({ kind: "site", siteId: site.id });
    const cookie = setCookie.split(";")[0]!;
    const me = await callJson<{ session: { siteId: string } }>("GET", "/sessions/current", { headers: withCookie(cookie) });
    expect(me.body.session.siteId).toBe(site.id);
    expect((await callJson("GET", `/sites/${site.id}`, { headers: withCookie(cookie) })).status).toBe(200);
    const put = await callJson("PUT", `/sites/${site.id}/collections/notes`, {
      headers: withCookie(cookie, { origin: ORIGIN }),
      body: { name: "Notes", fields: [{ key: "title", type: "text" }] },
    });
    expect(put.status).toBe(201);
  });

  it("refuses a cookie write from another origin, and it changes nothing", async () => {
    const site = await newSite("starter");
    const { cookie } = await signIn(site.adminKey);
    const attempts: Record<string, string>[] = [{ origin: "https://evil.test" }, { "sec-fetch-site": "cross-site" }, {}];
    for (const headers of attempts) {
      const r = await callJson<{ error: { code: string } }>("PUT", `/sites/${site.id}/collections/notes`, {
        headers: withCookie(cookie, headers),
        body: { name: "Notes", fields: [] },
      });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("forbidden");
    }
    const list = await callJson<{ collections: unknown[] }>("GET", `/sites/${site.id}/collections`, { headers: withCookie(cookie) });
    expect(list.body.collections).toEqual([]);
    // Same-origin by Sec-Fetch-Site alone also passes.
    const ok = await callJson("PUT", `/sites/${site.id}/collections/notes`, {
      headers: withCookie(cookie, { "sec-fetch-site": "same-origin" }),
      body: { name: "Notes", fields: [] },
    });
    expect(ok.status).toBe(201);
  });

  it("ends the session at sign-out", async () => {
    const site = await newSite("starter");
    const { cookie } = await signIn(site.adminKey);
    const out = await call("DELETE", "/sessions/current", { headers: withCookie(cookie, { origin: ORIGIN }) });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await callJson("GET", `/sites/${site.id}`, { headers: withCookie(cookie) })).status).toBe(401);
    expect((await callJson("GET", "/sessions/current", { headers: withCookie(cookie) })).status).toBe(401);
  });

  it("rotating the admin key shows a new key once and kills the old key and every session at once", async () => {
    const site = await newSite("starter");
    const a = await signIn(site.adminKey);
    const b = await signIn(site.adminKey);
    const rotated = await callJson<{ adminKey: string }>("POST", `/sites/${site.id}/admin-key`, {
      headers: withCookie(a.cookie, { origin: ORIGIN }),
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.adminKey).toMatch(new RegExp(`^sk_${site.id}_`));
    for (const c of [a.cookie, b.cookie]) expect((await callJson("GET", `/sites/${site.id}`, { headers: withCookie(c) })).status).toBe(401);
    expect((await callJson("GET", `/sites/${site.id}`, { auth: site.adminKey })).status).toBe(401);
    expect((await callJson("GET", `/sites/${site.id}`, { auth: rotated.body.adminKey })).status).toBe(200);
    expect((await signIn(site.adminKey)).status).toBe(401);
    expect((await signIn(rotated.body.adminKey)).status).toBe(201);
  });

  it("gives the operator a session for operator calls and every site", async () => {
    const site = await newSite("starter");
    const { status, cookie, body } = await signIn(OPERATOR);
    expect(status).toBe(201);
    expect(body).toMatchObject({ session: { kind: "operator" } });
    expect((await callJson("GET", `/sites/${site.id}`, { headers: withCookie(cookie) })).status).toBe(200);
    const created = await callJson("POST", "/sites", { headers: withCookie(cookie, { origin: ORIGIN }), body: { name: "By cookie" } });
    expect(created.status).toBe(201);
    const crossSite = await callJson("POST", "/sites", {
      headers: withCookie(cookie, { origin: "https://evil.test" }),
      body: { name: "x" },
    });
    expect(crossSite.status).toBe(403);
  });

  it("answers a session of one site on another site with 404, and a forged session with 401", async () => {
    const a = await newSite("starter");
    const b = await newSite("starter");
    const { cookie } = await signIn(a.adminKey);
    expect((await callJson("GET", `/sites/${b.id}`, { headers: withCookie(cookie) })).status).toBe(404);
    const forged = `__Host-oc_session=ss_${b.id}_${"a".repeat(40)}`;
    expect((await callJson("GET", `/sites/${b.id}`, { headers: withCookie(forged) })).status).toBe(401);
  });

  it("makes a client that keeps sending wrong keys wait longer and longer", async () => {
    const site = await newSite("starter");
    const headers = from();
    const wrong = site.adminKey.slice(0, -4) + "aaaa";
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await signIn(wrong, headers);
      expect(r.status).toBe(401);
      waits.push((r.body as { error: { details: { retryAfterSeconds: number } } }).error.details.retryAfterSeconds);
    }
    expect(waits).toEqual([0, 0, 2]);
    // Even the right key is not checked while the client must wait.
    const locked = await call("POST", "/sessions", { body: { key: site.adminKey }, headers });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await locked.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // Another client is not affected.
    expect((await signIn(site.adminKey)).status).toBe(201);
  });

  it("doubles the wait with every further wrong key, up to 15 minutes", async () => {
    const throttle = env.SIGN_IN_THROTTLE.get(env.SIGN_IN_THROTTLE.idFromName("198.51.100.7|operator"));
    let now = Date.now();
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      const { allowed, waitMs } = await throttle.attempt(now);
      expect(allowed).toBe(true);
      waits.push(waitMs);
      if (waitMs > 0) expect(await throttle.attempt(now + waitMs - 1)).toMatchObject({ allowed: false, waitMs: 1 });
      now += waitMs + 1;
    }
    expect(waits.slice(0, 6)).toEqual([0, 0, 2000, 4000, 8000, 16000]);
    expect(waits.at(-1)).toBe(15 * 60 * 1000);
    await throttle.succeeded();
    expect((await throttle.attempt(now)).waitMs).toBe(0);
  });

  it("counts a burst of parallel wrong keys one by one, per target, with an IPv6 client's whole /64", async () => {
    const a = await newSite("starter");
    const b = await newSite("starter");
    const wrong = a.adminKey.slice(0, -4) + "aaaa";
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call("POST", "/sessions", { body: { key: wrong }, headers: { "cf-connecting-ip": `2001:db8:1:2::${i + 1}`, origin: ORIGIN } }),
      ),
    );
    const statuses = burst.map((r) => r.status).sort();
    // Three free attempts, the fourth sets a wait: the rest of the burst is refused unchecked.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(FREE_ATTEMPTS + 1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(8 - FREE_ATTEMPTS - 1);
    // Another address of the same /64 waits too; the same client signing in to another site does not.
    const same64 = { "cf-connecting-ip": "2001:db8:1:2:ffff::9", origin: ORIGIN };
    expect((await call("POST", "/sessions", { body: { key: a.adminKey }, headers: same64 })).status).toBe(429);
    expect((await call("POST", "/sessions", { body: { key: b.adminKey }, headers: same64 })).status).toBe(201);
  });

  it("refuses a sign-in posted from another origin", async () => {
    const site = await newSite("starter");
    const r = await call("POST", "/sessions", { body: { key: site.adminKey }, headers: { origin: "https://evil.test" } });
    expect(r.status).toBe(403);
    expect(r.headers.get("set-cookie")).toBeNull();
  });
});
