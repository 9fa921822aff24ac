import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson, ORIGIN } from "./helpers";
import { cookieOf, fragmentToken, PASSWORD, signIn, signUp } from "./helpers/accounts";
import { linkIn, mailTo, mailsTo, uniqueEmail } from "./helpers/mail";
import { SoftAuthenticator } from "./helpers/soft-authenticator";
import { accountStub } from "../src/stubs";

// Passkeys against the real @simplewebauthn/server in workerd, with a software authenticator
// (real ES256 keys, CBOR, DER signatures). The service's origin here is https://api.test, so the
// relying party is "api.test" (no PASSKEY_RP_ID configured).
const RP = "api.test";
let nextIp = 1;
const freshIp = () => ({ "cf-connecting-ip": `203.0.113.${nextIp++}` });

type Options = { challenge: string; user: { id: string } };
type Passkey = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

async function addPasskey(cookie: string, auth: SoftAuthenticator, name?: string) {
  const reg = await callJson<{ options: Options }>("POST", "/account/passkeys/options", { headers: { cookie, origin: ORIGIN } });
  expect(reg.status).toBe(200);
  const response = await auth.register(reg.body.options);
  const made = await callJson<{ passkey: Passkey }>("POST", "/account/passkeys", {
    body: { response, ...(name ? { name } : {}) },
    headers: { cookie, origin: ORIGIN },
  });
  return { ...made, options: reg.body.options, response };
}

async function signInOptions(headers: Record<string, string> = {}) {
  const opts = await callJson<{ options: { challenge: string; rpId: string } }>("POST", "/sessions/passkey/options", {
    headers: { origin: ORIGIN, ...headers },
  });
  expect(opts.status).toBe(200);
  return opts.body.options;
}

const passkeySignIn = (response: unknown, headers: Record<string, string> = {}) =>
  callJson<{ session?: { kind: string; account: { id: string } }; error?: { code: string; message: string } }>(
    "POST",
    "/sessions/passkey",
    { body: { response }, headers: { origin: ORIGIN, ...headers } },
  );

