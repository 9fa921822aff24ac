/**
 * A stolen session cannot plant a passkey that outlives a password reset: adding one needs a
 * recent sign-in (or the password again), every new or removed passkey and every password change
 * is mailed to the address with a link to reset, and a reset removes every passkey. Through the
 * real front Worker and Account object, with the tests' software authenticator; the stolen cookie
 * is tried as a thief would use it.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson, ORIGIN } from "./helpers";
import { cookieOf, fragmentToken, PASSWORD, signIn, signUp } from "./helpers/accounts";
import { linkIn, mailTo, mailsTo, uniqueEmail } from "./helpers/mail";
import { SoftAuthenticator } from "./helpers/soft-authenticator";
import { accountStub } from "../src/stubs";

const RP = "api.test";
let nextIp = 1;
const freshIp = () => ({ "cf-connecting-ip": `203.0.113.${100 + nextIp++}` });
const NEW_PASSWORD = "a brand new passphrase";

type Options = { challenge: string; user: { id: string } };
type Refusal = {
  error: { code: string; message: string; details: { reason: string; hasPassword?: boolean; issues?: { path: string }[] } };
};

const options = (cookie: string, body?: unknown, headers: Record<string, string> = {}) =>
  callJson<{ options: Options } & Refusal>("POST", "/account/passkeys/options", { body, headers: { cookie, origin: ORIGIN, ...headers } });

async function addPasskey(cookie: string, auth: SoftAuthenticator, name: string, body?: unknown) {
  const reg = await options(cookie, body, freshIp());
  expect(reg.status).toBe(200);
  const made = await callJson<{ passkey: { id: string; name: string } }>("POST", "/account/passkeys", {
    body: { response: await auth.register(reg.body.options), name },
    headers: { cookie, origin: ORIGIN },
  });
  expect(made.status).toBe(201);
  return made.body.passkey;
}

/** The session signed in `minutes` ago: its row's sign-in time moved back (last use stays now). */
async function signedInAgo(accountId: string, minutes: number): Promise<void> {
  await runInDurableObject(accountStub(env, accountId), (_i, state) => {
    state.storage.sql.exec("UPDATE sessions SET created_at = created_at - ?", minutes * 60_000);
  });
}

async function passkeySignIn(auth: SoftAuthenticator) {
  const opts = await callJson<{ options: Options }>("POST", "/sessions/passkey/options", { headers: { origin: ORIGIN } });
  return callJson("POST", "/sessions/passkey", {
    body: { response: await auth.assert(opts.body.options) },
    headers: { origin: ORIGIN, ...freshIp() },
  });
}

async function reset(email: string) {
  expect((await call("POST", "/account/password-reset", { body: { email }, headers: { origin: ORIGIN, ...freshIp() } })).status).toBe(202);
  const token = fragmentToken(linkIn(await mailTo(email, /Reset your password/)), "reset");
  return callJson<{ passkeysRemoved: number }>("POST", "/account/password-reset/confirm", {
    body: { token, password: NEW_PASSWORD },
    headers: { origin: ORIGIN },
  });
}

