import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, call, callJson, expectStatus, newBlog } from "./helpers";
import { listPage } from "./fixtures/blog-pages";
import { capture, pathOf, publishedPost, putPage, renderedHtml, signedHeaders } from "./ssr-helpers";

type CaptureView = { webhookUrl: string; refreshedAt: string; lastRefresh: { ok: boolean; trigger: string; error?: string } | null };

async function setup(opts: { webhookSigningSecret?: string } = {}) {
  const site = await newBlog("seo_engine");
  await publishedPost(site, "post", { title: "Post" });
  const path = `/r-${crypto.randomUUID().slice(0, 8)}/blog/`;
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token, title: "Version one" }), { path });
  const { body } = await expectStatus(capture(site, { pageUrl, collection: "posts", ...opts }), 201).then((b) => ({ body: b }));
  const stub = env.SITE.get(env.SITE.idFromName(site.id));
  const view = async () =>
    (await callJson<{ capture: CaptureView }>("GET", `/sites/${site.id}/ssr/capture`, { auth: site.adminKey })).body.capture;
  const republish = (title: string) => putPage(listPage({ service: ORIGIN, token: site.token, title }), { path });
  const webhookSecret = body.capture.webhookSecret;
  /** A publish call as the builder sends it: signed with the site's webhook secret. */
  const hook = async (payload: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(payload);
    return call("POST", new URL(body.capture.webhookUrl).pathname, {
      body: text,
      headers: { ...(await signedHeaders(webhookSecret, text)), ...headers },
    });
  };
  return { site, pageUrl, path, stub, view, republish, webhookUrl: body.capture.webhookUrl, webhookSecret, hook };
}

const titleOf = async (site: Awaited<ReturnType<typeof setup>>["site"], path: string) =>
  /<title>([^<]*)<\/title>/.exec((await renderedHtml(site, path)).html)?.[1];

