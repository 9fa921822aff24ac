/**
 * Accepting a mailed invitation with a new account, through the real front Worker, workspace and
 * account objects and the local mail catcher: the mail's link carries a proof of the address, so
 * the invitee chooses a password and is signed in, verified and a member in one call, with no
 * confirmation mail. The link shown to the inviter proves nothing; a used, withdrawn or expired
 * invitation is refused before any account is made. And the inviter is told when the mail did not go.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callJson, expectStatus, ORIGIN } from "../helpers";
import { cookieOf, fragmentToken, invitationProofOf, PASSWORD, signIn, signUp } from "../helpers/accounts";
import { linkIn, mailsTo, mailTo, uniqueEmail } from "../helpers/mail";
import { signToken } from "../../src/identity/tokens";
import { sha256Hex } from "../../src/ids";
import { mailInvitation } from "../../src/dashboard/invitation-mail";
import { SoftAuthenticator } from "../helpers/soft-authenticator";

type Made = { invitation: { id: string; email: string; mailState: string; expiresAt: string }; token: string; link: string };
type Refused = { error: { code: string; message: string; details?: { status?: string; reason?: string } } };
type Joined = {
  session: { kind: string; account: { id: string; email: string; name: string } };
  membership: { workspaceId: string; role: string };
};

const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });
const own = { origin: ORIGIN };
const SUBJECT = /invited to a workspace/;
const workspaceStub = (id: string) => env.WORKSPACE.get(env.WORKSPACE.idFromName(id));

async function ownerWorkspace() {
  const owner = await signUp(uniqueEmail("owner"));
  const ws = await expectStatus(
    callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Newsroom" } }),
    201,
  );
  return { owner, wsId: ws.workspace.id };
}

async function invite(cookie: string, wsId: string, email: string, role = "editor"): Promise<Made> {
  return expectStatus(callJson<Made>("POST", `/workspaces/${wsId}/invitations`, { ...as(cookie), body: { email, role } }), 201);
}

/** The token and proof of the invitation mail to `email`. */
async function mailed(email: string): Promise<{ token: string; proof: string }> {
  const link = linkIn(await mailTo(email, SUBJECT));
  return { token: fragmentToken(link, "invite"), proof: invitationProofOf(link) };
}

const acceptNew = (body: Record<string, unknown>, headers: Record<string, string> = own) =>
  callJson<Joined & Refused>("POST", "/invitations/accept/new-account", { headers, body });

const exists = async (email: string) => (await signIn(email, PASSWORD)).status === 201;

