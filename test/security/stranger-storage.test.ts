import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { randomId, sha256Hex } from "../../src/ids";
import { SIGN_IN_POLICY } from "../../src/contract/limits";
import { OPERATOR, ORIGIN, call, newBlog } from "../helpers";

/** What an object has stored: its tables and KV keys (a Site object with a site has both). */
async function stored(ns: "SITE" | "SIGN_IN_THROTTLE" | "WORKSPACE", name: string): Promise<{ tables: number; keys: number }> {
  const stub = env[ns].get(env[ns].idFromName(name));
  return runInDurableObject(stub, async (_i: unknown, state: DurableObjectState) => ({
    tables: state.storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'")
      .one().n,
    keys: (await state.storage.list()).size,
  }));
}

/** One request of every kind that names a site, for a site id nobody was issued. */
function strangerRequests(siteId: string): Promise<Response>[] {
  const token = `pk_${siteId}_${randomId(24)}`;
  const key = `sk_${siteId}_${randomId(40)}`;
  const session = `ss_${siteId}_${randomId(40)}`;
  const cookie = { cookie: `__Host-oc_session=${session}` };
  return [
    call("GET", `/v1/${token}/collections/posts/items`),
    call("GET", `/v1/${token}/collections/posts/items/hello`),
    call("GET", `/v1/${token}/collections/posts/schema`),
    call("GET", `/v1/${token}/search?q=bread`),
    call("GET", `/v1/${token}/collections/posts/items/hello/related`),
    call("GET", "/blog/", { headers: { "x-service-token": token } }),
    call("POST", `/hooks/ssr/${siteId}/${randomId(32)}`, { body: {} }),
    call("GET", `/p/pv_${siteId}_${randomId(32)}`, { headers: { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" } }),
    call("POST", "/p/open", {
      body: `token=pv_${siteId}_${randomId(32)}`,
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" },
    }),
    call("GET", `/sites/${siteId}`, { auth: key }),
    call("GET", `/sites/${siteId}/collections`, { auth: OPERATOR }),
    call("PUT", `/sites/${siteId}/collections/posts`, { auth: key, body: { name: "x", fields: [] } }),
    call("GET", `/sites/${siteId}`, { headers: cookie }),
    call("GET", "/sessions/current", { headers: cookie }),
    // Signing out always answers 200 (the cookie is cleared either way).
    call("DELETE", "/sessions/current", { headers: cookie }),
    call("POST", "/sessions", { body: { key }, headers: { "cf-connecting-ip": "198.51.100.99", origin: ORIGIN } }),
  ];
}

describe("strangers cannot create storage", () => {
  it("a random site id, token, admin key or session on every kind of path is refused and stores nothing", async () => {
    const siteId = randomId(16);
    const answers = await Promise.all(strangerRequests(siteId));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 404)).toEqual([200]);
    await Promise.all(answers.map((r) => r.body?.cancel()));
    expect(await stored("SITE", siteId)).toEqual({ tables: 0, keys: 0 });
    expect(await stored("SIGN_IN_THROTTLE", `198.51.100.99|${siteId}`)).toEqual({ tables: 0, keys: 0 });
  });

  it("a made-up workspace API key or invitation, and a made-up share link's password, store nothing", async () => {
    // Workspace ids carry no MAC: what the request reaches is the Workspace object, which must not
    // build its schema to say no. A share link names a real site (its id is public) with a random token.
    const site = await newBlog("pro");
    const ws = randomId(16);
    const apiKey = `ak_${ws}_${randomId(40)}`;
    const token = `pv_${site.id}_${randomId(32)}`;
    const client = { "cf-connecting-ip": "198.51.100.77", origin: ORIGIN };
    const answers = await Promise.all([
      call("GET", `/workspaces/ws_${ws}`, { auth: apiKey }),
      call("GET", `/workspaces/ws_${ws}/members`, { auth: apiKey }),
      call("GET", `/sites/${site.id}/collections`, { auth: apiKey }),
      call("GET", `/workspaces/ws_${ws}`, { auth: OPERATOR }),
      call("POST", "/invitations/lookup", { body: { token: `iv_${ws}_${randomId(40)}` }, headers: client }),
      call("POST", "/invitations/accept/new-account", {
        body: { token: `iv_${ws}_${randomId(40)}`, proof: "made.up", password: "a long enough password" },
        headers: client,
      }),
      exports.default.fetch(
        new Request(`${ORIGIN}/p/${token}`, {
          method: "POST",
          body: new URLSearchParams({ password: "guess" }).toString(),
          headers: {
            ...client,
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-dest": "document",
            "sec-fetch-mode": "navigate",
          },
          redirect: "manual",
        }),
      ),
      exports.default.fetch(
        new Request(`${ORIGIN}/p/open`, {
          method: "POST",
          body: new URLSearchParams({ token, password: "guess" }).toString(),
          headers: {
            ...client,
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-dest": "document",
            "sec-fetch-mode": "navigate",
          },
          redirect: "manual",
        }),
      ),
    ]);
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 404, 404, 404, 404, 404]);
    await Promise.all(answers.map((r) => r.body?.cancel()));
    expect(await stored("WORKSPACE", `ws_${ws}`)).toEqual({ tables: 0, keys: 0 });
    expect(await stored("SIGN_IN_THROTTLE", `198.51.100.77|pv:${(await sha256Hex(token)).slice(0, 32)}`)).toEqual({ tables: 0, keys: 0 });
  });

  it("wrong operator-looking keys from many addresses leave throttle state only until it is forgotten", async () => {
    // Not `sk_` keys, so no site to ask first: each client's attempts against "operator" are counted.
    const clients = ["198.51.100.41", "198.51.100.42", "2001:db8:5:6::1", "2001:db8:5:6:0:0:0:2", "2001:DB8:5:6:ffff::3"];
    for (const ip of clients) {
      const r = await call("POST", "/sessions", {
        body: { key: `guess-${randomId(20)}` },
        headers: { "cf-connecting-ip": ip, origin: ORIGIN },
      });
      expect(r.status, ip).toBe(401);
      await r.body?.cancel();
    }
    // The three IPv6 spellings are one /64: one object, three failures.
    const names = ["198.51.100.41|operator", "198.51.100.42|operator", "2001:db8:5:6::/64|operator"];
    for (const name of names) {
      const stub = env.SIGN_IN_THROTTLE.get(env.SIGN_IN_THROTTLE.idFromName(name));
      const { failures, alarmIn } = await runInDurableObject(stub, async (_i: unknown, state: DurableObjectState) => {
        const s = (await state.storage.get<{ failures: number; lastFailureAt: number }>("state"))!;
        // The alarm that deletes it all sits where the count would be forgotten anyway.
        const alarm = await state.storage.getAlarm();
        // Let the forget window pass (as a day would), then the alarm fires.
        await state.storage.put("state", { ...s, lastFailureAt: s.lastFailureAt - SIGN_IN_POLICY.window * 1000 });
        return { failures: s.failures, alarmIn: alarm === null ? null : alarm - s.lastFailureAt };
      });
      expect(failures, name).toBe(name.includes("::/64") ? 3 : 1);
      expect(alarmIn, name).toBe(SIGN_IN_POLICY.window * 1000);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      expect(await stored("SIGN_IN_THROTTLE", name), name).toEqual({ tables: 0, keys: 0 });
      expect(await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => state.storage.getAlarm())).toBeNull();
    }
  });

  it("a Site object where no site was created answers every call without writing (ids from before the MAC)", async () => {
    const siteId = randomId(16);
    const stub = env.SITE.get(env.SITE.idFromName(siteId));
    expect(await stub.meta(`pk_${siteId}_${randomId(24)}`)).toBeNull();
    expect(await stub.verifyAdminKey(`sk_${siteId}_${randomId(40)}`)).toBe(false);
    expect(await stub.verifySession(`ss_${siteId}_${randomId(40)}`)).toBeNull();
    expect(await stub.exists()).toBe(false);
    const res = await stub.fetch(new Request(`${ORIGIN}/v1/pk_${siteId}_${randomId(24)}/collections/posts/items`));
    expect(res.status).toBe(404);
    expect(await stored("SITE", siteId)).toEqual({ tables: 0, keys: 0 });
  });

  it("sites made now carry the MAC, and their token, key and sessions keep working", async () => {
    const site = await newBlog("pro");
    expect(site.id).toMatch(/^[a-z2-7]{16}$/);
    expect(site.token).toMatch(new RegExp(`^pk_${site.id}_[a-z2-7]{24}$`));
    expect((await call("GET", `/v1/${site.token}/collections/posts/items`)).status).toBe(200);
    expect((await call("GET", `/sites/${site.id}`, { auth: site.adminKey })).status).toBe(200);
    const signIn = await call("POST", "/sessions", { body: { key: site.adminKey }, headers: { origin: ORIGIN } });
    expect(signIn.status).toBe(201);
    // A different id of the same shape (one MAC character changed) is a stranger's.
    const last = site.id.at(-1) === "a" ? "b" : "a";
    const forged = `${site.id.slice(0, -1)}${last}`;
    expect((await call("GET", `/v1/pk_${forged}_${site.token.slice(-24)}/collections/posts/items`)).status).toBe(404);
    expect(await stored("SITE", forged)).toEqual({ tables: 0, keys: 0 });
  });
});
