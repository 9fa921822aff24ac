/**
 * Passkeys: register one from Account → Passkeys (signed in), and sign in with one. Challenges
 * are stateless (signed with AUTH_SECRET, five minutes), so asking for one creates no storage;
 * the Account object refuses a challenge used before.
 */
import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { ApiError } from "../contract/errors";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { notFromOtherOrigin } from "../sessions/cookie";
import { accountStub } from "../stubs";
import { requireAccount } from "../auth";
import { authSecret, openToken, signToken } from "../accounts/tokens";
import { accountOfUserHandle, PASSKEY_CHALLENGE_TTL_MS, relyingParty } from "../accounts/passkeys";
import { clientMeta } from "../accounts/principal";
import { accountSessionResponse } from "./accounts";
import { deliver } from "../mail/deliver";
import { newSignInMail, signInNotice } from "../mail/templates";
import { log } from "../log/log";

export const passkeyAnswerSchema = z
  .object({
    state: z.string().min(1).max(2000).describe("The `state` the options came with."),
    response: z.record(z.string(), z.unknown()).describe("The browser's PublicKeyCredential as JSON (@simplewebauthn/browser)."),
    name: z.string().trim().min(1).max(100).optional(),
  })
  .strict();

function secret(env: Env): string {
  const s = authSecret(env);
  if (!s) throw new ApiError("not_configured", "Set the AUTH_SECRET secret before accounts can be used.");
  return s;
}

async function state(env: Env, purpose: "passkey-register" | "passkey-signin", payload: Record<string, unknown>): Promise<string> {
  return signToken(secret(env), purpose, payload, Date.now() + PASSKEY_CHALLENGE_TTL_MS);
}

async function opened(
  env: Env,
  purpose: "passkey-register" | "passkey-signin",
  token: string,
): Promise<{ c: string; a?: string; x: number }> {
  const o = await openToken(secret(env), purpose, token);
  if (!o.ok || typeof o.payload.c !== "string") {
    throw new ApiError("bad_request", "This passkey request has expired or is not valid. Try again.", {
      reason: o.ok ? "invalid" : o.reason,
    });
  }
  return o.payload as { c: string; a?: string; x: number };
}

/** `POST /account/passkeys/options`: what the browser needs to make a passkey for this account. */
export async function passkeyRegistrationOptions(request: Request, env: Env): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  const { rpID } = relyingParty(request);
  const exclude = await accountStub(env, verified.account.id).passkeyIds();
  const options = await generateRegistrationOptions({
    rpName: "open-content-edge",
    rpID,
    userName: verified.account.email,
    userDisplayName: verified.account.name,
    userID: Uint8Array.from(new TextEncoder().encode(verified.account.id)),
    attestationType: "none",
    excludeCredentials: exclude.map((id) => ({ id })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  return json({ options, state: await state(env, "passkey-register", { c: options.challenge, a: verified.account.id }) });
}

/** `POST /account/passkeys {state, response, name?}`: stores the passkey the browser made. */
export async function registerPasskey(request: Request, env: Env): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  const input = parseBody(passkeyAnswerSchema, await readJsonObject(request), "passkey");
  const { rpID, origin } = relyingParty(request);
  const st = await opened(env, "passkey-register", input.state);
  if (st.a !== verified.account.id) throw new ApiError("bad_request", "This passkey request belongs to another sign-in. Try again.");
  const stub = accountStub(env, verified.account.id);
  const name = input.name ?? `Passkey added ${new Date().toISOString().slice(0, 10)}`;
  if (!(await stub.registerPasskey(input.response as unknown as RegistrationResponseJSON, { challenge: st.c, origin, rpID }, name))) {
    throw new ApiError("bad_request", "The passkey could not be verified. Try again, or use another authenticator.");
  }
  return json({ passkeys: await stub.passkeys() }, 201);
}

/** `GET /account/passkeys`. */
export async function listPasskeys(request: Request, env: Env): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  return json({ passkeys: await accountStub(env, verified.account.id).passkeys() });
}

/** `POST /sessions/passkey/options`: a challenge for any passkey of this site (no address typed). */
export async function passkeySignInOptions(request: Request, env: Env): Promise<Response> {
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", "Sign in from the dashboard's own page.");
  const { rpID } = relyingParty(request);
  const options = await generateAuthenticationOptions({ rpID, userVerification: "preferred" });
  return json({ options, state: await state(env, "passkey-signin", { c: options.challenge }) });
}

/** `POST /sessions/passkey {state, response}`: signs in the account the passkey belongs to. */
export async function passkeySignIn(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", "Sign in from the dashboard's own page.");
  const input = parseBody(passkeyAnswerSchema, await readJsonObject(request), "passkey sign-in");
  const { rpID, origin } = relyingParty(request);
  const st = await opened(env, "passkey-signin", input.state);
  const response = input.response as unknown as AuthenticationResponseJSON;
  const accountId = accountOfUserHandle(response.response?.userHandle);
  const client = clientMeta(request);
  const made =
    accountId === null
      ? null
      : await accountStub(env, accountId).passkeySignIn(response, { challenge: st.c, origin, rpID, expiresAt: st.x }, client);
  if (!made) {
    log("account_sign_in", { method: "passkey", result: "refused" });
    throw new ApiError(
      "unauthorized",
      "That passkey is not known here, or it could not be verified. Sign in with your email and password.",
    );
  }
  log("account_sign_in", { method: "passkey", result: "ok" });
  if (made.newClient) deliver(ctx, env, newSignInMail(made.account.email, signInNotice(client, "with a passkey")));
  return accountSessionResponse(request, made);
}