describe("adding a passkey needs a recent sign-in", () => {
  it("a session cookie signed in long ago cannot add a passkey; the password typed again, or a new sign-in, can", async () => {
    const { email, cookie, account } = await signUp(uniqueEmail("recent"), PASSWORD, freshIp());
    await signedInAgo(account.id, 11);

    // The thief with the cookie, from one address: no options, so no passkey can be made.
    const ip = freshIp();
    const refused = await options(cookie, undefined, ip);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "forbidden", details: { reason: "sign_in_again", hasPassword: true } });
    expect(refused.body.error.message).toBe(
      "To add a passkey, confirm it is you: enter your password (you signed in more than 10 minutes ago).",
    );
    expect((await options(cookie, {}, ip)).status).toBe(403);
    const wrong = await options(cookie, { password: "not the password" }, ip);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.details).toMatchObject({ reason: "wrong_password", issues: [{ path: "password" }] });
    // Wrong passwords count as sign-in attempts: a thief cannot guess it here either.
    for (let i = 0; i < 2; i++) expect((await options(cookie, { password: `guess ${i}` }, ip)).status).toBe(403);
    expect((await options(cookie, { password: PASSWORD }, ip)).status).toBe(429);

    // The person: signs in again (a fresh session needs nothing more).
    const again = await signIn(email, PASSWORD, freshIp());
    expect(again.status).toBe(201);
    const fresh = cookieOf(again.res);
    await addPasskey(fresh, new SoftAuthenticator(RP, ORIGIN), "Laptop");
    // Or, on an old session, the password typed again.
    await signedInAgo(account.id, 11);
    expect((await options(fresh, undefined, freshIp())).status).toBe(403);
    await addPasskey(fresh, new SoftAuthenticator(RP, ORIGIN), "Phone", { password: PASSWORD });
    const names = (await callJson<{ passkeys: { name: string }[] }>("GET", "/account/passkeys", { headers: { cookie: fresh } })).body
      .passkeys;
    expect(names.map((p) => p.name)).toEqual(["Laptop", "Phone"]);
  });

  it("an account without a password is told to sign in again with a passkey, and a passkey sign-in will do", async () => {
    const email = uniqueEmail("nopw");
    expect((await call("POST", "/accounts", { body: { email }, headers: { origin: ORIGIN, ...freshIp() } })).status).toBe(202);
    const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
    const opts = await callJson<{ options: Options }>("POST", "/accounts/verify/passkey/options", {
      body: { token },
      headers: { origin: ORIGIN },
    });
    const auth = new SoftAuthenticator(RP, ORIGIN);
    const made = await callJson<{ session: { account: { id: string } } }>("POST", "/accounts/verify/passkey", {
      body: { token, response: await auth.register(opts.body.options) },
      headers: { origin: ORIGIN },
    });
    expect(made.status).toBe(201);
    await signedInAgo(made.body.session.account.id, 30);
    const refused = await options(cookieOf(made.res), undefined, freshIp());
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toMatchObject({ reason: "sign_in_again", hasPassword: false });
    expect(refused.body.error.message).toContain("sign in again with one of your passkeys");
    const again = await passkeySignIn(auth);
    expect(again.status).toBe(201);
    await addPasskey(cookieOf(again.res), new SoftAuthenticator(RP, ORIGIN), "Security key");
  });
});

describe("every change to the ways in is mailed, and a reset removes every passkey", () => {
  it("mails a new passkey and a removed one, each with a link to reset the password", async () => {
    const { email, cookie } = await signUp(uniqueEmail("mailed"), PASSWORD, freshIp());
    const passkey = await addPasskey(cookie, new SoftAuthenticator(RP, ORIGIN), "Work laptop");
    const added = await mailTo(email, /A passkey was added/);
    expect(added.text).toContain('A passkey named "Work laptop" was added');
    expect(linkIn(added)).toBe(`${ORIGIN}/dashboard/#/forgot`);
    expect(
      (await call("DELETE", `/account/passkeys/${encodeURIComponent(passkey.id)}`, { headers: { cookie, origin: ORIGIN } })).status,
    ).toBe(200);
    const removed = await mailTo(email, /A passkey was removed/);
    expect(removed.text).toContain('The passkey named "Work laptop" was removed');
    expect(linkIn(removed)).toBe(`${ORIGIN}/dashboard/#/forgot`);
  });

  it("a passkey planted in a fresh stolen session is gone after the reset, and the change is mailed", async () => {
    const { email, cookie } = await signUp(uniqueEmail("planted"), PASSWORD, freshIp());
    const own = new SoftAuthenticator(RP, ORIGIN);
    await addPasskey(cookie, own, "Mine");
    // A thief with the session cookie in its first minutes plants a passkey of their own.
    const thief = new SoftAuthenticator(RP, ORIGIN);
    await addPasskey(cookie, thief, "MacBook");
    expect((await passkeySignIn(thief)).status).toBe(201);

    const done = await reset(email);
    expect(done.status).toBe(201);
    expect(done.body.passkeysRemoved).toBe(2);
    expect((await call("GET", "/sessions/current", { headers: { cookie } })).status).toBe(401);
    const thiefAgain = await passkeySignIn(thief);
    expect(thiefAgain.status).toBe(401);
    expect((await passkeySignIn(own)).status).toBe(401);
    const listed = await callJson<{ passkeys: unknown[] }>("GET", "/account/passkeys", { headers: { cookie: cookieOf(done.res) } });
    expect(listed.body.passkeys).toEqual([]);
    const changed = await mailTo(email, /Your password was changed/);
    expect(changed.text).toContain('The reset also removed your passkeys: "Mine", "MacBook".');
    expect(linkIn(changed)).toBe(`${ORIGIN}/dashboard/#/forgot`);
    expect((await mailsTo(email)).filter((m) => /A passkey was added/.test(m.subject))).toHaveLength(2);
  });
});
