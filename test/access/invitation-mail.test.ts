/**
 * Invitation mail through the real front Worker, workspace, account and throttle objects and the
 * local mail catcher: the service's own sender is no relay. The workspace's name stays out of the
 * subject and is quoted, labelled and escaped in the body; every mail has a stop link that needs no
 * sign-in; and a workspace (by plan), an inviting account and an address each get a day's number
 * of mails (src/contract/limits.ts INVITATION_MAIL_LIMITS), after which invitations are made but
 * not mailed, and the inviter is told why.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson, expectStatus, OPERATOR, ORIGIN } from "../helpers";
import { fragmentToken, signUp } from "../helpers/accounts";
import { linkIn, mailsTo, mailTo, uniqueEmail } from "../helpers/mail";
import { accountIdOf } from "../../src/identity/email";
import { signToken } from "../../src/identity/tokens";
import { INVITATION_MAIL_LIMITS } from "../../src/contract/limits";

type Made = { invitation: { id: string; email: string | null; mailState: string }; link: string };
const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });
const SUBJECT = /^You're invited to a workspace on open-content-edge$/;

async function operatorWorkspace(name: string, plan = "pro"): Promise<string> {
  const made = await callJson<{ workspace: { id: string } }>("POST", "/workspaces", { auth: OPERATOR, body: { name, plan } });
  return (await expectStatus(Promise.resolve(made), 201)).workspace.id;
}

const invite = async (workspaceId: string, email: string, opts: { auth?: string; headers?: Record<string, string> } = { auth: OPERATOR }) =>
  (await expectStatus(callJson<Made>("POST", `/workspaces/${workspaceId}/invitations`, { ...opts, body: { email, role: "editor" } }), 201))
    .invitation;

const stopLink = (mail: { text: string }): string => {
  const m = /https?:\/\/\S+#\/stop-invitations\/\S+/.exec(mail.text);
  if (!m) throw new Error(`no stop link in ${mail.text}`);
  return m[0];
};

const stop = (token: string, body: Record<string, unknown> = {}, origin = ORIGIN) =>
  callJson<{ stopped?: boolean; error?: { code: string; details?: { status?: string } } }>("POST", "/invitations/stop-mail", {
    headers: { origin },
    body: { token, ...body },
  });

/** Mails are sent after the answer: long enough for one that was going to arrive to have arrived. */
const settle = () => new Promise((r) => setTimeout(r, 1500));