describe("accepting a mailed invitation with a new account", () => {
  it("signs in a verified account that is a member at once, with no confirmation mail; the invitation works once", async () => {
    const { owner, wsId } = await ownerWorkspace();
    const email = uniqueEmail("grace");
    const made = await invite(owner.cookie, wsId, email);
    // The inviter is told the mail went (it was sent before the answer).
    expect(made.invitation.mailState).toBe("sent");
    const { token, proof } = await mailed(email);
    expect(token).toBe(made.token);
    // The link shown to the inviter has no proof: it cannot make the account.
    expect(made.link.endsWith(token)).toBe(true);

    const joined = await acceptNew({ token, proof, password: PASSWORD, name: "Grace Hopper" });
    expect(joined.status).toBe(201);
    expect(joined.body.session.account).toMatchObject({ email, name: "Grace Hopper" });
    expect(joined.body.membership).toMatchObject({ workspaceId: wsId, role: "editor" });
    const cookie = cookieOf(joined.res);
    const current = await expectStatus(
      callJson<{ session: { kind: string; memberships: { workspaceId: string; role: string }[] } }>("GET", "/sessions/current", as(cookie)),
      200,
    );
    expect(current.session.memberships).toEqual([expect.objectContaining({ workspaceId: wsId, role: "editor" })]);
    const members = await expectStatus(
      callJson<{ members: { email: string; name: string; role: string }[] }>("GET", `/workspaces/${wsId}/members`, as(owner.cookie)),
      200,
    );
    expect(members.members).toContainEqual(expect.objectContaining({ email, name: "Grace Hopper", role: "editor" }));
    // The account is a real one: its password signs in.
    expect(await exists(email)).toBe(true);

    // Used once: the same link again is 410, and makes nothing.
    const again = await acceptNew({ token, proof, password: PASSWORD });
    expect(again.status).toBe(410);
    expect(again.body.error).toMatchObject({ code: "gone", details: { status: "accepted" } });

    // Nothing but the invitation ever reached the address: no "Confirm your email".
    await new Promise((r) => setTimeout(r, 1000));
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual(["You're invited to a workspace on open-content-edge"]);
  });

  it("refuses a proof that is missing, altered, expired or another invitation's, and a made-up token", async () => {
    const { owner, wsId } = await ownerWorkspace();
    const a = uniqueEmail("a");
    const b = uniqueEmail("b");
    await invite(owner.cookie, wsId, a);
    await invite(owner.cookie, wsId, b);
    const ma = await mailed(a);
    const mb = await mailed(b);

    // The inviter holds the token (it is shown to them), but not the proof.
    const none = await acceptNew({ token: ma.token, password: PASSWORD });
    expect(none.status).toBe(400);
    const altered = await acceptNew({ token: ma.token, proof: `x${ma.proof.slice(1)}`, password: PASSWORD });
    expect(altered.status).toBe(400);
    expect(altered.body.error.details?.reason).toBe("invalid");
    // B's proof opens nothing of A's: it names another invitation.
    const crossed = await acceptNew({ token: ma.token, proof: mb.proof, password: PASSWORD });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error.details?.reason).toBe("invalid");
    const lapsed = await signToken(env.AUTH_SECRET ?? "", "invitation-address", { h: await sha256Hex(ma.token), e: a }, Date.now() - 1000);
    const expired = await acceptNew({ token: ma.token, proof: lapsed, password: PASSWORD });
    expect(expired.status).toBe(400);
    expect(expired.body.error.details?.reason).toBe("expired");
    // A token of this workspace it never made is another invitation's as far as the proof goes; one
    // of a workspace nobody was given is not an invitation at all.
    const madeUp = await acceptNew({ token: `iv_${wsId.slice(3)}_${"a".repeat(40)}`, proof: ma.proof, password: PASSWORD });
    expect(madeUp.status).toBe(400);
    const nowhere = await acceptNew({ token: `iv_${"a".repeat(16)}_${"a".repeat(40)}`, proof: ma.proof, password: PASSWORD });
    expect(nowhere.status).toBe(404);
    const short = await acceptNew({ token: ma.token, proof: ma.proof, password: "short" });
    expect(short.status).toBe(400);
    const elsewhere = await acceptNew({ token: ma.token, proof: ma.proof, password: PASSWORD }, { origin: "https://elsewhere.test" });
    expect(elsewhere.status).toBe(403);
    // None of these made an account.
    expect(await exists(a)).toBe(false);
    // The invitation still works with its own proof.
    expect((await acceptNew({ token: ma.token, proof: ma.proof, password: PASSWORD })).status).toBe(201);
  });

  it("refuses a withdrawn or expired invitation (410) before any account is made", async () => {
    const { owner, wsId } = await ownerWorkspace();
    const withdrawn = uniqueEmail("withdrawn");
    const made = await invite(owner.cookie, wsId, withdrawn);
    const w = await mailed(withdrawn);
    await expectStatus(callJson("DELETE", `/workspaces/${wsId}/invitations/${made.invitation.id}`, as(owner.cookie)), 200);
    const refused = await acceptNew({ ...w, password: PASSWORD });
    expect(refused.status).toBe(410);
    expect(refused.body.error.details?.status).toBe("revoked");
    expect(await exists(withdrawn)).toBe(false);

    const late = uniqueEmail("late");
    const old = await invite(owner.cookie, wsId, late);
    const l = await mailed(late);
    await runInDurableObject(workspaceStub(wsId), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE invitations SET expires_at = ? WHERE id = ?", Date.now() - 1000, old.invitation.id);
    });
    const gone = await acceptNew({ ...l, password: PASSWORD });
    expect(gone.status).toBe(410);
    expect(gone.body.error.details?.status).toBe("expired");
    expect(await exists(late)).toBe(false);
  });

  it("sends someone who already has an account to sign in and accept", async () => {
    const { owner, wsId } = await ownerWorkspace();
    const member = await signUp(uniqueEmail("known"));
    await invite(owner.cookie, wsId, member.email, "viewer");
    const m = await mailed(member.email);
    const refused = await acceptNew({ ...m, password: "another long password" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details?.reason).toBe("account_exists");
    // Their password is unchanged and the invitation still pending: signed in, they accept it.
    expect((await signIn(member.email, "another long password")).status).toBe(401);
    const accepted = await callJson<{ membership: { role: string } }>("POST", "/invitations/accept", {
      ...as(member.cookie),
      body: { token: m.token },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.membership.role).toBe("viewer");
  });
});

