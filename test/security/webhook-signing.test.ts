import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, call, callJson, expectStatus, newBlog } from "../helpers";
import { listPage } from "../fixtures/blog-pages";
import { capture, publishedPost, putPage, signedHeaders } from "../ssr-helpers";

type View = { webhookUrl: string; webhookSecret: string; webhookLegacyUrl: boolean };

async function captured() {
  const site = await newBlog("seo_engine");
  await publishedPost(site, "post", { title: "Post" });
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
  const made = await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
  return { site, capture: made.capture as unknown as View };
}

const publish = JSON.stringify({ triggerType: "site_publish" });

describe("the publish webhook: signed timestamp, each delivery once, no secret in the URL", () => {
  it("accepts a signed delivery once; a replay, an old or a future timestamp, and a wrong signature are refused", async () => {
    const { capture: c } = await captured();
    const path = new URL(c.webhookUrl).pathname;
    expect(path).not.toMatch(/[0-9a-f]{48}/);
    const headers = await signedHeaders(c.webhookSecret, publish, "msg_1");
    expect((await call("POST", path, { body: publish, headers })).status).toBe(202);
    const replay = await callJson("POST", path, { body: publish, headers });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ refresh: "ignored", reason: "duplicate delivery" });
    const old = await signedHeaders(c.webhookSecret, publish, "msg_2", Math.floor(Date.now() / 1000) - 6 * 60);
    expect((await call("POST", path, { body: publish, headers: old })).status).toBe(401);
    const future = await signedHeaders(c.webhookSecret, publish, "msg_3", Math.floor(Date.now() / 1000) + 6 * 60);
    expect((await call("POST", path, { body: publish, headers: future })).status).toBe(401);
    const other = await signedHeaders(`whsec_${btoa("someone-else's-secret")}`, publish, "msg_4");
    expect((await call("POST", path, { body: publish, headers: other })).status).toBe(401);
    // A signature for another body does not carry over.
    expect(
      (
        await call("POST", path, {
          body: JSON.stringify({ triggerType: "site_publish", x: 1 }),
          headers: { ...headers, "webhook-id": "msg_5" },
        })
      ).status,
    ).toBe(401);
  });

  it("rotation from the dashboard: the old secret and the old URL form stop working, hooks made before keep working until then", async () => {
    const { site, capture: c } = await captured();
    // A hook made before the secret left the URL (the migration marks existing captures so).
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE ssr_capture SET webhook_legacy_url = 1");
    });
    await evictDurableObject(stub);
    const before = await callJson<{ capture: View }>("GET", `/sites/${site.id}/ssr/capture`, { auth: site.adminKey });
    const legacy = new URL(before.body.capture.webhookUrl).pathname;
    expect(legacy).toMatch(new RegExp(`^/hooks/ssr/${site.id}/[0-9a-f]{48}$`));
    expect((await call("POST", legacy, { body: publish })).status).toBe(202);

    const rotated = await callJson<{ capture: View }>("POST", `/sites/${site.id}/ssr/webhook-secret`, { auth: site.adminKey });
    expect(rotated.status).toBe(200);
    const now = rotated.body.capture;
    expect(now.webhookSecret).not.toBe(c.webhookSecret);
    expect(now.webhookLegacyUrl).toBe(false);
    expect(now.webhookUrl).toBe(`${ORIGIN}/hooks/ssr/${site.id}`);
    expect((await call("POST", legacy, { body: publish })).status).toBe(404);
    const path = new URL(now.webhookUrl).pathname;
    expect((await call("POST", path, { body: publish, headers: await signedHeaders(c.webhookSecret, publish) })).status).toBe(401);
    expect((await call("POST", path, { body: publish, headers: await signedHeaders(now.webhookSecret, publish) })).status).toBe(202);
  });
});
