/**
 * A team's first day through the real front Worker, with real accounts: a person signs up, makes
 * a workspace and a site, invites a colleague by email as Contributor; the colleague accepts from
 * the mailed link, writes a draft, cannot publish it; the owner publishes; the owner lowers, then
 * removes them, and each change holds on their very next request.
 */
import { describe, expect, it } from "vitest";
import { callJson, expectStatus, ORIGIN } from "../helpers";
import { fragmentToken, signUp } from "../helpers/accounts";
import { linkIn, mailTo, uniqueEmail } from "../helpers/mail";

const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });

describe("a workspace with members, through the front Worker", () => {
  it("invite → accept → draft → refused publish → owner publishes → lower → remove", async () => {
    const owner = await signUp(uniqueEmail("owner"));
    const ws = await expectStatus(
      callJson<{ workspace: { id: string; plan: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Studio" } }),
      201,
    );
    expect(ws.workspace.plan).toBe("free");
    const site = (
      await expectStatus(
        callJson<{ site: { id: string; token: string } }>("POST", "/sites", {
          ...as(owner.cookie),
          body: { name: "Blog", workspaceId: ws.workspace.id },
        }),
        201,
      )
    ).site;
    // The Free plan allows one site.
    const second = await callJson<{ error: { code: string; message: string; details: { limit: string } } }>("POST", "/sites", {
      ...as(owner.cookie),
      body: { name: "Another", workspaceId: ws.workspace.id },
    });
    expect(second.status).toBe(403);
    expect(second.body.error).toMatchObject({ code: "plan_required", details: { limit: "sites" } });
    expect(second.body.error.message).toBe(
      "This workspace's plan (Free) allows 1 site; the Starter plan allows more. The Plan screen of the dashboard says how to change plans.",
    );
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts`, { ...as(owner.cookie), body: { fields: [{ key: "title", type: "text" }] } }),
      201,
    );

    const email = uniqueEmail("contrib");
    await expectStatus(
      callJson("POST", `/workspaces/${ws.workspace.id}/invitations`, { ...as(owner.cookie), body: { email, role: "contributor" } }),
      201,
    );
    const token = fragmentToken(linkIn(await mailTo(email, /invited to a workspace/)), "invite");
    const looked = await expectStatus(
      callJson<{ invitation: { role: string } }>("POST", "/invitations/lookup", { headers: { origin: ORIGIN }, body: { token } }),
      200,
    );
    expect(looked.invitation.role).toBe("contributor");
    const contrib = await signUp(email);
    const accepted = await expectStatus(
      callJson<{ membership: { role: string } }>("POST", "/invitations/accept", { ...as(contrib.cookie), body: { token } }),
      200,
    );
    expect(accepted.membership.role).toBe("contributor");
    // Single use.
    const again = await callJson<{ error: { code: string } }>("POST", "/invitations/accept", { ...as(contrib.cookie), body: { token } });
    expect(again.status).toBe(410);

    const draft = await expectStatus(
      callJson<{ item: { id: string; status: string } }>("POST", `/sites/${site.id}/collections/posts/items`, {
        ...as(contrib.cookie),
        body: { slug: "hello", data: { title: "Hello" } },
      }),
      201,
    );
    expect(draft.item.status).toBe("draft");
    const refused = await callJson<{ error: { code: string; details: { permission: string } } }>(
      "POST",
      `/sites/${site.id}/collections/posts/items/${draft.item.id}/publish`,
      as(contrib.cookie),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "forbidden", details: { permission: "items.publish.own" } });
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${draft.item.id}/publish`, as(owner.cookie)), 200);
    await expectStatus(callJson("GET", `/v1/${site.token}/collections/posts/items/hello`), 200);

    // The contributor cannot see members; the owner can.
    expect((await callJson("GET", `/workspaces/${ws.workspace.id}/members`, as(contrib.cookie))).status).toBe(403);
    const members = await expectStatus(
      callJson<{ members: { accountId: string; role: string }[] }>("GET", `/workspaces/${ws.workspace.id}/members`, as(owner.cookie)),
      200,
    );
    expect(members.members.map((m) => m.role).sort()).toEqual(["contributor", "owner"]);

    // Lowered to Viewer: the very next write is refused.
    await expectStatus(
      callJson("PATCH", `/workspaces/${ws.workspace.id}/members/${contrib.account.id}`, { ...as(owner.cookie), body: { role: "viewer" } }),
      200,
    );
    const lowered = await callJson<{ error: { details: { permission: string } } }>("POST", `/sites/${site.id}/collections/posts/items`, {
      ...as(contrib.cookie),
      body: { slug: "second", data: { title: "Second" } },
    });
    expect(lowered.status).toBe(403);
    expect(lowered.body.error.details.permission).toBe("items.create");

    // Removed: the very next request does not reach the site.
    await expectStatus(callJson("DELETE", `/workspaces/${ws.workspace.id}/members/${contrib.account.id}`, as(owner.cookie)), 200);
    expect((await callJson("GET", `/sites/${site.id}/collections/posts/items`, as(contrib.cookie))).status).toBe(404);
    expect((await callJson("GET", `/workspaces/${ws.workspace.id}`, as(contrib.cookie))).status).toBe(404);

    // Activity: who did what.
    const audit = await expectStatus(
      callJson<{ entries: { operation: string; actor: { label: string } }[] }>(
        "GET",
        `/workspaces/${ws.workspace.id}/audit?limit=200`,
        as(owner.cookie),
      ),
      200,
    );
    const did = audit.entries.map((e) => `${e.actor.label} ${e.operation}`);
    expect(did).toContain(`${email} createItem`);
    expect(did).toContain(`${owner.email} publishItem`);
    expect(did).toContain(`${owner.email} createInvitation`);
    expect(did).toContain(`${email} acceptInvitation`);
    expect(did).toContain(`${owner.email} removeMember`);
  });

  it("an invitation sent to one address cannot be accepted by another account (403)", async () => {
    const owner = await signUp(uniqueEmail("owner"));
    const ws = await expectStatus(
      callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "W" } }),
      201,
    );
    const made = await expectStatus(
      callJson<{ token: string }>("POST", `/workspaces/${ws.workspace.id}/invitations`, {
        ...as(owner.cookie),
        body: { email: uniqueEmail("x"), role: "viewer" },
      }),
      201,
    );
    const stranger = await signUp(uniqueEmail("stranger"));
    const r = await callJson<{ error: { code: string } }>("POST", "/invitations/accept", {
      ...as(stranger.cookie),
      body: { token: made.token },
    });
    expect(r.status).toBe(403);
  });

  it("the Free plan's member limit counts pending invitations (403 plan_required)", async () => {
    const owner = await signUp(uniqueEmail("owner"));
    const ws = await expectStatus(
      callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "W" } }),
      201,
    );
    // Free: 3 members; the Owner is one.
    for (let i = 0; i < 2; i++)
      await expectStatus(
        callJson("POST", `/workspaces/${ws.workspace.id}/invitations`, { ...as(owner.cookie), body: { role: "viewer" } }),
        201,
      );
    const r = await callJson<{ error: { code: string; message: string; details: { limit: string } } }>(
      "POST",
      `/workspaces/${ws.workspace.id}/invitations`,
      {
        ...as(owner.cookie),
        body: { role: "viewer" },
      },
    );
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: "plan_required", details: { limit: "members", max: 3, requiredPlan: "starter" } });
    // Shown as it is by the dashboard: the plans' names as people read them, no "operator" jargon.
    expect(r.body.error.message).toBe(
      "This workspace's plan (Free) allows 3 people, pending invitations included; the Starter plan allows more. The Plan screen of the dashboard says how to change plans.",
    );
  });
});
