/**
 * The contract test's calls of one area: sessions and the dashboard's calls,
 * accounts, passkeys, and workspaces with their people and keys. They run inside the
 * `describe` of test/contract.test.ts, whose `afterAll` checks that every documented answer was produced.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { listPage } from "../fixtures/blog-pages";
import { ORIGIN, OPERATOR, addItem, call, newBlog } from "../helpers";
import { capture as putCapture, putPage } from "../ssr-helpers";
import { linkIn, mailTo, uniqueEmail } from "../helpers/mail";
import { fragmentToken, invitationProofOf, PASSWORD } from "../helpers/accounts";
import { signToken } from "../../src/identity/tokens";
import { SoftAuthenticator } from "../helpers/soft-authenticator";
import { accountStub } from "../../src/stubs";
import { fixture, hit, hitOn } from "./hit";

/** Registers this area's tests inside the contract test's `describe`. */
export function accountCalls(): void {
  it("describes sessions, the dashboard and its screens' calls", async () => {
    const f = await fixture();
    const fresh = await newBlog("pro");
    const auth = fresh.adminKey;
    const base = `/sites/${fresh.id}`;
    const client = { "cf-connecting-ip": `198.51.100.${Math.floor(Math.random() * 200)}` };
    const signedIn = await hit("signIn", "POST", "/sessions", { body: { key: auth }, headers: client });
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const current = await hit("getCurrentSession", "GET", "/sessions/current", { headers: { cookie } });
    await hit("getCurrentSession", "GET", "/sessions/current");
    expect((await hit("getSessionStatus", "GET", "/sessions/current/status", { headers: { cookie } })).body).toEqual(current.body);
    expect((await hit("getSessionStatus", "GET", "/sessions/current/status")).body).toEqual({ session: null });
    await hit("signIn", "POST", "/sessions", { body: { key: auth }, headers: { origin: "https://elsewhere.test" } });
    const wrong = auth.slice(0, -4) + "aaaa";
    for (let i = 0; i < 3; i++) await hit("signIn", "POST", "/sessions", { body: { key: wrong }, headers: client });
    await hit("signIn", "POST", "/sessions", { body: { key: auth }, headers: client });
    await hit("getDashboard", "GET", "/dashboard/");

    await hit("getSiteStats", "GET", `${base}/stats`, { headers: { cookie } });
    await hit("listDashboardItems", "GET", `${base}/collections/posts/items?sort=-title&search=puppy`, { auth });
    await hit("listDashboardItems", "GET", `${base}/collections/posts/items?sort=notes`, { auth });
    await addItem(fresh, "posts", { slug: "pic", data: { title: "Pic", cover: { url: "https://img.example.com/p.jpg" } } });
    const media = await hit("listMedia", "GET", `${base}/media`, { auth });
    await hit("listMedia", "GET", `${base}/media?ids=${Array.from({ length: 101 }, (_, i) => `md_${i}`).join(",")}`, { auth });
    const mediaId = (media.body.media as { mediaId: string }[])[0]!.mediaId;
    await hit("updateMedia", "PATCH", `${base}/media/${mediaId}`, { auth, body: { alt: "A picture" } });
    await hit("updateMedia", "PATCH", `${base}/media/md_missing`, { auth, body: { alt: "x" } });
    await hit("retrySearchIndexing", "POST", `${base}/search/retry`, { auth });

    const seo = await newBlog("seo_engine");
    await hit("previewPage", "GET", `/sites/${seo.id}/ssr/preview`, { auth: seo.adminKey });
    const draft = await addItem(seo, "posts", { slug: "draft", data: { title: "Draft" } });
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: seo.token }));
    await putCapture(seo, { pageUrl, collection: "posts" });
    await hit("previewPage", "GET", `/sites/${seo.id}/ssr/preview?item=${draft.id}`, { auth: seo.adminKey });
    await hit("previewPage", "GET", `/sites/${seo.id}/ssr/preview?item=it_missing`, { auth: seo.adminKey });
    await hit("previewPage", "GET", `/sites/${f.blog.id}/ssr/preview`, { auth: f.blog.adminKey });

    await hit("rotateAdminKey", "POST", `${base}/admin-key`, { headers: { cookie, origin: ORIGIN } });
    await hit("signOut", "DELETE", "/sessions/current", { headers: { cookie, origin: "https://elsewhere.test" } });
    await hit("signOut", "DELETE", "/sessions/current", { headers: { cookie } });
  });

  it("describes accounts: sign-up, sign-in, reset and the account's sessions", async () => {
    const email = uniqueEmail("contract");
    const own = { origin: ORIGIN };
    const elsewhere = { origin: "https://elsewhere.test" };
    await hit("signUp", "POST", "/accounts", { body: { email }, headers: own });
    await hit("signUp", "POST", "/accounts", { body: { email }, headers: elsewhere });
    const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
    await hit("verifySignUp", "POST", "/accounts/verify", { body: { token, password: "nine-char" }, headers: own });
    await hit("verifySignUp", "POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: elsewhere });
    const made = await hit("verifySignUp", "POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: own });
    await hit("verifySignUp", "POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: own });
    const cookie = made.headers.get("set-cookie")!.split(";")[0]!;
    await hit("getCurrentSession", "GET", "/sessions/current", { headers: { cookie } });
    const second = await hit("signIn", "POST", "/sessions", { body: { email, password: PASSWORD }, headers: own });
    await hit("signIn", "POST", "/sessions", { body: { email, password: "wrong horse battery" }, headers: own });
    const otherCookie = second.headers.get("set-cookie")!.split(";")[0]!;
    const listed = await hit("listAccountSessions", "GET", "/account/sessions", { headers: { cookie } });
    await hit("listAccountSessions", "GET", "/account/sessions");
    const other = (listed.body.sessions as { id: string; current: boolean }[]).find((x) => !x.current)!;
    await hit("endAccountSession", "DELETE", `/account/sessions/${other.id}`, { headers: { cookie, ...elsewhere } });
    await hit("endAccountSession", "DELETE", `/account/sessions/${other.id}`, { headers: { cookie: otherCookie, ...own } });
    await hit("endAccountSession", "DELETE", `/account/sessions/${other.id}`, { headers: { cookie, ...own } });
    await hit("endAccountSession", "DELETE", `/account/sessions/${other.id}`, { headers: own });
    await hit("requestPasswordReset", "POST", "/account/password-reset", { body: { email }, headers: own });
    await hit("requestPasswordReset", "POST", "/account/password-reset", { body: { email }, headers: elsewhere });
    const reset = fragmentToken(linkIn(await mailTo(email, /Reset your password/)), "reset");
    await hit("confirmPasswordReset", "POST", "/account/password-reset/confirm", {
      body: { token: reset, password: PASSWORD },
      headers: elsewhere,
    });
    await hit("confirmPasswordReset", "POST", "/account/password-reset/confirm", {
      body: { token: reset, password: PASSWORD },
      headers: own,
    });
    await hit("confirmPasswordReset", "POST", "/account/password-reset/confirm", {
      body: { token: reset, password: PASSWORD },
      headers: own,
    });
  });

  it("describes passkeys: sign-up with one, add, list, rename, remove, sign in", async () => {
    const own = { origin: ORIGIN };
    const elsewhere = { origin: "https://elsewhere.test" };
    const email = uniqueEmail("contract-pk");
    await call("POST", "/accounts", { body: { email }, headers: own });
    const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
    type Options = { challenge: string; user: { id: string } };
    await hit("passkeySignUpOptions", "POST", "/accounts/verify/passkey/options", { body: { token }, headers: elsewhere });
    await hit("passkeySignUpOptions", "POST", "/accounts/verify/passkey/options", { body: { token: "nope" }, headers: own });
    const signUpOpts = await hit("passkeySignUpOptions", "POST", "/accounts/verify/passkey/options", { body: { token }, headers: own });
    const phone = new SoftAuthenticator("api.test", ORIGIN);
    const response = await phone.register(signUpOpts.body.options as Options);
    await hit("passkeySignUp", "POST", "/accounts/verify/passkey", { body: { token, response }, headers: elsewhere });
    await hit("passkeySignUp", "POST", "/accounts/verify/passkey", { body: { token: "nope", response }, headers: own });
    const made = await hit("passkeySignUp", "POST", "/accounts/verify/passkey", {
      body: { token, response, passkeyName: "Phone" },
      headers: own,
    });
    await hit("passkeySignUp", "POST", "/accounts/verify/passkey", { body: { token, response }, headers: own });
    const cookie = made.headers.get("set-cookie")!.split(";")[0]!;

    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: own });
    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: { cookie, ...elsewhere } });
    const regOpts = await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: { cookie, ...own } });
    const key = new SoftAuthenticator("api.test", ORIGIN);
    const keyResponse = await key.register(regOpts.body.options as Options);
    await hit("addPasskey", "POST", "/account/passkeys", { body: { response: keyResponse }, headers: own });
    await hit("addPasskey", "POST", "/account/passkeys", { body: { response: keyResponse }, headers: { cookie, ...elsewhere } });
    await hit("addPasskey", "POST", "/account/passkeys", { body: { response: { id: "x" } }, headers: { cookie, ...own } });
    const added = await hit("addPasskey", "POST", "/account/passkeys", {
      body: { response: keyResponse, name: "Key" },
      headers: { cookie, ...own },
    });
    const again = await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: { cookie, ...own } });
    await hit("addPasskey", "POST", "/account/passkeys", {
      body: { response: await key.register(again.body.options as Options) },
      headers: { cookie, ...own },
    });
    const keyId = (added.body.passkey as { id: string }).id;

    const text = { "content-type": "text/plain" };
    await hit("addPasskey", "POST", "/account/passkeys", { body: "name=x", headers: { cookie, ...own, ...text } });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: "name=x", headers: { cookie, ...own, ...text } });
    const listed = await hit("listPasskeys", "GET", "/account/passkeys", { headers: { cookie } });
    await hit("listPasskeys", "GET", "/account/passkeys");
    const phoneId = (listed.body.passkeys as { id: string; name: string }[]).find((p) => p.name === "Phone")!.id;
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: { name: "Yubikey" }, headers: { cookie, ...own } });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: { name: "" }, headers: { cookie, ...own } });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: { name: "Yubikey" }, headers: { cookie, ...elsewhere } });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: { name: "Yubikey" }, headers: own });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${"a".repeat(22)}`, { body: { name: "Yubikey" }, headers: { cookie, ...own } });

    await hit("passkeySignInOptions", "POST", "/sessions/passkey/options", { headers: elsewhere });
    // Browsers refuse an IP address as a relying party: the answer says to open localhost.
    expect(
      await hitOn("http://127.0.0.1", "passkeySignInOptions", "POST", "/sessions/passkey/options", { origin: "http://127.0.0.1" }),
    ).toBe(400);
    const ipCookie = cookie.replace(/^__Host-/, "");
    expect(
      await hitOn("http://127.0.0.1", "passkeyRegistrationOptions", "POST", "/account/passkeys/options", {
        origin: "http://127.0.0.1",
        cookie: ipCookie,
      }),
    ).toBe(400);
    const signInOpts = await hit("passkeySignInOptions", "POST", "/sessions/passkey/options", { headers: own });
    const assertion = await phone.assert(signInOpts.body.options as { challenge: string });
    await hit("passkeySignIn", "POST", "/sessions/passkey", { body: { response: assertion }, headers: elsewhere });
    await hit("passkeySignIn", "POST", "/sessions/passkey", { body: { response: {} }, headers: own });
    await hit("passkeySignIn", "POST", "/sessions/passkey", { body: { response: assertion }, headers: own });
    await hit("passkeySignIn", "POST", "/sessions/passkey", { body: { response: assertion }, headers: own });

    await hit("removePasskey", "DELETE", `/account/passkeys/${keyId}`, { headers: { cookie, ...elsewhere } });
    await hit("removePasskey", "DELETE", `/account/passkeys/${keyId}`, { headers: own });
    await hit("removePasskey", "DELETE", `/account/passkeys/${keyId}`, { headers: { cookie, ...own } });
    await hit("removePasskey", "DELETE", `/account/passkeys/${keyId}`, { headers: { cookie, ...own } });
    await hit("removePasskey", "DELETE", `/account/passkeys/${phoneId}`, { headers: { cookie, ...own } });

    // Signed in long ago: adding a passkey asks for the password again (this account has none;
    // the throttle of wrong ones is test/accounts-recent-sign-in.test.ts's).
    const accountId = (made.body.session as { account: { id: string } }).account.id;
    await runInDurableObject(accountStub(env, accountId), (_i, state) => {
      state.storage.sql.exec("UPDATE sessions SET created_at = created_at - 3600000");
    });
    const late = { cookie, ...own, "cf-connecting-ip": "192.0.2.77" };
    expect((await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: late })).status).toBe(403);
    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { body: { password: "guess" }, headers: late });
    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { body: { password: 1 }, headers: late });
    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { body: "password=x", headers: { ...late, ...text } });
  });

  it("describes accepting a mailed invitation with a new passkey", async () => {
    const own = { origin: ORIGIN };
    const elsewhere = { origin: "https://elsewhere.test" };
    const made = await call("POST", "/workspaces", { auth: OPERATOR, body: { name: "Passkey team", plan: "pro" } });
    const wsId = ((await made.json()) as { workspace: { id: string } }).workspace.id;
    const invite = async (email: string) => {
      const res = await call("POST", `/workspaces/${wsId}/invitations`, { auth: OPERATOR, body: { email, role: "editor" } });
      const link = linkIn(await mailTo(email, /invited to a workspace/));
      return {
        id: ((await res.json()) as { invitation: { id: string } }).invitation.id,
        token: fragmentToken(link, "invite"),
        proof: invitationProofOf(link),
      };
    };
    const options = "/invitations/accept/new-account/passkey/options";
    const finish = "/invitations/accept/new-account/passkey";
    const text = { "content-type": "text/plain" };
    const one = await invite(uniqueEmail("pk-invite"));
    const nowhere = `iv_${"a".repeat(16)}_${"a".repeat(40)}`;
    await hit("invitationPasskeyOptions", "POST", options, { body: { token: one.token, proof: one.proof }, headers: elsewhere });
    await hit("invitationPasskeyOptions", "POST", options, { body: { token: one.token, proof: `x${one.proof.slice(1)}` }, headers: own });
    await hit("invitationPasskeyOptions", "POST", options, { body: { token: nowhere, proof: one.proof }, headers: own });
    await hit("invitationPasskeyOptions", "POST", options, { body: "t=x", headers: { ...own, ...text } });
    const opts = await hit("invitationPasskeyOptions", "POST", options, { body: { token: one.token, proof: one.proof }, headers: own });
    const response = await new SoftAuthenticator("api.test", ORIGIN).register(
      opts.body.options as { challenge: string; user: { id: string } },
    );
    const body = { token: one.token, proof: one.proof, response };
    await hit("acceptInvitationWithNewPasskey", "POST", finish, { body, headers: elsewhere });
    await hit("acceptInvitationWithNewPasskey", "POST", finish, { body: { ...body, proof: `x${one.proof.slice(1)}` }, headers: own });
    await hit("acceptInvitationWithNewPasskey", "POST", finish, { body: { ...body, token: nowhere }, headers: own });
    await hit("acceptInvitationWithNewPasskey", "POST", finish, { body: "t=x", headers: { ...own, ...text } });
    await hit("acceptInvitationWithNewPasskey", "POST", finish, { body: { ...body, passkeyName: "Phone" }, headers: own });
    // Used: the invitation is gone for both calls.
    await hit("invitationPasskeyOptions", "POST", options, { body: { token: one.token, proof: one.proof }, headers: own });
    await hit("acceptInvitationWithNewPasskey", "POST", finish, { body, headers: own });
    // An address that has an account is sent to sign in.
    const known = uniqueEmail("pk-known");
    await call("POST", "/accounts", { body: { email: known }, headers: own });
    const verify = fragmentToken(linkIn(await mailTo(known, /Confirm your email/)), "verify");
    await call("POST", "/accounts/verify", { body: { token: verify, password: PASSWORD }, headers: own });
    const again = await invite(known);
    const againOpts = await hit("invitationPasskeyOptions", "POST", options, {
      body: { token: again.token, proof: again.proof },
      headers: own,
    });
    const againResponse = await new SoftAuthenticator("api.test", ORIGIN).register(
      againOpts.body.options as { challenge: string; user: { id: string } },
    );
    await hit("acceptInvitationWithNewPasskey", "POST", finish, {
      body: { token: again.token, proof: again.proof, response: againResponse },
      headers: own,
    });
  });

  it("describes workspaces: self-serve, members, invitations, API keys and the audit log", async () => {
    const own = { origin: ORIGIN };
    const signUpAs = async (who: string) => {
      const email = uniqueEmail(who);
      await call("POST", "/accounts", { body: { email }, headers: own });
      const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
      const made = await call("POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: own });
      const body = (await made.json()) as { session: { account: { id: string } } };
      return { email, id: body.session.account.id, headers: { cookie: made.headers.get("set-cookie")!.split(";")[0]!, ...own } };
    };
    const owner = await signUpAs("owner");
    const ws = await hit("createWorkspace", "POST", "/workspaces", { body: { name: "Self-serve" }, headers: owner.headers });
    const wsId = (ws.body.workspace as { id: string }).id;
    await hit("createSite", "POST", "/sites", { body: { name: "One", workspaceId: wsId }, headers: owner.headers });
    await hit("createSite", "POST", "/sites", { body: { name: "Two", workspaceId: wsId }, headers: owner.headers });
    const W = `/workspaces/${wsId}`;
    const invited = await signUpAs("member");
    const inv = await hit("createInvitation", "POST", `${W}/invitations`, {
      body: { email: invited.email, role: "editor" },
      headers: owner.headers,
    });
    const shared = await hit("createInvitation", "POST", `${W}/invitations`, { body: { role: "viewer" }, headers: owner.headers });
    // The Free plan's 3 members, pending invitations included: the next is refused.
    await hit("createInvitation", "POST", `${W}/invitations`, { body: { role: "viewer" }, headers: owner.headers });
    await hit("revokeInvitation", "DELETE", `${W}/invitations/${(shared.body.invitation as { id: string }).id}`, {
      headers: owner.headers,
    });
    await hit("listInvitations", "GET", `${W}/invitations`, { headers: owner.headers });
    const token = inv.body.token as string;
    await hit("lookupInvitation", "POST", "/invitations/lookup", { body: { token }, headers: own });
    await hit("lookupInvitation", "POST", "/invitations/lookup", { body: { token }, headers: { origin: "https://elsewhere.test" } });
    await hit("lookupInvitation", "POST", "/invitations/lookup", {
      body: { token: `iv_${wsId.slice(3)}_${"a".repeat(40)}` },
      headers: own,
    });
    // The stop link of the invitation mail: used (here undone at once), from elsewhere, altered, expired.
    const mailed = await mailTo(invited.email, /invited to a workspace/);
    const stop = fragmentToken(/https?:\/\/\S+#\/stop-invitations\/\S+/.exec(mailed.text)![0], "stop-invitations");
    await hit("stopInvitationMail", "POST", "/invitations/stop-mail", { body: { token: stop, stop: false }, headers: own });
    await hit("stopInvitationMail", "POST", "/invitations/stop-mail", {
      body: { token: stop },
      headers: { origin: "https://elsewhere.test" },
    });
    await hit("stopInvitationMail", "POST", "/invitations/stop-mail", { body: { token: `x${stop.slice(1)}` }, headers: own });
    const lapsed = await signToken(env.AUTH_SECRET ?? "", "invitation-mail-stop", { a: invited.id }, Date.now() - 1000);
    await hit("stopInvitationMail", "POST", "/invitations/stop-mail", { body: { token: lapsed }, headers: own });
    // With a new account from the mail's link: this address has one already (409), so it signs in instead.
    const proof = invitationProofOf(linkIn(mailed));
    const newAccount = "/invitations/accept/new-account";
    await hit("acceptInvitationWithNewAccount", "POST", newAccount, { body: { token, proof, password: PASSWORD }, headers: own });
    await hit("acceptInvitationWithNewAccount", "POST", newAccount, {
      body: { token, proof, password: PASSWORD },
      headers: { origin: "https://elsewhere.test" },
    });
    await hit("acceptInvitationWithNewAccount", "POST", newAccount, {
      body: { token, proof: `x${proof.slice(1)}`, password: PASSWORD },
      headers: own,
    });
    await hit("acceptInvitationWithNewAccount", "POST", newAccount, {
      body: { token: `iv_${"a".repeat(16)}_${"a".repeat(40)}`, proof, password: PASSWORD },
      headers: own,
    });
    await hit("acceptInvitationWithNewAccount", "POST", newAccount, { body: "t=x", headers: { ...own, "content-type": "text/plain" } });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: { token }, headers: own });
    await hit("acceptInvitation", "POST", "/invitations/accept", {
      body: { token: `iv_${wsId.slice(3)}_${"a".repeat(40)}` },
      headers: invited.headers,
    });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: { token }, headers: invited.headers });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: { token }, headers: invited.headers });
    await hit("lookupInvitation", "POST", "/invitations/lookup", { body: { token }, headers: own });
    await hit("acceptInvitationWithNewAccount", "POST", newAccount, { body: { token, proof, password: PASSWORD }, headers: own });
    const other = await hit("createInvitation", "POST", `${W}/invitations`, {
      body: { email: uniqueEmail("x"), role: "viewer" },
      headers: owner.headers,
    });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: { token: other.body.token }, headers: invited.headers });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: "[]", headers: invited.headers });
    await hit("acceptInvitation", "POST", "/invitations/accept", {
      body: "t=x",
      headers: { ...invited.headers, "content-type": "text/plain" },
    });
    await hit("revokeInvitation", "DELETE", `${W}/invitations/${(other.body.invitation as { id: string }).id}`, { headers: owner.headers });
    await hit("revokeInvitation", "DELETE", `${W}/invitations/inv_none`, { headers: owner.headers });
    // Accepted with a new account from the mail to an address without one: signed in and a member.
    const fresh = uniqueEmail("fresh");
    const freshInvitation = await hit("createInvitation", "POST", `${W}/invitations`, {
      body: { email: fresh, role: "viewer" },
      headers: owner.headers,
    });
    const freshLink = linkIn(await mailTo(fresh, /invited to a workspace/));
    await hit("acceptInvitationWithNewAccount", "POST", newAccount, {
      body: { token: freshInvitation.body.token, proof: invitationProofOf(freshLink), password: PASSWORD, name: "Fresh" },
      headers: own,
    });
    await hit("listMembers", "GET", `${W}/members`, { headers: owner.headers });
    await hit("updateMember", "PATCH", `${W}/members/${invited.id}`, { body: { role: "viewer" }, headers: owner.headers });
    await hit("updateMember", "PATCH", `${W}/members/${owner.id}`, { body: { role: "viewer" }, headers: owner.headers });
    await hit("updateMember", "PATCH", `${W}/members/ac_none`, { body: { role: "viewer" }, headers: owner.headers });
    await hit("listMembers", "GET", `${W}/members`, { headers: invited.headers });
    await hit("listInvitations", "GET", `${W}/invitations`, { headers: invited.headers });
    await hit("listApiKeys", "GET", `${W}/api-keys`, { headers: invited.headers });
    await hit("listAudit", "GET", `${W}/audit`, { headers: invited.headers });
    await hit("exportAudit", "GET", `${W}/audit.csv`, { headers: invited.headers });
    // Only the Owner hands the workspace over or deletes it; ownership goes there and back.
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: owner.id }, headers: invited.headers });
    await hit("deleteWorkspace", "DELETE", W, { body: { confirm: "Self-serve" }, headers: invited.headers });
    // The plan, self-serve (wrangler.toml's local SELF_SERVE_PLANS): the Owner alone; a smaller plan than the workspace fits is refused.
    await hit("changePlan", "PUT", `${W}/plan`, { body: { plan: "pro" }, headers: invited.headers });
    await hit("changePlan", "PUT", `${W}/plan`, { body: { plan: "gold" }, headers: owner.headers });
    await hit("changePlan", "PUT", `${W}/plan`, { body: { plan: "starter" }, headers: owner.headers });
    await hit("createSite", "POST", "/sites", { body: { name: "Three", workspaceId: wsId }, headers: owner.headers });
    await hit("changePlan", "PUT", `${W}/plan`, { body: { plan: "free" }, headers: owner.headers });
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: "ac_none" }, headers: owner.headers });
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: owner.id }, headers: owner.headers });
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: invited.id }, headers: owner.headers });
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: owner.id }, headers: invited.headers });
    await hit("removeMember", "DELETE", `${W}/members/${owner.id}`, { headers: owner.headers });
    await hit("removeMember", "DELETE", `${W}/members/${invited.id}`, { headers: owner.headers });
    await hit("removeMember", "DELETE", `${W}/members/${invited.id}`, { headers: owner.headers });
    const key = await hit("createApiKey", "POST", `${W}/api-keys`, { body: { name: "ci", scope: "read" }, headers: owner.headers });
    await hit("listApiKeys", "GET", `${W}/api-keys`, { headers: owner.headers });
    await hit("revokeApiKey", "DELETE", `${W}/api-keys/${(key.body.apiKey as { id: string }).id}`, { headers: owner.headers });
    await hit("revokeApiKey", "DELETE", `${W}/api-keys/key_none`, { headers: owner.headers });
    await hit("listAudit", "GET", `${W}/audit?limit=2`, { headers: owner.headers });
    await hit("listAudit", "GET", `${W}/audit?before=nonsense`, { headers: owner.headers });
    await hit("exportAudit", "GET", `${W}/audit.csv`, { headers: owner.headers });
    await hit("exportAudit", "GET", `${W}/audit.csv?from=2000-01-01`, { headers: owner.headers });
    await hit("deleteWorkspace", "DELETE", W, { body: { confirm: "self-serve" }, headers: owner.headers });
    await hit("deleteWorkspace", "DELETE", W, { body: { confirm: "Self-serve" }, headers: owner.headers });
    await hit("getWorkspace", "GET", W, { headers: owner.headers });
    for (const [id, method, path] of [
      ["deleteWorkspace", "DELETE", ""],
      ["transferOwnership", "POST", "/owner"],
      ["listMembers", "GET", "/members"],
      ["listInvitations", "GET", "/invitations"],
      ["revokeInvitation", "DELETE", "/invitations/inv_none"],
      ["listApiKeys", "GET", "/api-keys"],
      ["createApiKey", "POST", "/api-keys"],
      ["revokeApiKey", "DELETE", "/api-keys/key_none"],
      ["listAudit", "GET", "/audit"],
      ["exportAudit", "GET", "/audit.csv"],
      ["updateMember", "PATCH", "/members/ac_none"],
      ["removeMember", "DELETE", "/members/ac_none"],
      ["createInvitation", "POST", "/invitations"],
      ["changePlan", "PUT", "/plan"],
    ] as const)
      await hit(id, method, `/workspaces/ws_aaaaaaaaaaaaaaaa${path}`, {
        auth: OPERATOR,
        body:
          id === "changePlan"
            ? { plan: "pro" }
            : method === "POST" || method === "PATCH"
              ? id === "createApiKey"
                ? { name: "n", scope: "read" }
                : { role: "viewer" }
              : undefined,
      });
  });
}
