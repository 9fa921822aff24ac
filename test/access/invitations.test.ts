import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { callJson, expectStatus, OPERATOR } from "../helpers";

async function workspace(plan = "pro") {
  return (
    await expectStatus(
      callJson<{ workspace: { id: string } }>("POST", "/workspaces", { auth: OPERATOR, body: { name: "Team", plan } }),
      201,
    )
  ).workspace.id;
}

async function invite(workspaceId: string, body: Record<string, unknown>, auth = OPERATOR) {
  return callJson<{
    invitation: { id: string; status: string; expiresAt: string; role: string };
    token: string;
    link: string;
    error?: { code: string };
  }>("POST", `/workspaces/${workspaceId}/invitations`, { auth, body });
}

const ws = (id: string) => env.WORKSPACE.get(env.WORKSPACE.idFromName(id));

describe("invitations", () => {
  it("are created with a single-use link (secret in the fragment), listed while pending, and can be looked up", async () => {
    const id = await workspace();
    const made = await expectStatus(invite(id, { email: "Ada@Example.com", role: "contributor" }), 201);
    expect(made.token).toMatch(/^iv_[a-z2-7]{16}_[a-z2-7]{40}$/);
    expect(made.link).toBe(`https://api.test/dashboard/#/invite/${made.token}`);
    expect(made.invitation).toMatchObject({ status: "pending", role: "contributor", email: "ada@example.com" });
    const days = (Date.parse(made.invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const list = await expectStatus(
      callJson<{ invitations: { id: string }[] }>("GET", `/workspaces/${id}/invitations`, { auth: OPERATOR }),
      200,
    );
    expect(list.invitations.map((i) => i.id)).toEqual([made.invitation.id]);
    const looked = await ws(id).lookupInvitation(made.token);
    expect(looked).toMatchObject({ invitation: { workspaceName: "Team", role: "contributor", email: "ada@example.com" } });
  });

  it("expire after 7 days (410)", async () => {
    const id = await workspace();
    const { token } = await expectStatus(invite(id, { role: "viewer" }), 201);
    expect(await ws(id).lookupInvitation(token, Date.now() + 6.9 * 86_400_000)).toHaveProperty("invitation");
    const late = await ws(id).lookupInvitation(token, Date.now() + 7 * 86_400_000 + 1000);
    expect(late).toMatchObject({ error: { code: "gone", details: { status: "expired" } } });
  });

  it("can be revoked, after which the link is refused (410) and no longer listed", async () => {
    const id = await workspace();
    const { token, invitation } = await expectStatus(invite(id, { role: "editor" }), 201);
    await expectStatus(callJson("DELETE", `/workspaces/${id}/invitations/${invitation.id}`, { auth: OPERATOR }), 200);
    expect(await ws(id).lookupInvitation(token)).toMatchObject({ error: { code: "gone", details: { status: "revoked" } } });
    const list = await expectStatus(callJson<{ invitations: unknown[] }>("GET", `/workspaces/${id}/invitations`, { auth: OPERATOR }), 200);
    expect(list.invitations).toEqual([]);
  });

  it("refuse a made-up token (404), the Owner role (400), and sites outside the workspace (400)", async () => {
    const id = await workspace();
    expect(await ws(id).lookupInvitation(`iv_${id.slice(3)}_${"a".repeat(40)}`)).toMatchObject({ error: { code: "not_found" } });
    expect((await invite(id, { role: "owner" })).status).toBe(400);
    expect((await invite(id, { role: "viewer", siteIds: ["aaaaaaaaaaaaaaaa"] })).status).toBe(400);
  });

  it("need members.manage: an API key cannot invite (403 naming the permission)", async () => {
    const id = await workspace();
    const key = (
      await expectStatus(
        callJson<{ apiKey: { key: string } }>("POST", `/workspaces/${id}/api-keys`, { auth: OPERATOR, body: { name: "k", scope: "full" } }),
        201,
      )
    ).apiKey.key;
    const r = await invite(id, { role: "viewer" }, key);
    expect(r.status).toBe(403);
    expect((r.body as unknown as { error: { details: { permission: string } } }).error.details.permission).toBe("members.manage");
  });
});
