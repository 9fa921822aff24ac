/**
 * What an Administrator made (a link-only invitation to Administrator, a full API key) does not
 * outlive their right to make it: removed, demoted, leaving, or a former Owner demoted after
 * handing the workspace over. Real accounts through the front Worker; the key is tried on a site
 * and the invitation accepted as the person it was meant to bring back would.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { WORKSPACE_MIGRATIONS } from "../../actors/workspace/migrations";
import { callJson, expectStatus, OPERATOR, ORIGIN } from "../helpers";
import { PASSWORD, signUp } from "../helpers/accounts";
import { uniqueEmail } from "../helpers/mail";

const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });
type Person = Awaited<ReturnType<typeof signUp>>;
interface Revoked {
  invitations: string[];
  apiKeys: string[];
}
interface Refusal {
  error: { code: string; message: string; details: { status?: string; reason?: string } };
}

// Each person signs up from an address of their own: sign-up mails are limited per client.
let people = 0;
const newPerson = (label: string) => signUp(uniqueEmail(label), PASSWORD, { "cf-connecting-ip": `198.51.100.${++people}` });

/** An Owner's workspace (Pro, so invitations are not capped) with one site. */
async function workspace() {
  const owner = await newPerson("owner");
  const ws = (
    await expectStatus(
      callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Agency" } }),
      201,
    )
  ).workspace;
  await expectStatus(callJson("PATCH", `/workspaces/${ws.id}`, { auth: OPERATOR, body: { plan: "pro" } }), 200);
  const site = (
    await expectStatus(
      callJson<{ site: { id: string } }>("POST", "/sites", { ...as(owner.cookie), body: { name: "Blog", workspaceId: ws.id } }),
      201,
    )
  ).site;
  return { owner, wsId: ws.id, siteId: site.id };
}

async function invite(by: Person, wsId: string, role: string) {
  return expectStatus(
    callJson<{ invitation: { id: string }; token: string }>("POST", `/workspaces/${wsId}/invitations`, {
      ...as(by.cookie),
      body: { role },
    }),
    201,
  );
}

const accept = (who: Person, token: string) =>
  callJson<Refusal & { membership: { role: string } }>("POST", "/invitations/accept", { ...as(who.cookie), body: { token } });

async function join(by: Person, wsId: string, role: string): Promise<Person> {
  const { token } = await invite(by, wsId, role);
  const person = await newPerson(role);
  await expectStatus(accept(person, token), 200);
  return person;
}

/** What an Administrator leaves behind before losing their seat: a way back in and a key. */
async function leaveBehind(admin: Person, wsId: string, siteId: string) {
  const wayBack = await invite(admin, wsId, "administrator");
  const forViewer = await invite(admin, wsId, "viewer");
  const key = (
    await expectStatus(
      callJson<{ apiKey: { id: string; key: string } }>("POST", `/workspaces/${wsId}/api-keys`, {
        ...as(admin.cookie),
        body: { name: "backdoor", scope: "full" },
      }),
      201,
    )
  ).apiKey;
  // The key works while its maker is an Administrator.
  await expectStatus(callJson("GET", `/sites/${siteId}/collections`, { auth: key.key }), 200);
  return { wayBack, forViewer, key };
}

const useKey = (key: string, siteId: string) => callJson<Refusal>("GET", `/sites/${siteId}/collections`, { auth: key });

async function listed(owner: Person, wsId: string) {
  const invitations = await expectStatus(
    callJson<{ invitations: { id: string }[] }>("GET", `/workspaces/${wsId}/invitations`, as(owner.cookie)),
    200,
  );
  const keys = await expectStatus(
    callJson<{ apiKeys: { id: string; revokedAt: string | null }[] }>("GET", `/workspaces/${wsId}/api-keys`, as(owner.cookie)),
    200,
  );
  return { invitations: invitations.invitations.map((i) => i.id), keys: keys.apiKeys };
}

async function revocations(owner: Person, wsId: string) {
  const page = await expectStatus(
    callJson<{ entries: { operation: string; actor: { label: string }; target: string; details: Record<string, unknown> }[] }>(
      "GET",
      `/workspaces/${wsId}/audit?limit=200`,
      as(owner.cookie),
    ),
    200,
  );
  return page.entries
    .filter((e) => e.operation === "revokeInvitation" || e.operation === "revokeApiKey")
    .map((e) => ({ operation: e.operation, by: e.actor.label, id: e.details.id, cause: e.details.cause, madeBy: e.details.madeBy }));
}

function expectInviterRefusal(r: { status: number; body: Refusal }) {
  expect(r.status).toBe(410);
  expect(r.body.error).toMatchObject({ code: "gone", details: { status: "revoked", reason: "inviter" } });
  expect(r.body.error.message).toContain("can no longer invite to this role");
}

