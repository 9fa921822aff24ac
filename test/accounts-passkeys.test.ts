import { describe, expect, it } from "vitest";
import { call, callJson } from "./helpers";
import { PASSWORD, signUp } from "./helpers/accounts";
import { SoftAuthenticator } from "./helpers/soft-authenticator";

// Passkeys against the real @simplewebauthn/server in workerd, with a software authenticator.
// The service's origin in these tests is https://api.test; rpID "api.test".
const ORIGIN = "https://api.test";
const own = { origin: ORIGIN };

describe("passkeys", () => {
  it("registers a passkey for a signed-in account and signs in with it; a replayed challenge and another origin are refused", async () => {
    const { cookie } = await signUp(undefined, PASSWORD);
    const auth = new SoftAuthenticator("api.test", ORIGIN);
    const reg = await callJson<{ options: { challenge: string; user: { id: string } }; state: string }>(
      "POST",
      "/account/passkeys/options",
      {
        headers: { cookie, ...own },
      },
    );
    expect(reg.status).toBe(200);
    const made = await callJson<{ passkeys: unknown[] }>("POST", "/account/passkeys", {
      body: { state: reg.body.state, response: await auth.register(reg.body.options), name: "Laptop" },
      headers: { cookie, ...own },
    });
    expect(made.status).toBe(201);
    expect(made.body.passkeys).toHaveLength(1);

    const opts = await callJson<{ options: { challenge: string }; state: string }>("POST", "/sessions/passkey/options", { headers: own });
    const assertion = await auth.assert(opts.body.options);
    const signedIn = await call("POST", "/sessions/passkey", { body: { state: opts.body.state, response: assertion }, headers: own });
    expect(signedIn.status).toBe(201);
    expect(signedIn.headers.get("set-cookie")).toMatch(/oc_session=sa_ac_/);
    // The same challenge again (a replayed assertion) is refused.
    const replay = await call("POST", "/sessions/passkey", {
      body: { state: opts.body.state, response: await auth.assert(opts.body.options) },
      headers: own,
    });
    expect(replay.status).toBe(401);
    // An assertion made for another origin is refused.
    const opts2 = await callJson<{ options: { challenge: string }; state: string }>("POST", "/sessions/passkey/options", { headers: own });
    const phish = await call("POST", "/sessions/passkey", {
      body: { state: opts2.body.state, response: await auth.assert(opts2.body.options, "https://evil.test") },
      headers: own,
    });
    expect(phish.status).toBe(401);
  });
});
