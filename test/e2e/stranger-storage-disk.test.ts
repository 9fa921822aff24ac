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

/** One request of each kind that names a site, for a site id (and token, key, session) nobody was issued. */
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
  ];
  const [path, init] = kinds[kind % kinds.length]!;
  return [`${base}${path}`, init];
}

let dir = "";
let running: { base: string; dispose(): Promise<void> } | undefined;
const start = () =>
  startWorkerd({
    scriptPath: ".wrangler/browser-test-build/index.js",
    adminToken: OPERATOR,
    persistDir: dir,
    embedderProcesses: 1,
    dashboard: false,
  });
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
    "10,000 requests with random ids, tokens, keys and sessions to every kind of path leave the state on disk as it was",
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
      await running.dispose();
      running = undefined;
      const after = snapshot(dir);

      const changed = [...new Set([...before.keys(), ...after.keys()])]
        .filter((f) => before.get(f) !== after.get(f))
        .map((f) => `${f}: ${before.get(f) ?? "none"} → ${after.get(f) ?? "none"}`);
      expect(changed).toEqual([]);
      const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
      expect(total(after)).toBe(total(before));

      // And the site made before keeps working, its token as issued.
      running = await start();
      expect((await read()).status).toBe(200);
    },
  );
});
