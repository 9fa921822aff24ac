import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkerd } from "../../scripts/workerd-host.mjs";

const OPERATOR = "disk-test-operator";
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const rid = (n: number) => [...randomBytes(n)].map((b) => ALPHABET[b & 31]).join("");

/** Every file under the persistence directory with its size: what "state on disk" means here. */
function snapshot(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p.slice(dir.length), statSync(p).size);
    }
  };
  walk(dir);
  return out;
}

/** One request of each kind that names a site or a workspace, for an id (and token, key, session) nobody was issued. */
function strangerRequest(base: string, kind: number): [string, RequestInit] {
  const siteId = rid(16);
  const token = `pk_${siteId}_${rid(24)}`;
  const key = `sk_${siteId}_${rid(40)}`;
  const cookie = { cookie: `oc_session=ss_${siteId}_${rid(40)}` };
  const bearer = { authorization: `Bearer ${key}` };
  const json = { "content-type": "application/json", origin: base };
  const kinds: [string, RequestInit][] = [
    [`/v1/${token}/collections/posts/items`, {}],
    [`/v1/${token}/collections/posts/items/hello`, {}],
    [`/v1/${token}/collections/posts/schema`, {}],
    [`/v1/${token}/search?q=bread`, {}],
    [`/v1/${token}/collections/posts/items/hello/related`, {}],
    ["/blog/", { headers: { "x-service-token": token } }],
    [`/hooks/ssr/${siteId}/${rid(32)}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
    [`/sites/${siteId}`, { headers: bearer }],
    [`/sites/${siteId}/collections`, { headers: { authorization: `Bearer ${OPERATOR}` } }],
    [`/sites/${siteId}/collections/posts`, { method: "PUT", headers: { ...bearer, ...json }, body: '{"name":"x","fields":[]}' }],
    [`/sites/${siteId}`, { headers: cookie }],
    ["/sessions/current", { headers: cookie }],
    ["/sessions", { method: "POST", headers: json, body: JSON.stringify({ key }) }],
    // A made-up workspace: its API key, an invitation to it, its own path (the operator's call).
    [`/sites/${siteId}`, { headers: { authorization: `Bearer ak_${rid(16)}_${rid(40)}` } }],
    [`/workspaces/ws_${rid(16)}`, { headers: { authorization: `Bearer ak_${rid(16)}_${rid(40)}` } }],
    ["/invitations/lookup", { method: "POST", headers: json, body: JSON.stringify({ token: `iv_${rid(16)}_${rid(40)}` }) }],
    [`/workspaces/ws_${rid(16)}`, { headers: { authorization: `Bearer ${OPERATOR}` } }],
  ];
  const [path, init] = kinds[kind % kinds.length]!;
  return [`${base}${path}`, init];
}

let dir = "";
let running: { base: string; dispose(): Promise<void> } | undefined;
/** Wrong keys a sign-in throttle object keeps, here for seconds instead of a day (SIGN_IN_FORGET_SECONDS). */
const FORGET_SECONDS = 4;
const start = () =>
  startWorkerd({
    scriptPath: ".wrangler/browser-test-build/index.js",
    adminToken: OPERATOR,
    persistDir: dir,
    embedderProcesses: 1,
    dashboard: false,
    vars: { SIGN_IN_FORGET_SECONDS: String(FORGET_SECONDS) },
  });
const THROTTLE_DIR = "/do/main-SignInThrottle/";

/**
 * Guesses of the operator token: a real target, so each client's wrong keys are counted (exactly,
 * in a throttle object per client) until the count is forgotten. 40 IPv4 clients twice each, and
 * one IPv6 client writing its /64 three ways (one object). Returns the clients' count.
 */
async function guessOperator(base: string): Promise<number> {
  const clients = [
    ...Array.from({ length: 40 }, (_, i) => [`203.0.113.${i}`, `203.0.113.${i}`]).flat(),
    "2001:db8:7:1::1",
    "2001:0db8:0007:0001::2",
    "2001:db8:7:1:ffff::3",
  ];
  for (const ip of clients) {
    const res = await fetch(`${base}/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, "cf-connecting-ip": ip },
      body: JSON.stringify({ key: `guess-${rid(20)}` }),
    });
    expect(res.status).toBe(401);
    await res.arrayBuffer();
  }
  return 41;
}
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "oc-disk-"));
});
afterAll(async () => {
  await running?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("strangers cannot create storage (on disk)", () => {
  // Three workerd starts and 10,000 requests: minutes on a busy two-core machine.
  it(
    "10,000 requests with random ids, tokens, keys and sessions to every kind of path leave the state on disk as it was; operator guesses are forgotten",
    { timeout: 300_000 },
    async () => {
      // A real site first, so the service has state of its own to keep; then a clean shutdown, so
      // what is on disk is the state at rest (SQLite has folded its write-ahead logs in).
      running = await start();
      const made = await fetch(`${running.base}/sites`, {
        method: "POST",
        headers: { authorization: `Bearer ${OPERATOR}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Real", plan: "pro" }),
      });
      expect(made.status).toBe(201);
      const site = (await made.json()) as { site: { token: string } };
      const read = () => fetch(`${running!.base}/v1/${site.site.token}/search?q=bread`);
      expect((await read()).status).toBe(200);
      await running.dispose();
      const before = snapshot(dir);

      running = await start();
      const base = running.base;
      const statuses = new Map<number, number>();
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < 10_000; i = next++) {
          const [url, init] = strangerRequest(base, i);
          const res = await fetch(url, init);
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: 32 }, worker));
      expect([...statuses.keys()].sort()).toEqual([401, 404]);
      expect([...statuses.values()].reduce((a, b) => a + b)).toBe(10_000);
      // Then guesses of the operator token, whose counts live until they are forgotten.
      const clients = await guessOperator(base);
      const counting = [...snapshot(dir).keys()].filter((f) => f.startsWith(THROTTLE_DIR) && /[0-9a-f]{64}\.sqlite$/.test(f));
      expect(counting).toHaveLength(clients);
      await new Promise((r) => setTimeout(r, (FORGET_SECONDS + 4) * 1000));
      await running.dispose();
      running = undefined;
      const after = snapshot(dir);

      // Nothing a stranger sent left anything on disk ...
      const changed = [...new Set([...before.keys(), ...after.keys()])]
        .filter((f) => !f.startsWith(THROTTLE_DIR) && before.get(f) !== after.get(f))
        .map((f) => `${f}: ${before.get(f) ?? "none"} → ${after.get(f) ?? "none"}`);
      expect(changed).toEqual([]);
      const total = (m: Map<string, number>) =>
        [...m.entries()].filter(([f]) => !f.startsWith(THROTTLE_DIR)).reduce((a, [, b]) => a + b, 0);
      expect(total(after)).toBe(total(before));
      // ... and the counts of wrong operator keys were deleted by their alarms once forgotten: each
      // object's database is empty, one 4,096-byte header page (workerd keeps the empty file
      // locally; in production an object whose storage was deleted stores nothing).
      const objects = [...after.entries()].filter(([f]) => f.startsWith(THROTTLE_DIR) && /[0-9a-f]{64}\.sqlite$/.test(f));
      expect(objects).toHaveLength(clients);
      expect(objects.filter(([, size]) => size !== 4096)).toEqual([]);

      // And the site made before keeps working, its token as issued.
      running = await start();
      expect((await read()).status).toBe(200);
    },
  );
});