describe("refreshing the captured page", () => {
  it("on POST /ssr/refresh re-fetches the page and the rendered pages follow", async () => {
    const t = await setup();
    expect(await titleOf(t.site, t.path)).toBe("Version one");
    await t.republish("Version two");
    const { status, body } = await callJson<{ capture: CaptureView }>("POST", `/sites/${t.site.id}/ssr/refresh`, { auth: t.site.adminKey });
    expect(status).toBe(200);
    expect(body.capture.lastRefresh).toMatchObject({ ok: true, trigger: "manual" });
    expect(await titleOf(t.site, t.path)).toBe("Version two");
  });

  it("keeps the site's cached pages when a refresh finds the same page, and retires them when it changed", async () => {
    const t = await setup();
    // Let the jobs the set-up queued (document rebuilds) run first: they retire cached pages too.
    const due = () =>
      runInDurableObject(
        t.stub,
        (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM jobs WHERE run_at <= ?", Date.now()).one().n,
      );
    for (let i = 0; i < 50 && (await due()) > 0; i++) if (!(await runDurableObjectAlarm(t.stub))) await scheduler.wait(20);
    const version = () =>
      runInDurableObject(t.stub, (_i, state) => state.storage.sql.exec<{ v: number }>("SELECT cache_version AS v FROM site").one().v);
    const before = await version();
    await expectStatus(callJson("POST", `/sites/${t.site.id}/ssr/refresh`, { auth: t.site.adminKey }), 200);
    expect(await version()).toBe(before);
    await t.republish("Version two");
    await expectStatus(callJson("POST", `/sites/${t.site.id}/ssr/refresh`, { auth: t.site.adminKey }), 200);
    expect(await version()).toBeGreaterThan(before);
  });

  it("keeps the last good template and records the error when the page breaks", async () => {
    const t = await setup();
    await putPage("<html><body>maintenance</body></html>", { path: t.path });
    const { status, body } = await callJson<{ error: { code: string; message: string } }>("POST", `/sites/${t.site.id}/ssr/refresh`, {
      auth: t.site.adminKey,
    });
    expect(status).toBe(422);
    expect(body.error.code).toBe("capture_failed");
    const view = await t.view();
    expect(view.lastRefresh).toMatchObject({ ok: false, trigger: "manual" });
    expect(view.lastRefresh?.error).toContain('data-oc-list="posts"');
    expect(await titleOf(t.site, t.path)).toBe("Version one");
  });

  it("on the builder's webhook: queued, then run by the alarm", async () => {
    const t = await setup();
    await t.republish("From webhook");
    const res = await t.hook({ triggerType: "site_publish", payload: {} });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ refresh: "queued" });
    expect(await runDurableObjectAlarm(t.stub)).toBe(true);
    expect((await t.view()).lastRefresh).toMatchObject({ ok: true, trigger: "webhook" });
    expect(await titleOf(t.site, t.path)).toBe("From webhook");
  });

  it("ignores other builder events and refuses a wrong webhook secret", async () => {
    const t = await setup();
    const hook = new URL(t.webhookUrl).pathname;
    expect(await (await t.hook({ triggerType: "form_submission" })).json()).toMatchObject({ refresh: "ignored" });
    // A capture made now has no secret-in-URL form at all, and unsigned calls are refused.
    expect((await callJson("POST", `${hook}/${"0".repeat(48)}`, { body: {} })).status).toBe(404);
    expect((await callJson("POST", hook, { body: {} })).status).toBe(401);
    expect((await callJson("POST", `/hooks/ssr/nosuchsite/${"0".repeat(48)}`, { body: {} })).status).toBe(404);
  });

  it("verifies the builder's signature when a signing secret is configured", async () => {
    const secret = "whsec_test_signing_secret";
    const t = await setup({ webhookSigningSecret: secret });
    const hook = new URL(t.webhookUrl).pathname;
    const body = JSON.stringify({ triggerType: "site_publish" });
    const ts = String(Date.now());
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${ts}:${body}`));
    const signature = [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const send = (sig: string, time = ts) =>
      call("POST", hook, { body, headers: { "x-webflow-timestamp": time, "x-webflow-signature": sig } });
    expect((await send(signature)).status).toBe(202);
    expect((await send("0".repeat(64))).status).toBe(401);
    expect((await send(signature, String(Date.now() - 3_600_000))).status).toBe(401);
    expect((await call("POST", hook, { body })).status).toBe(401);
    // The same signed delivery again (a replay within its 5 minutes) does nothing.
    const replay = await send(signature);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ refresh: "ignored", reason: "duplicate delivery" });
  });

  it("retries a failed webhook refresh with backoff through the jobs table", async () => {
    const t = await setup();
    await putPage("gone", { path: t.path, status: 500 });
    await t.hook({});
    await runDurableObjectAlarm(t.stub);
    const job = await runInDurableObject(t.stub, (_i, state) =>
      state.storage.sql
        .exec<{ attempts: number; run_at: number; last_error: string }>("SELECT * FROM jobs WHERE kind = 'ssr-webhook'")
        .one(),
    );
    expect(job.attempts).toBe(1);
    expect(job.run_at).toBeGreaterThan(Date.now());
    expect(job.last_error).toContain("HTTP 500");
    expect((await t.view()).lastRefresh).toMatchObject({ ok: false, trigger: "webhook" });
    expect(await titleOf(t.site, t.path)).toBe("Version one");
  });

  it("runs nightly from the alarm and re-arms for the next night", async () => {
    const t = await setup();
    await t.republish("Nightly");
    const before = await runInDurableObject(t.stub, async (_i, state) => {
      const row = state.storage.sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'ssr-nightly'").one();
      state.storage.sql.exec("UPDATE jobs SET run_at = ? WHERE kind = 'ssr-nightly'", Date.now() - 1000);
      await state.storage.setAlarm(Date.now() - 1000);
      return row.run_at;
    });
    expect(before).toBeGreaterThan(Date.now());
    expect(await runDurableObjectAlarm(t.stub)).toBe(true);
    expect((await t.view()).lastRefresh).toMatchObject({ ok: true, trigger: "nightly" });
    expect(await titleOf(t.site, t.path)).toBe("Nightly");
    // The changed page queued a sitemap/feed rebuild due now; once it ran, the alarm waits for the next night.
    await runDurableObjectAlarm(t.stub);
    const next = await runInDurableObject(t.stub, async (_i, state) => ({
      job: state.storage.sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'ssr-nightly'").one().run_at,
      alarm: await state.storage.getAlarm(),
    }));
    expect(next.job).toBeGreaterThan(Date.now() + 60_000);
    expect(new Date(next.job).getUTCHours()).toBe(3);
    expect(next.alarm).toBe(next.job);
  });

  it("a capture of a collection that is later deleted fails refresh clearly", async () => {
    const t = await setup();
    await callJson("DELETE", `/sites/${t.site.id}/collections/posts`, { auth: t.site.adminKey });
    const { status, body } = await callJson<{ error: { message: string } }>("POST", `/sites/${t.site.id}/ssr/refresh`, {
      auth: t.site.adminKey,
    });
    expect(status).toBe(422);
    expect(body.error.message).toContain("no longer exists");
    expect(pathOf(t.pageUrl)).toBe(t.path);
  });
});
