import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson, ORIGIN } from "./helpers";
import { linkIn, mailTo, mailsTo, uniqueEmail } from "./helpers/mail";
import { cookieOf, fragmentToken, PASSWORD, signIn, signUp } from "./helpers/accounts";
import { accountStub } from "../src/stubs";
import { RESET_TTL_MS } from "../actors/account";

const NEW_PASSWORD = "a brand new passphrase";

describe("password reset", () => {
  it("works once from the mailed link, ends every other session, and signs in with the new password", async () => {
    const { email, cookie: old } = await signUp();
    const asked = await callJson("POST", "/account/password-reset", { body: { email }, headers: { origin: ORIGIN } });
    expect(asked.status).toBe(202);
    const link = linkIn(await mailTo(email, /Reset your password/));
    expect(new URL(link).search).toBe("");
    const token = fragmentToken(link, "reset");
    const done = await call("POST", "/account/password-reset/confirm", {
      body: { token, password: NEW_PASSWORD },
      headers: { origin: ORIGIN },
    });
    expect(done.status).toBe(201);
    const fresh = cookieOf(done);
    expect((await call("GET", "/sessions/current", { headers: { cookie: old } })).status).toBe(401);
    expect((await call("GET", "/sessions/current", { headers: { cookie: fresh } })).status).toBe(200);
    const reused = await callJson<{ error: { details: unknown } }>("POST", "/account/password-reset/confirm", {
      body: { token, password: "yet another passphrase" },
      headers: { origin: ORIGIN },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error.details).toEqual({ reason: "expired_or_used" });
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(201);
  });

  it("answers an unknown address exactly like a known one and mails nothing to it", async () => {
    const { email } = await signUp();
    const stranger = uniqueEmail("nobody");
    const known = await call("POST", "/account/password-reset", { body: { email }, headers: { origin: ORIGIN } });
    const unknown = await call("POST", "/account/password-reset", { body: { email: stranger }, headers: { origin: ORIGIN } });
    expect(unknown.status).toBe(known.status);
    expect(await unknown.text()).toBe(await known.text());
    await mailTo(email, /Reset your password/);
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailsTo(stranger)).toEqual([]);
  });

  it("refuses a link older than an hour", async () => {
    const { account } = await signUp();
    const stub = accountStub(env, account.id);
    const now = Date.now();
    const token = (await stub.startReset(now))!;
    const client = { userAgent: null, ip: null, country: null };
    expect(await stub.finishReset(token, NEW_PASSWORD, client, now + RESET_TTL_MS + 1)).toBeNull();
    const second = (await stub.startReset(now))!;
    expect(await stub.finishReset(second, NEW_PASSWORD, client, now + RESET_TTL_MS - 1000)).not.toBeNull();
  });
});