describe("accepting a mailed invitation with a new passkey", () => {
  it("makes the account with the passkey (no password), signed in and a member; the invitation and challenge work once", async () => {
    const { owner, wsId } = await ownerWorkspace();
    const email = uniqueEmail("pk");
    await invite(owner.cookie, wsId, email, "author");
    const m = await mailed(email);
    type Options = { challenge: string; user: { id: string; name: string } };
    const optionsFor = (body: Record<string, unknown>) =>
      callJson<{ options: Options } & Refused>("POST", "/invitations/accept/new-account/passkey/options", { headers: own, body });
    // The options need the mail's proof too, and name the invited address.
    expect((await optionsFor({ token: m.token, proof: `x${m.proof.slice(1)}` })).status).toBe(400);
    const opened = await optionsFor(m);
    expect(opened.status).toBe(200);
    expect(opened.body.options.user.name).toBe(email);
    const phone = new SoftAuthenticator("api.test", ORIGIN);
    const response = await phone.register(opened.body.options);
    const join = (body: Record<string, unknown>) =>
      callJson<Joined & Refused>("POST", "/invitations/accept/new-account/passkey", { headers: own, body });
    const joined = await join({ ...m, response, name: "Pat", passkeyName: "Phone" });
    expect(joined.status).toBe(201);
    expect(joined.body.session.account).toMatchObject({ email, name: "Pat" });
    expect(joined.body.membership).toMatchObject({ workspaceId: wsId, role: "author" });
    const passkeys = await expectStatus(
      callJson<{ passkeys: { name: string }[] }>("GET", "/account/passkeys", as(cookieOf(joined.res))),
      200,
    );
    expect(passkeys.passkeys.map((p) => p.name)).toEqual(["Phone"]);
    // No password was set: none signs in.
    expect(await exists(email)).toBe(false);
    // Used once: the invitation is gone, whatever the passkey.
    const again = await join({ ...m, response });
    expect(again.status).toBe(410);
    expect((await optionsFor(m)).status).toBe(410);
  });
});

describe("whether the invitation was mailed", () => {
  it("tells the inviter, and the list, when the mail could not go", async () => {
    const { owner, wsId } = await ownerWorkspace();
    const send = async (email: string, mailEnv: Env) => {
      const made = await invite(owner.cookie, wsId, email);
      // The answer the workspace gave, mailed again under another configuration.
      const request = new Request(`${ORIGIN}/workspaces/${wsId}/invitations`, { method: "POST" });
      const principal = { kind: "account" as const, accountId: owner.account.id, label: owner.email, memberships: [] };
      const answer = await mailInvitation(request, mailEnv, principal, wsId, Response.json(made, { status: 201 }));
      expect(answer.status).toBe(201);
      return ((await answer.json()) as Made).invitation;
    };
    expect((await send(uniqueEmail("nomail"), { ...env, MAIL_TRANSPORT: "" })).mailState).toBe("not_configured");
    expect((await send(uniqueEmail("down"), { ...env, SMTP_PORT: "1" })).mailState).toBe("failed");
    const list = await expectStatus(
      callJson<{ invitations: { email: string; mailState: string }[] }>("GET", `/workspaces/${wsId}/invitations`, as(owner.cookie)),
      200,
    );
    const states = Object.fromEntries(list.invitations.map((i) => [i.email.split("+")[0], i.mailState]));
    expect(states).toEqual({ nomail: "not_configured", down: "failed" });
    // The stored decision is untouched: each still counts against the day's mails.
    await runInDurableObject(workspaceStub(wsId), (_i: unknown, state: DurableObjectState) => {
      const rows = state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM invitations WHERE mail_state = 'sent'").one();
      expect(rows.n).toBe(2);
    });
  });
});
