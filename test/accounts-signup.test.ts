import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson, ORIGIN } from "./helpers";
import { mailTo, mailsTo, uniqueEmail } from "./helpers/mail";
import { fragmentToken, PASSWORD, signIn, signUp } from "./helpers/accounts";
import { signToken } from "../src/identity/tokens";
import { accountIdOf } from "../src/identity/email";
import { accountStub } from "../src/stubs";
import { linkIn } from "./helpers/mail";

describe("sign-up", () => {
  it("mails a link; the account exists only once the link is used; then the cookie signs it in", async () => {
    const email = uniqueEmail("Signup");
    const asked = await callJson("POST", "/accounts", { body: { email }, headers: { origin: ORIGIN } });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ status: "check_your_inbox" });
    const id = await accountIdOf(email.toLowerCase());
    expect(await accountStub(env, id).stats()).toMatchObject({ stored: false });
    const link = linkIn(await mailTo(email, /Confirm your email/));
    // The secret is in the fragment: never in a path or query a server would log.
    expect(new URL(link).pathname).toBe("/dashboard/");
    expect(new URL(link).search).toBe("");
    const token = fragmentToken(link, "verify");
    const short = await callJson("POST", "/accounts/verify", { body: { token, password: "nine-char" }, headers: { origin: ORIGIN } });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toMatch(/at least 10 characters/);
    const made = await call("POST", "/accounts/verify", {
      body: { token, password: PASSWORD, name: "Ada L." },
      headers: { origin: ORIGIN },
    });
    expect(made.status).toBe(201);
    const cookie = /^(oc_session=sa_[^;]+|__Host-oc_session=sa_[^;]+)/.exec(made.headers.get("set-cookie")!)![1]!;
    expect(made.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    const current = await callJson<{ session: Record<string, unknown> }>("GET", "/sessions/current", { headers: { cookie } });
    expect(current.status).toBe(200);
    expect(current.body.session).toMatchObject({
      kind: "account",
      account: { id, email: email.toLowerCase(), name: "Ada L.", hasPassword: true },
      memberships: [],
    });
    // The link cannot make a second account.
    const again = await callJson("POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: { origin: ORIGIN } });
    expect(again.status).toBe(409);
  });

  it("refuses an altered or expired link with a reason", async () => {
    const { token } = await signUp();
    const altered = `${token.slice(0, -3)}${token.endsWith("A") ? "B" : "A"}xx`;
    const bad = await callJson<{ error: { details: unknown } }>("POST", "/accounts/verify", {
      body: { token: altered, password: PASSWORD },
      headers: { origin: ORIGIN },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ reason: "invalid" });
    const expired = await signToken(env.AUTH_SECRET!, "signup", { e: uniqueEmail() }, Date.now() - 1);
    const old = await callJson<{ error: { message: string; details: unknown } }>("POST", "/accounts/verify", {
      body: { token: expired, password: PASSWORD },
      headers: { origin: ORIGIN },
    });
    expect(old.status).toBe(400);
    expect(old.body.error.details).toEqual({ reason: "expired" });
    expect(old.body.error.message).toMatch(/expired/);
  });

  it("answers an address that has an account exactly as one that has none; only the mail differs", async () => {
    const { email } = await signUp();
    const fresh = uniqueEmail();
    const known = await call("POST", "/accounts", { body: { email }, headers: { origin: ORIGIN } });
    const unknown = await call("POST", "/accounts", { body: { email: fresh }, headers: { origin: ORIGIN } });
    expect(known.status).toBe(unknown.status);
    expect(await known.text()).toBe(await unknown.text());
    const headers = (r: Response) => [...r.headers].filter(([k]) => k !== "date");
    expect(headers(known)).toEqual(headers(unknown));
    expect((await mailTo(email, /already have an account/)).text).toMatch(/reset/);
    await mailTo(fresh, /Confirm your email/);
  });

  it("refuses a sign-up posted from another origin, and a body that is not an address", async () => {
    const email = uniqueEmail();
    expect((await call("POST", "/accounts", { body: { email }, headers: { origin: "https://elsewhere.test" } })).status).toBe(403);
    expect((await call("POST", "/accounts", { body: { email: "nobody" }, headers: { origin: ORIGIN } })).status).toBe(400);
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailsTo(email)).toEqual([]);
  });

  it("signs in with the password chosen; the address is matched case-insensitively", async () => {
    const { email } = await signUp();
    const ok = await signIn(email.toUpperCase(), PASSWORD);
    expect(ok.status).toBe(201);
    expect(ok.res.headers.get("set-cookie")).toMatch(/oc_session=sa_ac_/);
  });
});
