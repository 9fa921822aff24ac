/**
 * A member change whose push to the member's Account fails. The Account's copy authorises every
 * dashboard request, so it must never allow more than the Workspace does: what a change takes
 * away (a lower role, fewer sites, the membership itself) reaches the Account before the Workspace
 * saves it, and a failed push saves nothing; what it gives is saved first and reaches the Account
 * after (the alarm retries). The failure is real: the Account's SQLite refuses membership writes.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { callJson, expectStatus, ORIGIN } from "../helpers";
import { PASSWORD, signUp } from "../helpers/accounts";
import { uniqueEmail } from "../helpers/mail";

const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });
type Person = Awaited<ReturnType<typeof signUp>>;
interface Refusal {
  error: { code: string; message: string; details?: { applied?: boolean } };
}

let people = 0;
const newPerson = (label: string) => signUp(uniqueEmail(label), PASSWORD, { "cf-connecting-ip": `198.51.100.${100 + ++people}` });

const accountStub = (accountId: string) => env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
const workspaceStub = (id: string) => env.WORKSPACE.get(env.WORKSPACE.idFromName(id));

/** The member's Account cannot take membership writes, as when it cannot be reached. */
async function refuseMembershipWrites(accountId: string, refuse: boolean): Promise<void> {
  await runInDurableObject(accountStub(accountId), (_i: unknown, state: DurableObjectState) => {
    for (const op of ["INSERT", "UPDATE", "DELETE"]) {
      const name = `refuse_membership_${op.toLowerCase()}`;
      state.storage.sql.exec(`DROP TRIGGER IF EXISTS ${name}`);
      if (refuse)
        state.storage.sql.exec(`CREATE TRIGGER ${name} BEFORE ${op} ON memberships BEGIN SELECT RAISE(ABORT, 'unreachable'); END`);
    }
  });
}

/** Runs the workspace's alarm with every owed push due now (as it would be a minute later). */
async function retryPushes(wsId: string): Promise<void> {
  await runInDurableObject(workspaceStub(wsId), (_i: unknown, state: DurableObjectState) => {
    state.storage.sql.exec("UPDATE outbox SET next_at = 0");
    return state.storage.setAlarm(Date.now() - 1);
  });
  await runDurableObjectAlarm(workspaceStub(wsId));
}

