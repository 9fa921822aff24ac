import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { addItem, callJson, expectStatus, newBlog, type TestSite } from "../helpers";
import { MAX_ATTEMPTS } from "../../actors/site/webhooks/schedule";

const RECEIVER = inject("webhookReceiver");

interface Received {
  headers: Record<string, string>;
  body: string;
}
interface Delivery {
  eventId: string;
  waitsFor: { eventId: string; type: string } | null;
  type: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastResponseHead: string | null;
}
interface Endpoint {
  id: string;
  state: string;
  disabledReason: string | null;
}

const box = () => `b${crypto.randomUUID().slice(0, 8)}`;
const received = async (name: string): Promise<Received[]> => (await fetch(`${RECEIVER}/__received/${name}`)).json();
const script = async (name: string, answers: unknown[]) => {
  expect((await fetch(`${RECEIVER}/__script/${name}`, { method: "PUT", body: JSON.stringify(answers) })).status).toBe(204);
};
const typeOf = (r: Received) => (JSON.parse(r.body) as { type: string }).type;
const stubOf = (site: TestSite) => env.SITE.get(env.SITE.idFromName(site.id));

/** Waits (bounded) until `check` holds: deliveries happen on the site's alarm, after the request answered. */
async function until<T>(what: string, read: () => Promise<T>, check: (v: T) => boolean, seconds = 15): Promise<T> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const v = await read();
    if (check(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function addEndpoint(site: TestSite, name: string, events: string[]): Promise<{ endpoint: Endpoint; secret: string }> {
  return expectStatus(
    callJson<{ endpoint: Endpoint; secret: string }>("POST", `/sites/${site.id}/webhooks`, {
      auth: site.adminKey,
      body: { url: `${RECEIVER}/hooks/${name}`, events, description: "test receiver" },
    }),
    201,
  );
}

const deliveries = async (site: TestSite, endpointId: string): Promise<Delivery[]> =>
  (
    await expectStatus(
      callJson<{ deliveries: Delivery[] }>("GET", `/sites/${site.id}/webhooks/${endpointId}/deliveries`, { auth: site.adminKey }),
      200,
    )
  ).deliveries;

/** Makes every waiting retry due now and runs the site's alarm (instead of waiting out the schedule). */
async function retryNow(site: TestSite): Promise<void> {
  const stub = stubOf(site);
  await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => {
    state.storage.sql.exec("UPDATE outbound_deliveries SET next_at = 0 WHERE state = 'pending'");
    state.storage.sql.exec("UPDATE jobs SET run_at = 0 WHERE kind = 'webhooks'");
    void state.storage.setAlarm(Date.now());
  });
  await runDurableObjectAlarm(stub);
}

describe("outbound webhooks: signed events after the change commits", () => {
  it("sends item events the receiver's library verifies, in order, and shows the secret once", async () => {
    const site = await newBlog();
    const name = box();
    const { endpoint, secret } = await addEndpoint(site, name, ["item.created", "item.published", "item.deleted"]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await expectStatus(
      callJson<{ endpoints: unknown[] }>("GET", `/sites/${site.id}/webhooks`, { auth: site.adminKey }),
      200,
    );
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));

    const item = await addItem(site, "posts", { slug: "hello", data: { title: 'Ünïcödé "q"' }, publish: true });
    const got = await until(
      "two deliveries",
      () => received(name),
      (r) => r.length >= 2,
    );
    const wh = new Webhook(secret);
    const events = got.map((r) => wh.verify(r.body, r.headers) as { type: string; data: { item: { id: string; slug: string } } });
    expect(events.map((e) => e.type)).toEqual(["item.created", "item.published"]);
    expect(events[1]!.data.item).toMatchObject({ id: item.id, slug: "hello" });
    expect(got[0]!.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got[0]!.headers["webhook-id"]).not.toBe(got[1]!.headers["webhook-id"]);
    // A tampered body fails the library's check.
    expect(() => wh.verify(got[0]!.body.replace("hello", "hellp"), got[0]!.headers)).toThrow();

    const log = await until(
      "delivered",
      () => deliveries(site, endpoint.id),
      (d) => d.length === 2 && d.every((x) => x.state === "delivered"),
    );
    expect(log[0]).toMatchObject({ lastStatus: 200, lastResponseHead: "ok", attempts: 1 });
    // Not subscribed: item.updated sends nothing; then a delete is sent.
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, { auth: site.adminKey, body: { data: { title: "x" } } }),
      200,
    );
    await expectStatus(callJson("DELETE", `/sites/${site.id}/collections/posts/items/${item.id}`, { auth: site.adminKey }), 200);
    const all = await until(
      "the delete",
      () => received(name),
      (r) => r.length >= 3,
    );
    expect(all.map(typeOf)).toEqual(["item.created", "item.published", "item.deleted"]);
  });

  it("retries a 500 with the same webhook-id and a fresh signature", async () => {
    const site = await newBlog();
    const name = box();
    await script(name, [{ status: 500, body: "receiver broke" }]);
    const { endpoint, secret } = await addEndpoint(site, name, ["item.created"]);
    await addItem(site, "posts", { slug: "retry", data: { title: "Retry" } });
    const first = await until(
      "first attempt",
      () => deliveries(site, endpoint.id),
      // Counted when it goes out; its answer is recorded when it comes back.
      (d) => d[0]?.attempts === 1 && d[0].lastStatus !== null,
    );
    expect(first[0]).toMatchObject({ state: "pending", lastStatus: 500, lastResponseHead: "receiver broke" });
    await retryNow(site);
    const got = await until(
      "second attempt",
      () => received(name),
      (r) => r.length >= 2,
    );
    expect(got[1]!.headers["webhook-id"]).toBe(got[0]!.headers["webhook-id"]);
    for (const r of got) new Webhook(secret).verify(r.body, r.headers);
    const after = await until(
      "delivered",
      () => deliveries(site, endpoint.id),
      (d) => d[0]?.state === "delivered",
    );
    expect(after[0]!.attempts).toBe(2);
  });

  it("says in words what to check when the receiver cannot be reached", async () => {
    const site = await newBlog();
    // The receiver's host on a port where nothing listens: the connection is refused.
    const closed = new URL(RECEIVER);
    closed.port = "9";
    const { endpoint } = await expectStatus(
      callJson<{ endpoint: Endpoint }>("POST", `/sites/${site.id}/webhooks`, {
        auth: site.adminKey,
        body: { url: `${closed.origin}/hooks/${box()}`, events: ["item.created"] },
      }),
      201,
    );
    await addItem(site, "posts", { slug: "nobody-home", data: { title: "Nobody home" } });
    const [d] = await until(
      "a failed attempt",
      () => deliveries(site, endpoint.id),
      (list) => list[0]?.lastError != null,
    );
    expect(d!.lastStatus).toBeNull();
    expect(d!.lastError).toMatch(
      new RegExp(
        `^unreachable: could not connect to ${closed.host.replace(/\./g, "\\.")}\\. Check the address and that the receiver is up`,
      ),
    );
  });

  it("counts a receiver slower than the timeout as a failure and retries it", async () => {
    const site = await newBlog();
    const name = box();
    await script(name, [{ status: 200, body: "too late", delayMs: 5000 }]);
    const { endpoint } = await addEndpoint(site, name, ["item.created"]);
    await addItem(site, "posts", { slug: "slow", data: { title: "Slow" } });
    const first = await until(
      "timed out",
      () => deliveries(site, endpoint.id),
      (d) => d[0]?.lastError !== null && d[0]?.attempts === 1,
    );
    expect(first[0]!.lastError).toMatch(/^timeout/);
    expect(first[0]!.state).toBe("pending");
    await retryNow(site);
    await until(
      "delivered on retry",
      () => deliveries(site, endpoint.id),
      (d) => d[0]?.state === "delivered",
    );
  });

  it("keeps one item's events in order while an earlier one is being retried", async () => {
    const site = await newBlog();
    const name = box();
    const item = await addItem(site, "posts", { slug: "ordered", data: { title: "Ordered" } });
    await script(name, [{ status: 500 }]);
    const { endpoint } = await addEndpoint(site, name, ["item.published", "item.updated", "item.unpublished"]);
    const other = await addItem(site, "posts", { slug: "other", data: { title: "Other" } });
    const base = `/sites/${site.id}/collections/posts/items/${item.id}`;
    await expectStatus(callJson("POST", `${base}/publish`, { auth: site.adminKey }), 200);
    await until(
      "the publish failed once",
      () => deliveries(site, endpoint.id),
      (d) => d.some((x) => x.type === "item.published" && x.attempts === 1),
    );
    await expectStatus(callJson("PATCH", base, { auth: site.adminKey, body: { data: { title: "Ordered, edited" } } }), 200);
    await expectStatus(callJson("POST", `${base}/unpublish`, { auth: site.adminKey }), 200);
    // Another item is not held back by this one's retry.
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${other.id}/publish`, { auth: site.adminKey }), 200);
    await until(
      "the other item's publish",
      () => received(name),
      (r) => r.some((x) => x.body.includes(other.id)),
    );
    const mine = (await received(name)).filter((r) => r.body.includes(item.id));
    expect(mine.map(typeOf)).toEqual(["item.published"]);
    // The held deliveries say which event they wait for; the one being retried waits for none.
    const log = await deliveries(site, endpoint.id);
    const head = log.find((d) => d.type === "item.published" && d.state === "pending")!;
    expect(head.waitsFor).toBeNull();
    expect(log.filter((d) => d.type !== "item.published").map((d) => [d.type, d.state, d.waitsFor])).toEqual([
      ["item.unpublished", "pending", { eventId: head.eventId, type: "item.published" }],
      ["item.updated", "pending", { eventId: head.eventId, type: "item.published" }],
    ]);
    expect(log.filter((d) => d.type === "item.published" && d.state !== "pending").map((d) => d.waitsFor)).toEqual([null]);
    await retryNow(site);
    const all = await until(
      "all of the item's events",
      () => received(name),
      (r) => r.filter((x) => x.body.includes(item.id)).length >= 4,
    );
    expect(all.filter((r) => r.body.includes(item.id)).map(typeOf)).toEqual([
      "item.published",
      "item.published",
      "item.updated",
      "item.unpublished",
    ]);
  });

  it("keeps a waiting retry across a restart of the site object", async () => {
    const site = await newBlog();
    const name = box();
    await script(name, [{ status: 503 }]);
    const { endpoint, secret } = await addEndpoint(site, name, ["item.created"]);
    await addItem(site, "posts", { slug: "restart", data: { title: "Restart" } });
    await until(
      "the first attempt failed",
      () => deliveries(site, endpoint.id),
      (d) => d[0]?.attempts === 1,
    );
    await evictDurableObject(stubOf(site));
    // After the restart: the delivery, its job and the alarm that runs it are all still there.
    const kept = await runInDurableObject(stubOf(site), async (_i: unknown, state: DurableObjectState) => ({
      pending: state.storage.sql.exec<{ next_at: number }>("SELECT next_at FROM outbound_deliveries WHERE state = 'pending'").toArray(),
      job: state.storage.sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'webhooks'").toArray(),
      alarm: await state.storage.getAlarm(),
    }));
    expect(kept.pending).toHaveLength(1);
    expect(kept.job[0]?.run_at).toBe(kept.pending[0]!.next_at);
    expect(kept.alarm).toBeLessThanOrEqual(kept.pending[0]!.next_at);
    await retryNow(site);
    const got = await until(
      "delivered after the restart",
      () => received(name),
      (r) => r.length >= 2,
    );
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    new Webhook(secret).verify(got[1]!.body, got[1]!.headers);
    await until(
      "recorded as delivered",
      () => deliveries(site, endpoint.id),
      (d) => d[0]?.state === "delivered",
    );
  });

  it("disables an endpoint at once on 410 Gone, and never follows a redirect", async () => {
    const site = await newBlog();
    const gone = box();
    await script(gone, [{ status: 410 }]);
    const a = await addEndpoint(site, gone, ["item.created"]);
    const moved = box();
    const target = box();
    await script(moved, [{ status: 302, headers: { location: `${RECEIVER}/hooks/${target}` } }]);
    const b = await addEndpoint(site, moved, ["item.created"]);
    await addItem(site, "posts", { slug: "one", data: { title: "One" } });
    const ep = await until(
      "disabled",
      async () =>
        (
          await expectStatus(
            callJson<{ endpoint: Endpoint }>("GET", `/sites/${site.id}/webhooks/${a.endpoint.id}`, { auth: site.adminKey }),
            200,
          )
        ).endpoint,
      (e) => e.state === "disabled",
    );
    expect(ep.disabledReason).toBe("gone");
    const redirected = await until(
      "the 302",
      () => deliveries(site, b.endpoint.id),
      (d) => d[0]?.lastStatus === 302,
    );
    expect(redirected[0]).toMatchObject({ state: "pending", lastError: "redirect not followed" });
    expect(await received(target)).toEqual([]);
    // A disabled endpoint gets no new deliveries.
    await addItem(site, "posts", { slug: "two", data: { title: "Two" } });
    await until(
      "the second item reached the enabled endpoint's queue",
      () => deliveries(site, b.endpoint.id),
      (d) => d.length === 2,
    );
    expect(await deliveries(site, a.endpoint.id)).toHaveLength(1);
    expect((await received(gone)).length).toBe(1);
  });

  it("disables an endpoint whose delivery failed every attempt of the schedule", async () => {
    const site = await newBlog();
    const name = box();
    await script(name, [{ status: 503 }, { status: 503 }]);
    const { endpoint } = await addEndpoint(site, name, ["item.created"]);
    await addItem(site, "posts", { slug: "fails", data: { title: "Fails" } });
    await until(
      "first failure",
      () => deliveries(site, endpoint.id),
      (d) => d[0]?.attempts === 1,
    );
    // Skip to the last attempt of the schedule (about three days later).
    await runInDurableObject(stubOf(site), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE outbound_deliveries SET attempts = ?", MAX_ATTEMPTS - 1);
    });
    await retryNow(site);
    const d = await until(
      "failed",
      () => deliveries(site, endpoint.id),
      (x) => x[0]?.state === "failed",
    );
    expect(d[0]!.attempts).toBe(MAX_ATTEMPTS);
    const ep = (
      await expectStatus(callJson<{ endpoint: Endpoint }>("GET", `/sites/${site.id}/webhooks/${endpoint.id}`, { auth: site.adminKey }), 200)
    ).endpoint;
    expect(ep).toMatchObject({ state: "disabled", disabledReason: "failing" });
    // Enabled again and redelivered: a new schedule, delivered.
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/webhooks/${endpoint.id}`, { auth: site.adminKey, body: { enabled: true } }),
      200,
    );
    const r = await expectStatus(
      callJson<{ delivery: Delivery }>("POST", `/sites/${site.id}/webhooks/${endpoint.id}/deliveries/${d[0]!.eventId}/redeliver`, {
        auth: site.adminKey,
      }),
      202,
    );
    expect(r.delivery).toMatchObject({ state: "pending", attempts: 0 });
    await until(
      "delivered",
      () => deliveries(site, endpoint.id),
      (x) => x[0]?.state === "delivered",
    );
  });

  it("signs with both secrets during a rotation's overlap, and sends a test event on request", async () => {
    const site = await newBlog();
    const name = box();
    const { endpoint, secret: old } = await addEndpoint(site, name, ["item.created"]);
    const rotated = await expectStatus(
      callJson<{ secret: string; endpoint: { previousSecretUntil: string | null } }>(
        "POST",
        `/sites/${site.id}/webhooks/${endpoint.id}/rotate-secret`,
        {
          auth: site.adminKey,
          body: { overlapHours: 2 },
        },
      ),
      200,
    );
    expect(rotated.secret).not.toBe(old);
    expect(rotated.endpoint.previousSecretUntil).not.toBeNull();
    const t = await expectStatus(
      callJson<{ delivery: Delivery }>("POST", `/sites/${site.id}/webhooks/${endpoint.id}/test`, { auth: site.adminKey }),
      202,
    );
    expect(t.delivery.type).toBe("webhook.test");
    const [got] = await until(
      "the test event",
      () => received(name),
      (r) => r.length >= 1,
    );
    expect(got!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect((new Webhook(rotated.secret).verify(got!.body, got!.headers) as { type: string }).type).toBe("webhook.test");
    new Webhook(old).verify(got!.body, got!.headers);
    const detail = await until(
      "the attempt in the log",
      () =>
        expectStatus(
          callJson<{ payload: string; attempts: { status: number }[] }>(
            "GET",
            `/sites/${site.id}/webhooks/${endpoint.id}/deliveries/${t.delivery.eventId}`,
            { auth: site.adminKey },
          ),
          200,
        ),
      (x) => x.attempts.length === 1,
    );
    expect(detail.payload).toBe(got!.body);
    // The audit log names each change.
    const ops = await runInDurableObject(stubOf(site), (_i: unknown, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ operation: string }>("SELECT operation FROM audit WHERE kind = 'Webhooks' ORDER BY seq")
        .toArray()
        .map((r) => r.operation),
    );
    expect(ops).toEqual(["createWebhookEndpoint", "rotateWebhookEndpointSecret", "sendWebhookTest"]);
  });

  it("announces collection changes, and nothing for a write that was refused", async () => {
    const site = await newBlog();
    const name = box();
    await addEndpoint(site, name, ["collection.created", "collection.updated", "collection.deleted", "item.created"]);
    // One bad item refuses the whole batch: no item is written, so no event either.
    const refused = await callJson("POST", `/sites/${site.id}/collections/posts/items:batch`, {
      auth: site.adminKey,
      body: {
        items: [
          { slug: "fine", data: { title: "Fine" } },
          { slug: "bad", data: { views: "many" } },
        ],
      },
    });
    expect(refused.status).toBe(400);
    const fields = [{ key: "name", type: "text", required: true }];
    await expectStatus(callJson("PUT", `/sites/${site.id}/collections/tags`, { auth: site.adminKey, body: { name: "Tags", fields } }), 201);
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/tags`, { auth: site.adminKey, body: { name: "Labels", fields } }),
      200,
    );
    await expectStatus(callJson("DELETE", `/sites/${site.id}/collections/tags`, { auth: site.adminKey }), 200);
    const got = await until(
      "three collection events",
      () => received(name),
      (r) => r.length >= 3,
    );
    expect(got.map(typeOf)).toEqual(["collection.created", "collection.updated", "collection.deleted"]);
    expect(JSON.parse(got[1]!.body).data.collection).toMatchObject({ slug: "tags", name: "Labels" });
  });

  it("checks the receiver's URL at registration and again before every attempt", async () => {
    const site = await newBlog();
    const bad = await callJson<{ error: { code: string; details: { reason: string } } }>("POST", `/sites/${site.id}/webhooks`, {
      auth: site.adminKey,
      body: { url: "ftp://example.com/hook", events: ["item.created"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.reason).toBe("bad_url");
    const name = box();
    const { endpoint } = await addEndpoint(site, name, ["item.created"]);
    // The stored URL stops passing the rules (as a name re-pointed after registration would).
    await runInDurableObject(stubOf(site), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE webhook_endpoints SET url = ?", `https://user:pw@127.0.0.1/hooks/${name}`);
    });
    await addItem(site, "posts", { slug: "checked", data: { title: "Checked" } });
    const d = await until(
      "refused attempt",
      () => deliveries(site, endpoint.id),
      (x) => x[0]?.attempts === 1,
    );
    expect(d[0]!.lastError).toMatch(/^bad_url/);
    expect(d[0]!.lastStatus).toBeNull();
    expect(await received(name)).toEqual([]);
  });
});
