import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { addItem, callJson, expectStatus, newBlog, type TestSite } from "../helpers";

const RECEIVER = inject("webhookReceiver");
const stubOf = (site: TestSite) => env.SITE.get(env.SITE.idFromName(site.id));
const box = () => `t${crypto.randomUUID().slice(0, 8)}`;
const received = async (name: string): Promise<unknown[]> => (await fetch(`${RECEIVER}/__received/${name}`)).json();

async function waitFor<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const v = await read();
    if (ok(v)) return v;
    await scheduler.wait(100);
  }
  throw new Error(`${what} never happened`);
}

async function endpointFor(site: TestSite, name: string): Promise<string> {
  const body = await expectStatus(
    callJson<{ endpoint: { id: string } }>("POST", `/sites/${site.id}/webhooks`, {
      auth: site.adminKey,
      body: { url: `${RECEIVER}/hooks/${name}`, events: ["item.created"] },
    }),
    201,
  );
  return body.endpoint.id;
}

describe("outbound webhooks: slowing down and the log's retention", () => {
  it("holds back the whole endpoint after 429 with Retry-After, not just the one delivery", async () => {
    const site = await newBlog();
    const name = box();
    const script = [{ status: 429, body: "slow down", headers: { "retry-after": "120" } }];
    expect((await fetch(`${RECEIVER}/__script/${name}`, { method: "PUT", body: JSON.stringify(script) })).status).toBe(204);
    const id = await endpointFor(site, name);
    await addItem(site, "authors", { slug: "first", data: { name: "First" } });
    await waitFor(
      "the first attempt",
      () => received(name),
      (r) => r.length === 1,
    );
    const ep = await waitFor(
      "the endpoint slowed down",
      async () =>
        (
          await callJson<{ endpoint: { throttledUntil: string | null } }>("GET", `/sites/${site.id}/webhooks/${id}`, {
            auth: site.adminKey,
          })
        ).body.endpoint,
      (e) => e.throttledUntil !== null,
    );
    expect(Date.parse(ep.throttledUntil!) - Date.now()).toBeGreaterThan(100_000);
    // A new event for the same endpoint (another item, so not held by order) waits too.
    await addItem(site, "authors", { slug: "second", data: { name: "Second" } });
    await runDurableObjectAlarm(stubOf(site));
    await scheduler.wait(300);
    expect(await received(name)).toHaveLength(1);
    await runInDurableObject(stubOf(site), (_i, state) => {
      const due = state.storage.sql
        .exec<{ t: number }>("SELECT min(next_at) AS t FROM outbound_deliveries WHERE state = 'pending'")
        .one().t;
      expect(due).toBeLessThan(Date.now() + 1000); // the second one's own time is now: the endpoint's pause holds it
      // The pause ends: both go.
      state.storage.sql.exec("UPDATE webhook_endpoints SET throttled_until = 0");
      state.storage.sql.exec("UPDATE outbound_deliveries SET next_at = 0 WHERE state = 'pending'");
      state.storage.sql.exec("UPDATE jobs SET run_at = 0 WHERE kind = 'webhooks'");
      void state.storage.setAlarm(Date.now());
    });
    await waitFor(
      "both delivered",
      () => received(name),
      (r) => r.length === 3,
    );
  });

  it("removes deliveries, attempts and events older than 30 days on the daily job, keeping newer and pending ones", async () => {
    const site = await newBlog();
    const name = box();
    await endpointFor(site, name);
    await addItem(site, "authors", { slug: "old", data: { name: "Old" } });
    await waitFor(
      "delivered",
      () => received(name),
      (r) => r.length === 1,
    );
    await addItem(site, "authors", { slug: "new", data: { name: "New" } });
    await waitFor(
      "delivered",
      () => received(name),
      (r) => r.length === 2,
    );
    const long = Date.now() - 31 * 86_400_000;
    await runInDurableObject(stubOf(site), (_i, state) => {
      const sql = state.storage.sql;
      const first = sql.exec<{ seq: number }>("SELECT min(seq) AS seq FROM webhook_events").one().seq;
      sql.exec("UPDATE outbound_deliveries SET done_at = ? WHERE event_seq = ?", long, first);
      sql.exec("UPDATE webhook_events SET created_at = ? WHERE seq = ?", long, first);
      expect(sql.exec("SELECT 1 FROM jobs WHERE kind = 'webhooks-prune'").toArray()).toHaveLength(1);
      sql.exec("UPDATE jobs SET run_at = 0 WHERE kind = 'webhooks-prune'");
    });
    await runDurableObjectAlarm(stubOf(site));
    await runInDurableObject(stubOf(site), (_i, state) => {
      const sql = state.storage.sql;
      const n = (t: string) => sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${t}`).one().n;
      expect(n("outbound_deliveries")).toBe(1);
      expect(n("outbound_attempts")).toBe(1);
      expect(n("webhook_events")).toBe(1);
      // The job comes back tomorrow.
      const next = sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'webhooks-prune'").one().run_at;
      expect(next).toBeGreaterThan(Date.now() + 86_000_000);
    });
  });
});
