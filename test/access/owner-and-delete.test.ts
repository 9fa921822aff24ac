/**
 * What the dashboard needs to show a role its controls (`access` on getSite and getWorkspace),
 * handing the workspace to another member, and deleting it: with real accounts, through the
 * front Worker.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { call, callJson, expectStatus, ORIGIN } from "../helpers";
import { fragmentToken, signUp } from "../helpers/accounts";
import { uniqueEmail } from "../helpers/mail";

const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });

interface Access {
  role: string;
  permissions: string[];
}

async function workspaceWithColleague(role: string) {
  const owner = await signUp(uniqueEmail("owner"));
  const ws = (
    await expectStatus(
      callJson<{ workspace: { id: string; name: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Studio Nine" } }),
      201,
    )
  ).workspace;
  const site = (
    await expectStatus(
      callJson<{ site: { id: string; token: string } }>("POST", "/sites", {
        ...as(owner.cookie),
        body: { name: "Blog", workspaceId: ws.id },
      }),
      201,
    )
  ).site;
  const invite = await expectStatus(
    callJson<{ token: string }>("POST", `/workspaces/${ws.id}/invitations`, { ...as(owner.cookie), body: { role } }),
    201,
  );
  const colleague = await signUp(uniqueEmail("colleague"));
  await expectStatus(callJson("POST", "/invitations/accept", { ...as(colleague.cookie), body: { token: invite.token } }), 200);
  return { owner, colleague, ws, site };
}

describe("what a role may do, ownership and deleting a workspace", () => {
  it("getSite and getWorkspace say the caller's role and permissions", async () => {
    const { owner, colleague, ws, site } = await workspaceWithColleague("contributor");
    const mine = await expectStatus(callJson<{ access: Access }>("GET", `/sites/${site.id}`, as(colleague.cookie)), 200);
    expect(mine.access.role).toBe("contributor");
    expect(mine.access.permissions).toContain("items.create");
    expect(mine.access.permissions.filter((p) => p.startsWith("items.publish"))).toEqual([]);
    const theirs = await expectStatus(callJson<{ access: Access }>("GET", `/sites/${site.id}`, as(owner.cookie)), 200);
    expect(theirs.access.role).toBe("owner");
    expect(theirs.access.permissions).toEqual(expect.arrayContaining(["items.publish.any", "workspace.delete", "ownership.transfer"]));
    const wsView = await expectStatus(callJson<{ access: Access }>("GET", `/workspaces/${ws.id}`, as(colleague.cookie)), 200);
    expect(wsView.access).toMatchObject({ role: "contributor" });
    expect(wsView.access.permissions).not.toContain("members.read");
    // The description never grants: the API still refuses what the permissions leave out.
    await expectStatus(callJson("PUT", `/sites/${site.id}/collections/posts`, { ...as(owner.cookie), body: { fields: [] } }), 201);
    const draft = await expectStatus(
      callJson<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, {
        ...as(colleague.cookie),
        body: { slug: "x", data: {} },
      }),
      201,
    );
    const refused = await callJson<{ error: { code: string } }>(
      "POST",
      `/sites/${site.id}/collections/posts/items/${draft.item.id}/publish`,
      as(colleague.cookie),
    );
    expect(refused.status).toBe(403);
  });

  it("the Owner hands the workspace to a member and steps down to Administrator, audited", async () => {
    const { owner, colleague, ws } = await workspaceWithColleague("editor");
    const W = `/workspaces/${ws.id}`;
    const refused = await callJson<{ error: { code: string; details: { permission: string } } }>("POST", `${W}/owner`, {
      ...as(colleague.cookie),
      body: { accountId: colleague.account.id },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe("ownership.transfer");
    const moved = await expectStatus(
      callJson<{ owner: { email: string; role: string }; previous: { email: string; role: string } }>("POST", `${W}/owner`, {
        ...as(owner.cookie),
        body: { accountId: colleague.account.id },
      }),
      200,
    );
    expect(moved.owner).toMatchObject({ email: colleague.email, role: "owner" });
    expect(moved.previous).toMatchObject({ email: owner.email, role: "administrator" });
    // Both accounts know at once (their next request).
    const before = await expectStatus(callJson<{ access: Access }>("GET", W, as(owner.cookie)), 200);
    expect(before.access.role).toBe("administrator");
    const now = await expectStatus(
      callJson<{ session: { memberships: { role: string }[] } }>("GET", "/sessions/current", as(colleague.cookie)),
      200,
    );
    expect(now.session.memberships.map((m) => m.role)).toEqual(["owner"]);
    // The old Owner can no longer delete the workspace nor take it back.
    expect((await call("DELETE", W, { ...as(owner.cookie), body: { confirm: "Studio Nine" } })).status).toBe(403);
    const audit = await expectStatus(
      callJson<{ entries: { operation: string; actor: { label: string }; target: string }[] }>(
        "GET",
        `${W}/audit?kind=Members`,
        as(colleague.cookie),
      ),
      200,
    );
    expect(audit.entries[0]).toMatchObject({
      operation: "transferOwnership",
      actor: { label: owner.email },
      target: `member ${colleague.email}`,
    });
  });

  it("deleting a workspace needs its name, erases its sites and ends every membership", async () => {
    const { owner, colleague, ws, site } = await workspaceWithColleague("editor");
    const W = `/workspaces/${ws.id}`;
    await expectStatus(callJson("PUT", `/sites/${site.id}/collections/posts`, { ...as(owner.cookie), body: { fields: [] } }), 201);
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/posts/items`, { ...as(owner.cookie), body: { slug: "hi", data: {}, publish: true } }),
      201,
    );
    await expectStatus(call("GET", `/v1/${site.token}/collections/posts/items/hi`), 200);
    const wrong = await callJson<{ error: { code: string; message: string } }>("DELETE", W, {
      ...as(owner.cookie),
      body: { confirm: "studio nine" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain("Studio Nine");
    const editor = await callJson<{ error: { details: { permission: string } } }>("DELETE", W, {
      ...as(colleague.cookie),
      body: { confirm: "Studio Nine" },
    });
    expect(editor.status).toBe(403);
    expect(editor.body.error.details.permission).toBe("workspace.delete");

    const gone = await expectStatus(
      callJson<{ siteIds: string[] }>("DELETE", W, { ...as(owner.cookie), body: { confirm: "Studio Nine" } }),
      200,
    );
    expect(gone.siteIds).toEqual([site.id]);
    for (const who of [owner, colleague]) {
      expect((await call("GET", W, as(who.cookie))).status).toBe(404);
      expect((await call("GET", `/sites/${site.id}`, as(who.cookie))).status).toBe(404);
      const s = await expectStatus(callJson<{ session: { memberships: unknown[] } }>("GET", "/sessions/current", as(who.cookie)), 200);
      expect(s.session.memberships).toEqual([]);
    }
    expect((await call("GET", `/v1/${site.token}/collections/posts/items/hi`)).status).toBe(404);
    // The site's storage is gone; the workspace keeps its audit log, with the deletion in it.
    const siteTables = await runInDurableObject(env.SITE.get(env.SITE.idFromName(site.id)), (_i: unknown, state: DurableObjectState) =>
      state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'").one(),
    );
    expect(siteTables.n).toBe(0);
    const rows = await runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName(ws.id)), (_i: unknown, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ operation: string; actor_label: string }>("SELECT operation, actor_label FROM audit ORDER BY seq DESC LIMIT 1")
        .one(),
    );
    expect(rows).toEqual({ operation: "deleteWorkspace", actor_label: owner.email });
    // The invitation token of a deleted workspace leads nowhere.
    const token = fragmentToken(`x#/invite/iv_${ws.id.slice(3)}_${"a".repeat(40)}`, "invite");
    expect((await call("POST", "/invitations/lookup", { headers: { origin: ORIGIN }, body: { token } })).status).toBe(404);
  });
});