async function setup() {
  const owner = await newPerson("owner");
  const wsId = (
    await expectStatus(callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Push" } }), 201)
  ).workspace.id;
  const siteId = (
    await expectStatus(
      callJson<{ site: { id: string } }>("POST", "/sites", { ...as(owner.cookie), body: { name: "Blog", workspaceId: wsId } }),
      201,
    )
  ).site.id;
  await expectStatus(
    callJson("PUT", `/sites/${siteId}/collections/posts`, { ...as(owner.cookie), body: { fields: [{ key: "title", type: "text" }] } }),
    201,
  );
  const { token } = await expectStatus(
    callJson<{ token: string }>("POST", `/workspaces/${wsId}/invitations`, { ...as(owner.cookie), body: { role: "editor" } }),
    201,
  );
  const member = await newPerson("editor");
  await expectStatus(callJson("POST", "/invitations/accept", { ...as(member.cookie), body: { token } }), 200);
  return { owner, member, wsId, siteId };
}

/** The role the Workspace holds for the member, and the one their Account's copy gives them. */
async function roles(owner: Person, member: Person, wsId: string) {
  const list = await expectStatus(
    callJson<{ members: { accountId: string; role: string }[] }>("GET", `/workspaces/${wsId}/members`, as(owner.cookie)),
    200,
  );
  const current = await expectStatus(
    callJson<{ session: { memberships: { workspaceId: string; role: string }[] } }>("GET", "/sessions/current", as(member.cookie)),
    200,
  );
  return {
    workspace: list.members.find((m) => m.accountId === member.account.id)?.role ?? null,
    account: current.session.memberships.find((m) => m.workspaceId === wsId)?.role ?? null,
  };
}

let slugs = 0;
const write = (member: Person, siteId: string) =>
  callJson("POST", `/sites/${siteId}/collections/posts/items`, {
    ...as(member.cookie),
    body: { slug: `p-${++slugs}`, data: { title: "T" } },
  });

describe("a member change whose push to the Account fails", () => {
  it("a lower role is not saved: the 502 changes nothing, and the retry takes effect on the next request", async () => {
    const { owner, member, wsId, siteId } = await setup();
    await refuseMembershipWrites(member.account.id, true);
    const failed = await callJson<Refusal>("PATCH", `/workspaces/${wsId}/members/${member.account.id}`, {
      ...as(owner.cookie),
      body: { role: "viewer" },
    });
    expect(failed.status).toBe(502);
    // Both sides still agree: the workspace never held a role the member's requests outrun.
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "editor", account: "editor" });
    expect(failed.body.error.code).toBe("bad_gateway");
    expect(failed.body.error.details?.applied).toBe(false);
    expect(failed.body.error.message).toMatch(/Nothing changed/);
    await retryPushes(wsId);
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "editor", account: "editor" });

    await refuseMembershipWrites(member.account.id, false);
    await expectStatus(
      callJson("PATCH", `/workspaces/${wsId}/members/${member.account.id}`, { ...as(owner.cookie), body: { role: "viewer" } }),
      200,
    );
    expect((await write(member, siteId)).status).toBe(403);
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "viewer", account: "viewer" });
  });

  it("a removal is not saved while the Account cannot hear it; once it can, the member is out", async () => {
    const { owner, member, wsId, siteId } = await setup();
    await refuseMembershipWrites(member.account.id, true);
    const failed = await callJson<Refusal>("DELETE", `/workspaces/${wsId}/members/${member.account.id}`, as(owner.cookie));
    expect(failed.status).toBe(502);
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "editor", account: "editor" });
    expect(failed.body.error.details?.applied).toBe(false);
    await refuseMembershipWrites(member.account.id, false);
    await expectStatus(callJson("DELETE", `/workspaces/${wsId}/members/${member.account.id}`, as(owner.cookie)), 200);
    expect((await write(member, siteId)).status).toBe(404);
    expect(await roles(owner, member, wsId)).toEqual({ workspace: null, account: null });
  });

  it("a higher role is saved at once and reaches the Account later: until then the member has the lower one", async () => {
    const { owner, member, wsId, siteId } = await setup();
    await expectStatus(
      callJson("PATCH", `/workspaces/${wsId}/members/${member.account.id}`, { ...as(owner.cookie), body: { role: "viewer" } }),
      200,
    );
    await refuseMembershipWrites(member.account.id, true);
    const failed = await callJson<Refusal>("PATCH", `/workspaces/${wsId}/members/${member.account.id}`, {
      ...as(owner.cookie),
      body: { role: "editor" },
    });
    expect(failed.status).toBe(502);
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "editor", account: "viewer" });
    expect(failed.body.error.details?.applied).toBe(true);
    expect((await write(member, siteId)).status).toBe(403);
    await refuseMembershipWrites(member.account.id, false);
    await retryPushes(wsId);
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "editor", account: "editor" });
    expect((await write(member, siteId)).status).toBe(201);
  });

  it("handing ownership over: the old Owner steps down on their Account before anything is saved", async () => {
    const { owner, member, wsId } = await setup();
    const transfer = () =>
      callJson<Refusal>("POST", `/workspaces/${wsId}/owner`, { ...as(owner.cookie), body: { accountId: member.account.id } });
    await refuseMembershipWrites(owner.account.id, true);
    const failed = await transfer();
    expect(failed.status).toBe(502);
    expect(failed.body.error.details?.applied).toBe(false);
    expect(await roles(owner, owner, wsId)).toEqual({ workspace: "owner", account: "owner" });
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "editor", account: "editor" });

    // The old Owner hears; the new one does not yet: saved, and the new Owner has less until the retry.
    await refuseMembershipWrites(owner.account.id, false);
    await refuseMembershipWrites(member.account.id, true);
    const late = await transfer();
    expect(late.status).toBe(502);
    expect(late.body.error.details?.applied).toBe(true);
    expect(await roles(owner, owner, wsId)).toEqual({ workspace: "administrator", account: "administrator" });
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "owner", account: "editor" });
    await refuseMembershipWrites(member.account.id, false);
    await retryPushes(wsId);
    expect(await roles(owner, member, wsId)).toEqual({ workspace: "owner", account: "owner" });
  });
});