describe("invitation mail", () => {
  it("keeps the workspace's name out of the subject; the body quotes it on one labelled line, escaped", async () => {
    const name = "Acme <b>Payroll</b>\n\nURGENT: your account is locked, verify at https://evil.example/login";
    const id = await operatorWorkspace(name);
    const to = uniqueEmail("named");
    expect((await invite(id, to)).mailState).toBe("sent");
    const mail = await mailTo(to, SUBJECT);
    expect(mail.subject).not.toContain("Acme");
    expect(mail.text).toContain(
      "Workspace name, as its creator typed it: Acme <b>Payroll</b> URGENT: your account is locked, verify at https://evil.example/login",
    );
    // The name cannot open paragraphs of its own in the text part, nor markup in the HTML part.
    expect(mail.text).not.toContain("\n\nURGENT");
    expect(mail.html).toContain("Acme &lt;b&gt;Payroll&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>Payroll");
    // The first link is the invitation; the stop link comes after it.
    expect(linkIn(mail)).toMatch(/#\/invite\/iv_/);
    expect(stopLink(mail)).toMatch(/^https:\/\/api\.test\/dashboard\/#\/stop-invitations\/[\w-]+\.[\w-]+$/);
  });

  it("stops for an address that used its stop link (no sign-in), tells the inviter, and mails again after an undo", async () => {
    const to = uniqueEmail("refuses");
    const first = await operatorWorkspace("First");
    await invite(first, to);
    const token = fragmentToken(stopLink(await mailTo(to, SUBJECT)), "stop-invitations");

    // Refused as anything but the link itself: from another origin, altered, or past its year.
    expect((await stop(token, {}, "https://elsewhere.test")).status).toBe(403);
    // One character of the signature changed (never the last, whose low bits base64 does not use).
    const at = token.indexOf(".") + 5;
    const altered = `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
    expect((await stop(altered)).status).toBe(404);
    const recipient = await accountIdOf(to);
    const secret = env.AUTH_SECRET ?? "";
    const old = await signToken(secret, "invitation-mail-stop", { a: recipient }, Date.now() - 1000);
    const expired = await stop(old);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: "gone", details: { status: "expired" } });
    // A sign-up link's token is no stop link.
    const signup = await signToken(secret, "signup", { a: recipient }, Date.now() + 60_000);
    expect((await stop(signup)).status).toBe(404);

    expect((await expectStatus(stop(token), 200)).stopped).toBe(true);
    // Kept by the address's Account object, which for an address without an account holds nothing else.
    const account = env.ACCOUNT.get(env.ACCOUNT.idFromName(recipient));
    expect(await account.refusesInvitations()).toBe(true);
    expect((await account.stats()).stored).toBe(false);

    // An account of its own invites the address: made, not mailed, and the inviter is told so.
    const owner = await signUp(uniqueEmail("inviter"));
    const ws = await expectStatus(
      callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Second" } }),
      201,
    );
    const refused = await invite(ws.workspace.id, to, as(owner.cookie));
    expect(refused.mailState).toBe("recipient");
    const listed = await expectStatus(
      callJson<{ invitations: { id: string; mailState: string }[] }>("GET", `/workspaces/${ws.workspace.id}/invitations`, as(owner.cookie)),
      200,
    );
    expect(listed.invitations.find((i) => i.id === refused.id)?.mailState).toBe("recipient");
    await settle();
    expect((await mailsTo(to)).length).toBe(1);

    expect((await expectStatus(stop(token, { stop: false }), 200)).stopped).toBe(false);
    expect(await account.refusesInvitations()).toBe(false);
    expect((await invite(first, to)).mailState).toBe("sent");
    await settle();
    expect((await mailsTo(to)).length).toBe(2);
  });

  it("mails an address at most 3 invitations a day, from any workspaces", async () => {
    const to = uniqueEmail("popular");
    const states: string[] = [];
    for (let i = 0; i <= INVITATION_MAIL_LIMITS.perRecipient; i++)
      states.push((await invite(await operatorWorkspace(`W${i}`), to)).mailState);
    expect(states).toEqual(["sent", "sent", "sent", "recipient"]);
    await settle();
    expect((await mailsTo(to)).length).toBe(3);
  });

  it("mails 20 invitations a day from a Free workspace, revoked ones counted; the next is made with its link, not mailed", async () => {
    const owner = await signUp(uniqueEmail("free-owner"));
    const ws = await expectStatus(
      callJson<{ workspace: { id: string; plan: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Loop" } }),
      201,
    );
    expect(ws.workspace.plan).toBe("free");
    const W = `/workspaces/${ws.workspace.id}`;
    // Revoking and inviting again stays within the Free plan's 3 members, so only the mail count stops it.
    for (let i = 0; i < INVITATION_MAIL_LIMITS.perWorkspace.free; i++) {
      const made = await invite(ws.workspace.id, uniqueEmail("loop"), as(owner.cookie));
      expect(made.mailState, `invitation ${i + 1}`).toBe("sent");
      await expectStatus(callJson("DELETE", `${W}/invitations/${made.id}`, as(owner.cookie)), 200);
    }
    const to = uniqueEmail("one-too-many");
    const over = await expectStatus(
      callJson<Made>("POST", `${W}/invitations`, { ...as(owner.cookie), body: { email: to, role: "viewer" } }),
      201,
    );
    expect(over.invitation.mailState).toBe("workspace_limit");
    expect(over.link).toMatch(/#\/invite\/iv_/);
    await settle();
    expect(await mailsTo(to)).toEqual([]);
  });

  it("mails at most 100 invitations a day from one account over all its workspaces", async () => {
    const owner = await signUp(uniqueEmail("busy-owner"));
    // The account's day so far, counted where the limit is kept (the throttle object of its invitations).
    const byOwner = env.SIGN_IN_THROTTLE.get(env.SIGN_IN_THROTTLE.idFromName(`invite-by:${owner.account.id}`));
    for (let i = 0; i < INVITATION_MAIL_LIMITS.perInviter - 1; i++)
      expect((await byOwner.take(INVITATION_MAIL_LIMITS.perInviter, INVITATION_MAIL_LIMITS.windowMs)).allowed).toBe(true);
    const made = async (name: string) =>
      (await expectStatus(callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name } }), 201))
        .workspace.id;
    const a = await made("A");
    const b = await made("B");
    expect((await invite(a, uniqueEmail("last"), as(owner.cookie))).mailState).toBe("sent");
    const to = uniqueEmail("over");
    expect((await invite(b, to, as(owner.cookie))).mailState).toBe("inviter_limit");
    await settle();
    expect(await mailsTo(to)).toEqual([]);
  });
});
