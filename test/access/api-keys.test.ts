import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { callJson, expectStatus, OPERATOR } from "../helpers";
import { type TwoSites, workspaceWithTwoSites } from "./workspace-fixture";

async function newKey(workspaceId: string, body: Record<string, unknown>, auth = OPERATOR) {
  return callJson<{ apiKey: { id: string; key: string; name: string; lastUsedAt: string | null }; error?: { code: string } }>(
    "POST",
    `/workspaces/${workspaceId}/api-keys`,
    { auth, body },
  );
}

let m: TwoSites;
beforeAll(async () => {
  m = await workspaceWithTwoSites("Acme");
});

describe("workspace API keys", () => {
  it("a read key reads but cannot write (403 naming the permission)", async () => {
    const { apiKey } = await expectStatus(newKey(m.workspaceId, { name: "reporting", scope: "read" }), 201);
    expect(apiKey.key).toMatch(/^ak_[a-z2-7]{16}_[a-z2-7]{40}$/);
    expect((await callJson("GET", `/sites/${m.a.id}/collections`, { auth: apiKey.key })).status).toBe(200);
    const w = await callJson<{ error: { code: string; details: { permission: string } } }>(
      "POST",
      `/sites/${m.a.id}/collections/posts/items`,
      {
        auth: apiKey.key,
        body: { slug: "x", data: { title: "x" } },
      },
    );
    expect(w.status).toBe(403);
    expect(w.body.error.code).toBe("forbidden");
    expect(w.body.error.details.permission).toBe("items.create");
  });

  it("a full key writes content but cannot manage members or mint keys", async () => {
    const { apiKey } = await expectStatus(newKey(m.workspaceId, { name: "deploy script", scope: "full" }), 201);
    await expectStatus(
      callJson("POST", `/sites/${m.b.id}/collections/posts/items`, {
        auth: apiKey.key,
        body: { slug: "by-key", data: { title: "k" }, publish: true },
      }),
      201,
    );
    for (const [method, path, permission] of [
      ["GET", `/workspaces/${m.workspaceId}/members`, "members.read"],
      ["POST", `/workspaces/${m.workspaceId}/api-keys`, "keys.manage"],
      ["POST", `/sites/${m.b.id}/admin-key`, "keys.manage"],
    ] as const) {
      const r = await callJson<{ error: { code: string; details: { permission: string } } }>(method, path, {
        auth: apiKey.key,
        body: method === "POST" && path.endsWith("api-keys") ? { name: "n", scope: "full" } : undefined,
      });
      expect(r.status, path).toBe(403);
      expect(r.body.error.details.permission, path).toBe(permission);
    }
  });

  it("a key limited to one site gets 404 on another site and on another workspace's site", async () => {
    const { apiKey } = await expectStatus(newKey(m.workspaceId, { name: "site A only", scope: "full", siteId: m.a.id }), 201);
    expect((await callJson("GET", `/sites/${m.a.id}`, { auth: apiKey.key })).status).toBe(200);
    expect((await callJson("GET", `/sites/${m.b.id}`, { auth: apiKey.key })).status).toBe(404);
    const other = await workspaceWithTwoSites("Acme");
    expect((await callJson("GET", `/sites/${other.a.id}`, { auth: apiKey.key })).status).toBe(404);
    expect((await callJson("GET", `/workspaces/${other.workspaceId}`, { auth: apiKey.key })).status).toBe(404);
  });

  it("a key limited to one site reads the workspace with that site only; an unlimited key sees every site", async () => {
    const limited = (await expectStatus(newKey(m.workspaceId, { name: "site A reader", scope: "read", siteId: m.a.id }), 201)).apiKey;
    const whole = (await expectStatus(newKey(m.workspaceId, { name: "all sites reader", scope: "read" }), 201)).apiKey;
    type Read = { workspace: { id: string; siteIds: string[] } };
    const seen = await expectStatus(callJson<Read>("GET", `/workspaces/${m.workspaceId}`, { auth: limited.key }), 200);
    expect(seen.workspace.id).toBe(m.workspaceId);
    expect(seen.workspace.siteIds).toEqual([m.a.id]);
    const all = await expectStatus(callJson<Read>("GET", `/workspaces/${m.workspaceId}`, { auth: whole.key }), 200);
    expect(all.workspace.siteIds).toEqual([m.a.id, m.b.id]);
  });

  it("is stored hashed, listed without the key, shows last use, and once revoked is refused (401)", async () => {
    const { apiKey } = await expectStatus(newKey(m.workspaceId, { name: "temp", scope: "read" }), 201);
    await expectStatus(callJson("GET", `/sites/${m.a.id}`, { auth: apiKey.key }), 200);
    const list = await expectStatus(
      callJson<{ apiKeys: { id: string; lastUsedAt: string | null; key?: string }[] }>("GET", `/workspaces/${m.workspaceId}/api-keys`, {
        auth: OPERATOR,
      }),
      200,
    );
    const listed = list.apiKeys.find((k) => k.id === apiKey.id)!;
    expect(listed.key).toBeUndefined();
    expect(listed.lastUsedAt).not.toBeNull();
    const stored = await runInDurableObject(
      env.WORKSPACE.get(env.WORKSPACE.idFromName(m.workspaceId)),
      (_i: unknown, state: DurableObjectState) => JSON.stringify(state.storage.sql.exec("SELECT * FROM api_keys").toArray()),
    );
    expect(stored).not.toContain(apiKey.key);
    await expectStatus(callJson("DELETE", `/workspaces/${m.workspaceId}/api-keys/${apiKey.id}`, { auth: OPERATOR }), 200);
    const r = await callJson<{ error: { code: string } }>("GET", `/sites/${m.a.id}`, { auth: apiKey.key });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthorized");
  });

  it("a made-up key is refused (401), and the legacy admin key still works as the site's Owner", async () => {
    const fake = `ak_${m.workspaceId.slice(3)}_${"a".repeat(40)}`;
    expect((await callJson("GET", `/sites/${m.a.id}`, { auth: fake })).status).toBe(401);
    await expectStatus(
      callJson("POST", `/sites/${m.a.id}/collections/posts/items`, {
        auth: m.a.adminKey,
        body: { slug: "legacy", data: { title: "l" }, publish: true },
      }),
      201,
    );
    await expectStatus(
      callJson("PUT", `/sites/${m.a.id}/collections/other`, { auth: m.a.adminKey, body: { fields: [{ key: "t", type: "text" }] } }),
      201,
    );
  });

  it("refuses a key for a site outside the workspace (400)", async () => {
    const other = await workspaceWithTwoSites("Acme");
    const r = await newKey(m.workspaceId, { name: "x", scope: "read", siteId: other.a.id });
    expect(r.status).toBe(400);
  });
});