describe("passkeys", () => {
  it("adds, lists and renames a passkey, and signs in with it like a password (session, cookie, last used)", async () => {
    const { cookie, account } = await signUp(undefined, PASSWORD);
    const auth = new SoftAuthenticator(RP, ORIGIN);
    const made = await addPasskey(cookie, auth, "Laptop");
    expect(made.status).toBe(201);
    expect(made.body.passkey).toMatchObject({ name: "Laptop", lastUsedAt: null });
    expect(made.options.user.id).toBe(btoa(account.id).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));

    const options = await signInOptions();
    expect(options.rpId).toBe(RP);
    const signedIn = await passkeySignIn(await auth.assert(options), freshIp());
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.session).toMatchObject({ kind: "account", account: { id: account.id } });
    expect(signedIn.res.headers.get("set-cookie")).toMatch(
      /^__Host-oc_session=sa_ac_[a-z2-7]+_[a-z2-7]+; Path=\/; HttpOnly; SameSite=Strict; Secure/,
    );
    const current = await callJson<{ session: { kind: string } }>("GET", "/sessions/current", {
      headers: { cookie: cookieOf(signedIn.res) },
    });
    expect(current.body.session.kind).toBe("account");

    const listed = await callJson<{ passkeys: Passkey[] }>("GET", "/account/passkeys", { headers: { cookie } });
    expect(listed.body.passkeys).toHaveLength(1);
    expect(listed.body.passkeys[0]!.lastUsedAt).not.toBeNull();
    const renamed = await callJson<{ passkey: Passkey }>("PATCH", `/account/passkeys/${made.body.passkey.id}`, {
      body: { name: "Work laptop" },
      headers: { cookie, origin: ORIGIN },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.passkey.name).toBe("Work laptop");
    // The same authenticator again is refused (it is excluded in the options, and stored once).
    const again = await addPasskey(cookie, auth);
    expect(again.status).toBe(409);
  });

  it("refuses a replayed challenge, for sign-in and for registration", async () => {
    const { cookie } = await signUp(undefined, PASSWORD);
    const auth = new SoftAuthenticator(RP, ORIGIN);
    const made = await addPasskey(cookie, auth);
    expect(made.status).toBe(201);
    // The registration posted again: its challenge was used.
    const replayedReg = await callJson<{ error: { details: { reason: string } } }>("POST", "/account/passkeys", {
      body: { response: await new SoftAuthenticator(RP, ORIGIN).register(made.options) },
      headers: { cookie, origin: ORIGIN },
    });
    expect(replayedReg.status).toBe(400);
    expect(replayedReg.body.error.details.reason).toBe("used");

    const options = await signInOptions();
    const first = await auth.assert(options);
    expect((await passkeySignIn(first, freshIp())).status).toBe(201);
    // The very same answer again, and a fresh signature over the same challenge: both refused.
    expect((await passkeySignIn(first, freshIp())).status).toBe(401);
    const second = await passkeySignIn(await auth.assert(options), freshIp());
    expect(second.status).toBe(401);
    expect(second.body.error!.code).toBe("unauthorized");
    // A sign-in challenge is no registration challenge.
    const crossed = await call("POST", "/account/passkeys", {
      body: {
        response: await new SoftAuthenticator(RP, ORIGIN).register({ ...made.options, challenge: (await signInOptions()).challenge }),
      },
      headers: { cookie, origin: ORIGIN },
    });
    expect(crossed.status).toBe(400);
  });

  it("refuses an answer made for another origin or another relying party", async () => {
    const { cookie } = await signUp(undefined, PASSWORD);
    const auth = new SoftAuthenticator(RP, ORIGIN);
    expect((await addPasskey(cookie, auth)).status).toBe(201);
    const phish = await passkeySignIn(await auth.assert(await signInOptions(), "https://evil.test"), freshIp());
    expect(phish.status).toBe(401);
    const otherRp = await passkeySignIn(await auth.assert(await signInOptions(), ORIGIN, "evil.test"), freshIp());
    expect(otherRp.status).toBe(401);
    // A registration made on another origin is not stored.
    const reg = await callJson<{ options: Options }>("POST", "/account/passkeys/options", { headers: { cookie, origin: ORIGIN } });
    const bad = await call("POST", "/account/passkeys", {
      body: { response: await new SoftAuthenticator(RP, ORIGIN).register(reg.body.options, "https://evil.test") },
      headers: { cookie, origin: ORIGIN },
    });
    expect(bad.status).toBe(400);
    expect((await callJson<{ passkeys: Passkey[] }>("GET", "/account/passkeys", { headers: { cookie } })).body.passkeys).toHaveLength(1);
    // And the good one still works.
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(201);
  });

  it("refuses a signature counter that went back (a cloned authenticator), as @simplewebauthn/server decides", async () => {
    const { cookie } = await signUp(undefined, PASSWORD);
    const auth = new SoftAuthenticator(RP, ORIGIN);
    expect((await addPasskey(cookie, auth)).status).toBe(201);
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(201); // counter 1
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(201); // counter 2
    auth.counter = 1; // the next answer says 2 again
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(401);
    auth.counter = 0; // 1: lower still
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(401);
    auth.counter = 5; // moving on from the stored 2 is fine
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(201);
  });

  it("refuses a passkey of another account presented as this account's", async () => {
    const a = await signUp(undefined, PASSWORD);
    const b = await signUp(undefined, PASSWORD);
    const authA = new SoftAuthenticator(RP, ORIGIN);
    const authB = new SoftAuthenticator(RP, ORIGIN);
    expect((await addPasskey(a.cookie, authA)).status).toBe(201);
    expect((await addPasskey(b.cookie, authB)).status).toBe(201);
    // B's credential, signed by B's key, but naming A's user handle: A's object has no such passkey.
    const forged = await authB.assert(await signInOptions());
    forged.response.userHandle = authA.userHandle;
    expect((await passkeySignIn(forged, freshIp())).status).toBe(401);
    // A's credential id with B's key: the signature does not verify against A's stored key.
    const swapped = await authB.assert(await signInOptions());
    const own = await authA.assert(await signInOptions());
    const mixed = { ...swapped, id: own.id, rawId: own.rawId, response: { ...swapped.response, userHandle: authA.userHandle } };
    expect((await passkeySignIn(mixed, freshIp())).status).toBe(401);
    // B's passkey cannot be renamed or removed by A.
    const bId = (await callJson<{ passkeys: Passkey[] }>("GET", "/account/passkeys", { headers: { cookie: b.cookie } })).body.passkeys[0]!
      .id;
    expect(
      (await call("PATCH", `/account/passkeys/${bId}`, { body: { name: "mine" }, headers: { cookie: a.cookie, origin: ORIGIN } })).status,
    ).toBe(404);
    expect((await call("DELETE", `/account/passkeys/${bId}`, { headers: { cookie: a.cookie, origin: ORIGIN } })).status).toBe(404);
  });

  it("throttles failed passkey sign-ins like passwords: per client and account, then even the right passkey waits", async () => {
    const { cookie, email } = await signUp(undefined, PASSWORD);
    const auth = new SoftAuthenticator(RP, ORIGIN);
    expect((await addPasskey(cookie, auth)).status).toBe(201);
    const client = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await passkeySignIn(await auth.assert(await signInOptions(), "https://evil.test"), client)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await passkeySignIn(await auth.assert(await signInOptions()), client);
    expect(refused.status).toBe(429);
    expect(refused.res.headers.get("retry-after")).toMatch(/^\d+$/);
    // The same client's password attempts for that account count on the same key.
    expect((await signIn(email, PASSWORD, client)).status).toBe(429);
    // Another client signs in; the account itself is not locked.
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(201);
  });

  it("mails a 'new sign-in' notice for a passkey sign-in from a new browser", async () => {
    const { cookie, email } = await signUp(undefined, PASSWORD);
    const auth = new SoftAuthenticator(RP, ORIGIN);
    expect((await addPasskey(cookie, auth)).status).toBe(201);
    const firefox = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0" };
    expect((await passkeySignIn(await auth.assert(await signInOptions()), { ...freshIp(), ...firefox })).status).toBe(201);
    const mail = await mailTo(email, /New sign-in/);
    expect(mail.text).toContain("with a passkey");
    expect(mail.text).not.toMatch(/sa_ac_/);
  });

  it("signs up with a passkey instead of a password; its last sign-in method cannot be removed", async () => {
    const email = uniqueEmail("pk");
    expect((await call("POST", "/accounts", { body: { email }, headers: { origin: ORIGIN } })).status).toBe(202);
    const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
    const opts = await callJson<{ options: Options }>("POST", "/accounts/verify/passkey/options", {
      body: { token },
      headers: { origin: ORIGIN },
    });
    expect(opts.status).toBe(200);
    const auth = new SoftAuthenticator(RP, ORIGIN);
    const response = await auth.register(opts.body.options);
    // A bad link is refused before anything else.
    expect(
      (await call("POST", "/accounts/verify/passkey", { body: { token: `${token}x`, response }, headers: { origin: ORIGIN } })).status,
    ).toBe(400);
    const made = await callJson<{ session: { account: { id: string; hasPassword: boolean } } }>("POST", "/accounts/verify/passkey", {
      body: { token, response, passkeyName: "Phone" },
      headers: { origin: ORIGIN },
    });
    expect(made.status).toBe(201);
    expect(made.body.session.account.hasPassword).toBe(false);
    const cookie = cookieOf(made.res);
    // The link works once: the account exists now.
    expect((await call("POST", "/accounts/verify/passkey", { body: { token, response }, headers: { origin: ORIGIN } })).status).toBe(409);
    expect((await call("POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: { origin: ORIGIN } })).status).toBe(409);
    // No password: a password sign-in gets the usual 401, the passkey signs in.
    expect((await signIn(email, PASSWORD, freshIp())).status).toBe(401);
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(201);

    const listed = (await callJson<{ passkeys: Passkey[] }>("GET", "/account/passkeys", { headers: { cookie } })).body.passkeys;
    expect(listed.map((p) => p.name)).toEqual(["Phone"]);
    const last = await callJson<{ error: { code: string; details: { reason: string } } }>("DELETE", `/account/passkeys/${listed[0]!.id}`, {
      headers: { cookie, origin: ORIGIN },
    });
    expect(last.status).toBe(409);
    expect(last.body.error.details.reason).toBe("last_sign_in_method");
    // With a second passkey the first can go.
    const second = new SoftAuthenticator(RP, ORIGIN);
    expect((await addPasskey(cookie, second, "Key")).status).toBe(201);
    expect((await call("DELETE", `/account/passkeys/${listed[0]!.id}`, { headers: { cookie, origin: ORIGIN } })).status).toBe(200);
    expect((await passkeySignIn(await auth.assert(await signInOptions()), freshIp())).status).toBe(401);
    expect((await passkeySignIn(await second.assert(await signInOptions()), freshIp())).status).toBe(201);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("lets an account with a password remove its only passkey; refuses other origins and strangers", async () => {
    const { cookie } = await signUp(undefined, PASSWORD);
    const auth = new SoftAuthenticator(RP, ORIGIN);
    const made = await addPasskey(cookie, auth);
    expect(
      (await call("DELETE", `/account/passkeys/${made.body.passkey.id}`, { headers: { cookie, origin: "https://evil.test" } })).status,
    ).toBe(403);
    expect((await call("DELETE", `/account/passkeys/${made.body.passkey.id}`, { headers: { cookie, origin: ORIGIN } })).status).toBe(200);
    expect((await call("DELETE", `/account/passkeys/${made.body.passkey.id}`, { headers: { cookie, origin: ORIGIN } })).status).toBe(404);
    expect((await call("POST", "/sessions/passkey/options", { headers: { origin: "https://evil.test" } })).status).toBe(403);
    expect((await call("POST", "/account/passkeys/options", { headers: { origin: ORIGIN } })).status).toBe(401);
    expect((await call("GET", "/account/passkeys")).status).toBe(401);
    // Asking for sign-in options stores nothing anywhere, and an answer naming an account nobody
    // made (a forged user handle) is refused without creating that account's storage.
    const strangerId = "ac_aaaaaaaaaaaaaaaaaaaaaaaaaa";
    const stranger = accountStub(env, strangerId);
    const forged = await auth.assert(await signInOptions());
    forged.response.userHandle = btoa(strangerId).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect((await passkeySignIn(forged, freshIp())).status).toBe(401);
    expect((await stranger.stats()).stored).toBe(false);
  });
});