describe("what a member made goes when their right to make it goes", () => {
  it("removed: their invitations are revoked, their key is refused on the very next request, and they cannot come back", async () => {
    const { owner, wsId, siteId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const made = await leaveBehind(admin, wsId, siteId);

    const removed = await expectStatus(
      callJson<{ revoked: Revoked }>("DELETE", `/workspaces/${wsId}/members/${admin.account.id}`, as(owner.cookie)),
      200,
    );
    expect(removed.revoked.invitations.sort()).toEqual([made.wayBack.invitation.id, made.forViewer.invitation.id].sort());
    expect(removed.revoked.apiKeys).toEqual([made.key.id]);

    const refused = await useKey(made.key.key, siteId);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("unauthorized");
    // The way back: accepting their own link with their own account.
    expectInviterRefusal(await accept(admin, made.wayBack.token));
    expectInviterRefusal(
      await callJson<Refusal>("POST", "/invitations/lookup", { headers: { origin: ORIGIN }, body: { token: made.wayBack.token } }),
    );
    expect((await callJson("GET", `/workspaces/${wsId}`, as(admin.cookie))).status).toBe(404);

    // The screens' lists: no pending invitation of theirs, the key shown revoked.
    const after = await listed(owner, wsId);
    expect(after.invitations).toEqual([]);
    expect(after.keys.find((k) => k.id === made.key.id)?.revokedAt).toEqual(expect.any(String));
    expect(await revocations(owner, wsId)).toEqual(
      expect.arrayContaining([
        { operation: "revokeInvitation", by: owner.email, id: made.wayBack.invitation.id, cause: "removed", madeBy: admin.email },
        { operation: "revokeInvitation", by: owner.email, id: made.forViewer.invitation.id, cause: "removed", madeBy: admin.email },
        { operation: "revokeApiKey", by: owner.email, id: made.key.id, cause: "removed", madeBy: admin.email },
      ]),
    );
  });

  it("demoted to Editor: the same at once; leaving and accepting their own link afterwards is refused", async () => {
    const { owner, wsId, siteId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const made = await leaveBehind(admin, wsId, siteId);

    const lowered = await expectStatus(
      callJson<{ member: { role: string }; revoked: Revoked }>("PATCH", `/workspaces/${wsId}/members/${admin.account.id}`, {
        ...as(owner.cookie),
        body: { role: "editor" },
      }),
      200,
    );
    expect(lowered.member.role).toBe("editor");
    expect(lowered.revoked.invitations).toHaveLength(2);
    expect(lowered.revoked.apiKeys).toEqual([made.key.id]);
    expect((await useKey(made.key.key, siteId)).status).toBe(401);

    await expectStatus(callJson("DELETE", `/workspaces/${wsId}/members/${admin.account.id}`, as(admin.cookie)), 200);
    expectInviterRefusal(await accept(admin, made.wayBack.token));
    const members = await expectStatus(
      callJson<{ members: { accountId: string }[] }>("GET", `/workspaces/${wsId}/members`, as(owner.cookie)),
      200,
    );
    expect(members.members.map((m) => m.accountId)).toEqual([owner.account.id]);
    expect((await revocations(owner, wsId)).map((r) => r.cause)).toEqual(["role", "role", "role"]);
  });

  it("limited to one site: an Administrator who may no longer manage the workspace loses the same", async () => {
    const { owner, wsId, siteId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const made = await leaveBehind(admin, wsId, siteId);
    const limited = await expectStatus(
      callJson<{ revoked: Revoked }>("PATCH", `/workspaces/${wsId}/members/${admin.account.id}`, {
        ...as(owner.cookie),
        body: { siteIds: [siteId] },
      }),
      200,
    );
    expect(limited.revoked.apiKeys).toEqual([made.key.id]);
    expect((await useKey(made.key.key, siteId)).status).toBe(401);
    const stranger = await newPerson("stranger");
    expectInviterRefusal(await accept(stranger, made.forViewer.token));
  });

  it("left: leaving takes their invitations and keys along, recorded as theirs", async () => {
    const { owner, wsId, siteId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const made = await leaveBehind(admin, wsId, siteId);

    const left = await expectStatus(
      callJson<{ revoked: Revoked }>("DELETE", `/workspaces/${wsId}/members/${admin.account.id}`, as(admin.cookie)),
      200,
    );
    expect(left.revoked.apiKeys).toEqual([made.key.id]);
    expect((await useKey(made.key.key, siteId)).status).toBe(401);
    expectInviterRefusal(await accept(admin, made.wayBack.token));
    expect(await revocations(owner, wsId)).toEqual(
      expect.arrayContaining([{ operation: "revokeApiKey", by: admin.email, id: made.key.id, cause: "left", madeBy: admin.email }]),
    );
    expect((await listed(owner, wsId)).invitations).toEqual([]);
  });

  it("Owner transferred: the former Owner, now an Administrator, keeps what an Administrator may make, until demoted", async () => {
    const { owner, wsId, siteId } = await workspace();
    const successor = await join(owner, wsId, "administrator");
    const made = await leaveBehind(owner, wsId, siteId);

    const handed = await expectStatus(
      callJson<{ previous: { role: string }; revoked: Revoked }>("POST", `/workspaces/${wsId}/owner`, {
        ...as(owner.cookie),
        body: { accountId: successor.account.id },
      }),
      200,
    );
    expect(handed.previous.role).toBe("administrator");
    expect(handed.revoked).toEqual({ invitations: [], apiKeys: [], adminKeys: [], webhooks: [], previewLinks: [] });
    await expectStatus(useKey(made.key.key, siteId), 200);
    expect((await listed(successor, wsId)).invitations.sort()).toEqual([made.wayBack.invitation.id, made.forViewer.invitation.id].sort());

    // The new Owner lowers the one before: now nothing they made stands.
    const lowered = await expectStatus(
      callJson<{ revoked: Revoked }>("PATCH", `/workspaces/${wsId}/members/${owner.account.id}`, {
        ...as(successor.cookie),
        body: { role: "viewer" },
      }),
      200,
    );
    expect(lowered.revoked.apiKeys).toEqual([made.key.id]);
    expect((await useKey(made.key.key, siteId)).status).toBe(401);
    await expectStatus(callJson("DELETE", `/workspaces/${wsId}/members/${owner.account.id}`, as(owner.cookie)), 200);
    expectInviterRefusal(await accept(owner, made.wayBack.token));
  });

  it("a key or invitation whose maker's seat went without the sweep (older rows) is still refused", async () => {
    const { owner, wsId, siteId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const made = await leaveBehind(admin, wsId, siteId);
    // The maker's row goes as it would have before invitations and keys were swept with it.
    await runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName(wsId)), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("DELETE FROM members WHERE account_id = ?", admin.account.id);
    });
    expect((await useKey(made.key.key, siteId)).status).toBe(401);
    const stranger = await newPerson("stranger");
    expectInviterRefusal(await accept(stranger, made.wayBack.token));
  });

  it("an invitation the operator made stands with no member behind it", async () => {
    const { wsId } = await workspace();
    const made = await expectStatus(
      callJson<{ token: string }>("POST", `/workspaces/${wsId}/invitations`, { auth: OPERATOR, body: { role: "editor" } }),
      201,
    );
    const person = await newPerson("editor");
    const ok = await expectStatus(accept(person, made.token), 200);
    expect(ok.membership.role).toBe("editor");
  });
});

describe("migration 4: the maker of keys made before it", () => {
  it("is taken from the key's createApiKey audit row, or else from the member with the key's email", async () => {
    const stub = env.WORKSPACE.get(env.WORKSPACE.idFromName("ws_migration_four_test"));
    const makers = await runInDurableObject(stub, async (_i: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      await new SQLSchemaMigrations({ doStorage: state.storage, migrations: WORKSPACE_MIGRATIONS.slice(0, 3) }).runAll();
      sql.exec("INSERT INTO members (account_id, email, role, added_at) VALUES ('ac_still', 'still@example.com', 'administrator', 0)");
      const key = (id: string, by: string) =>
        sql.exec("INSERT INTO api_keys (id, name, hash, scope, created_by, created_at) VALUES (?, ?, ?, 'full', ?, 0)", id, id, id, by);
      key("key_gone", "gone@example.com");
      key("key_still", "still@example.com");
      key("key_operator", "operator");
      // The maker of key_gone left long ago: only the audit log still names them.
      sql.exec(
        `INSERT INTO audit (at, actor_kind, actor_id, actor_label, operation, kind, target, details)
         VALUES (0, 'account', 'ac_gone', 'gone@example.com', 'createApiKey', 'Keys', 'API key key_gone', '{"scope":"full","id":"key_gone"}')`,
      );
      await new SQLSchemaMigrations({ doStorage: state.storage, migrations: WORKSPACE_MIGRATIONS }).runAll();
      return sql.exec<{ id: string; maker: string | null }>("SELECT id, created_by_account AS maker FROM api_keys ORDER BY id").toArray();
    });
    expect(makers).toEqual([
      { id: "key_gone", maker: "ac_gone" },
      { id: "key_operator", maker: null },
      { id: "key_still", maker: "ac_still" },
    ]);
  });
});
