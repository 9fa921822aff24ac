import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, OPERATOR, type TestSite } from "./helpers";

async function siteIn(workspaceId: string): Promise<TestSite> {
  const body = await expectStatus(
    callJson<{ site: TestSite }>("POST", "/sites", { auth: OPERATOR, body: { name: "s", workspaceId } }),
    201,
  );
  await expectStatus(
    callJson("PUT", `/sites/${body.site.id}/collections/posts`, {
      auth: body.site.adminKey,
      body: { fields: [{ key: "title", type: "text", indexed: true }] },
    }),
    201,
  );
  await addItem(body.site, "posts", { slug: "one", data: { title: "One" }, publish: true });
  return body.site;
}

describe("workspaces and plans", () => {
  it("creates a workspace and puts sites in it with its plan", async () => {
    const ws = await expectStatus(
      callJson<{ workspace: { id: string; plan: string } }>("POST", "/workspaces", { auth: OPERATOR, body: { name: "Acme", plan: "pro" } }),
      201,
    );
    expect(ws.workspace.plan).toBe("pro");
    const site = await siteIn(ws.workspace.id);
    const got = await expectStatus(
      callJson<{ site: { plan: string; workspaceId: string; features: { advancedLists: boolean }; flags: { aiSearch: boolean } } }>(
        "GET",
        `/sites/${site.id}`,
        { auth: site.adminKey },
      ),
      200,
    );
    expect(got.site).toMatchObject({
      plan: "pro",
      workspaceId: ws.workspace.id,
      features: { advancedLists: true },
      flags: { aiSearch: true },
    });
  });

  it("rejects a bad plan and an unknown workspace", async () => {
    expect((await callJson("POST", "/workspaces", { auth: OPERATOR, body: { name: "A", plan: "gold" } })).status).toBe(400);
    expect((await callJson("POST", "/sites", { auth: OPERATOR, body: { name: "A", workspaceId: "ws_aaaaaaaaaaaaaaaa" } })).status).toBe(
      404,
    );
    expect((await callJson("PATCH", "/workspaces/ws_aaaaaaaaaaaaaaaa", { auth: OPERATOR, body: { plan: "pro" } })).status).toBe(404);
  });

  it("reaches every site of the workspace at once when the plan changes", async () => {
    const ws = await expectStatus(
      callJson<{ workspace: { id: string } }>("POST", "/workspaces", { auth: OPERATOR, body: { name: "Acme", plan: "starter" } }),
      201,
    );
    const a = await siteIn(ws.workspace.id);
    const b = await siteIn(ws.workspace.id);
    const filtered = (s: TestSite) =>
      callJson<{ error?: { code: string } }>("GET", `/v1/${s.token}/collections/posts/items?filter[title]=One`);
    for (const s of [a, b]) {
      const r = await filtered(s);
      expect(r.status).toBe(403);
      expect(r.body.error?.code).toBe("plan_required");
    }
    await expectStatus(callJson("PATCH", `/workspaces/${ws.workspace.id}`, { auth: OPERATOR, body: { plan: "pro" } }), 200);
    for (const s of [a, b]) expect((await filtered(s)).status).toBe(200);
    await expectStatus(callJson("PATCH", `/workspaces/${ws.workspace.id}`, { auth: OPERATOR, body: { plan: "starter" } }), 200);
    // The 200 above was cached; the downgrade must still refuse at once.
    for (const s of [a, b]) expect((await filtered(s)).status).toBe(403);
  });
});
