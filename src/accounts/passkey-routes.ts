/**
 * Passkeys: add, rename and remove them from Account → Passkeys (signed in), sign in with one, and
 * sign up with one instead of a password (after the mailed link proved the address, a sign-up's
 * or an invitation's). Challenges
 * are signed tokens (src/identity/passkeys.ts), so asking for one stores nothing; the Account
 * object that checks an answer uses its challenge once.
 */
import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { ApiError } from "../contract/errors";
import { json, readJsonObject, readOptionalJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { accountStub } from "../stubs";
import { requireAccount } from "../identity/site-auth";
import {
  accountOfUserHandle,
  challengeOf,
  type ExpectedPasskey,
  newChallenge,
  openChallenge,
  PASSKEY_ID,
  relyingParty,
} from "../identity/passkeys";
import {
  addPasskeySchema,
  passkeyOptionsSchema,
  passkeySignInSchema,
  passkeySignUpOptionsSchema,
  passkeySignUpSchema,
  renamePasskeySchema,
  acceptWithNewPasskeySchema,
  invitationPasskeyOptionsSchema,
} from "../contract/accounts";
import { clientMeta } from "../identity/account-session";
import { accountIdOf } from "../identity/email";
import { signInAttempt } from "../identity/sign-in-throttle";
import { accountSessionResponse, dashboardLink, openSignUpLink, sameOrigin, secret } from "./routes";
import { deliver } from "../mail/deliver";
import { newSignInMail, passkeyAddedMail, passkeyRemovedMail, signInNotice } from "../mail/templates";
import { requireRecentSignIn } from "../identity/recent-sign-in";
import { log } from "../log";
import { accountExists, joinNewAccount, newAccountCall, provenInvitation } from "./invitation-routes";

const RP_NAME = "open-content-edge";

const STALE = "This passkey request has expired or was already answered. Try again.";

/** The expected values of an answer, once its challenge is known to be ours, for this purpose and binding. */
async function expected(
  request: Request,
  env: Env,
  purpose: "passkey-register" | "passkey-signup" | "passkey-signin",
  bind: (rpID: string) => string,
  response: { response?: { clientDataJSON?: unknown } },
  refuse: (reason: string) => ApiError,
): Promise<ExpectedPasskey> {
  const rp = relyingParty(request, env);
  const challenge = challengeOf(response);
  const opened = await openChallenge(secret(env), purpose, bind(rp.rpID), challenge);
  if (!opened.ok) throw refuse(opened.reason);
  return { ...rp, challenge: challenge!, expiresAt: opened.expiresAt };
}

/** When and from where a change to the account's ways in was made, as its mail says it. */
const notice = (request: Request) => signInNotice(clientMeta(request), "");

const defaultName = (): string => `Passkey added ${new Date().toISOString().slice(0, 10)}`;

/** Options to make a passkey for this account (the browser is told which passkeys it already has). */
async function registrationOptions(
  request: Request,
  env: Env,
  account: { id: string; email: string; name: string },
  purpose: "passkey-register" | "passkey-signup",
  exclude: string[],
) {
  const { rpID } = relyingParty(request, env);
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: account.email,
    userDisplayName: account.name,
    userID: new Uint8Array(new TextEncoder().encode(account.id)),
    challenge: await newChallenge(secret(env), purpose, account.id),
    attestationType: "none",
    excludeCredentials: exclude.map((id) => ({ id })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
}

/**
 * `POST /account/passkeys/options {password?}`: what the browser needs to make a passkey for the
 * signed-in account, only after a recent sign-in or with the password (src/identity/recent-sign-in.ts).
 * The challenge is the only way to add one, so no passkey is made without it.
 */
export async function passkeyRegistrationOptions(request: Request, env: Env): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  const { password } = parseBody(passkeyOptionsSchema, await readOptionalJsonObject(request), "passkey");
  await requireRecentSignIn(request, env, verified, password, "add a passkey");
  const exclude = await accountStub(env, verified.account.id).passkeyIds();
  return json({ options: await registrationOptions(request, env, verified.account, "passkey-register", exclude) });
}

/** `POST /account/passkeys {response, name?}`: stores the passkey the browser made, and mails the account that it did. */
export async function addPasskey(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  const input = parseBody(addPasskeySchema, await readJsonObject(request), "passkey");
  const accountId = verified.account.id;
  const exp = await expected(
    request,
    env,
    "passkey-register",
    () => accountId,
    input.response,
    (reason) => new ApiError("bad_request", STALE, { reason }),
  );
  const added = await accountStub(env, accountId).addPasskey(
    input.response as unknown as RegistrationResponseJSON,
    exp,
    input.name ?? defaultName(),
  );
  if (!added.ok) {
    log("passkey_added", { result: added.reason });
    if (added.reason === "used_challenge") throw new ApiError("bad_request", STALE, { reason: "used" });
    if (added.reason === "too_many")
      throw new ApiError("conflict", "An account holds at most 20 passkeys. Remove one you no longer use first.");
    if (added.reason === "exists") throw new ApiError("conflict", "This passkey is already on your account.");
    throw new ApiError("bad_request", "The passkey could not be verified. Try again, or use another device or security key.", {
      reason: "invalid",
    });
  }
  log("passkey_added", { result: "ok" });
  deliver(ctx, env, passkeyAddedMail(verified.account.email, added.passkey.name, notice(request), dashboardLink(request, "forgot")));
  return json({ passkey: added.passkey }, 201);
}

/** `GET /account/passkeys`. */
export async function listPasskeys(request: Request, env: Env): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  return json({ passkeys: await accountStub(env, verified.account.id).passkeys() });
}

const NO_SUCH_PASSKEY = "No such passkey on your account (it may have been removed already).";

/** `PATCH /account/passkeys/:id {name}`. */
export async function renamePasskey(request: Request, env: Env, id: string | undefined): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  const input = parseBody(renamePasskeySchema, await readJsonObject(request), "passkey");
  const renamed = id && PASSKEY_ID.test(id) ? await accountStub(env, verified.account.id).renamePasskey(id, input.name) : null;
  if (!renamed) throw new ApiError("not_found", NO_SUCH_PASSKEY);
  return json({ passkey: renamed });
}

/** `DELETE /account/passkeys/:id`: refused when it is the account's last way to sign in; mailed to the account. */
export async function removePasskey(request: Request, env: Env, ctx: ExecutionContext, id: string | undefined): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  const result = id && PASSKEY_ID.test(id) ? await accountStub(env, verified.account.id).removePasskey(id) : "not_found";
  if (result === "not_found") throw new ApiError("not_found", NO_SUCH_PASSKEY);
  if (result === "last_method") {
    throw new ApiError(
      "conflict",
      "This passkey is your only way to sign in. Add another passkey, or set a password (sign out, then “Forgot your password?”), before removing it.",
      { reason: "last_sign_in_method" },
    );
  }
  log("passkey_removed", { result: "ok" });
  deliver(ctx, env, passkeyRemovedMail(verified.account.email, result.removed, notice(request), dashboardLink(request, "forgot")));
  return json({ removed: true });
}

/** `POST /sessions/passkey/options`: a challenge any passkey of this site may answer (no address typed). */
export async function passkeySignInOptions(request: Request, env: Env): Promise<Response> {
  sameOrigin(request, "Sign in");
  const { rpID } = relyingParty(request, env);
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: "preferred",
    challenge: await newChallenge(secret(env), "passkey-signin", rpID),
  });
  return json({ options });
}

const NOT_KNOWN =
  "That passkey is not known here, or it could not be checked. Sign in with your email and password, or try another passkey.";

/**
 * `POST /sessions/passkey {response}`: signs in the account the passkey belongs to, with the
 * session, throttles, cookie and "new sign-in" notice of a password sign-in.
 */
export async function passkeySignIn(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  sameOrigin(request, "Sign in");
  const input = parseBody(passkeySignInSchema, await readJsonObject(request), "passkey sign-in");
  const response = input.response as unknown as AuthenticationResponseJSON;
  const accountId = accountOfUserHandle(response.response.userHandle);
  const attempt = await signInAttempt(request, env, accountId, "passkey");
  const exp = await expected(
    request,
    env,
    "passkey-signin",
    (rpID) => rpID,
    response,
    () => new ApiError("unauthorized", NOT_KNOWN),
  );
  const client = clientMeta(request);
  const made = accountId === null ? { refused: "no_user_handle" } : await accountStub(env, accountId).passkeySignIn(response, exp, client);
  if ("refused" in made) {
    log("account_sign_in", { method: "passkey", result: "refused", reason: made.refused });
    throw new ApiError("unauthorized", NOT_KNOWN);
  }
  await attempt.passed();
  log("account_sign_in", { method: "passkey", result: "ok" });
  if (made.newClient) deliver(ctx, env, newSignInMail(made.account.email, signInNotice(client, "with a passkey")));
  return accountSessionResponse(request, made);
}

/** `POST /accounts/verify/passkey/options {token}`: options to make the new account's passkey (the sign-up link proves the address). */
export async function passkeySignUpOptions(request: Request, env: Env): Promise<Response> {
  sameOrigin(request, "Sign up");
  const input = parseBody(passkeySignUpOptionsSchema, await readJsonObject(request), "sign-up");
  const link = await openSignUpLink(env, input.token);
  const id = await accountIdOf(link.email);
  const name = link.name ?? link.email.slice(0, link.email.indexOf("@"));
  return json({ options: await registrationOptions(request, env, { id, email: link.email, name }, "passkey-signup", []) });
}

/** `POST /accounts/verify/passkey {token, response, name?, passkeyName?}`: creates the account with a passkey and no password. */
export async function passkeySignUp(request: Request, env: Env): Promise<Response> {
  sameOrigin(request, "Sign up");
  const input = parseBody(passkeySignUpSchema, await readJsonObject(request), "sign-up");
  const link = await openSignUpLink(env, input.token);
  const id = await accountIdOf(link.email);
  const exp = await expected(
    request,
    env,
    "passkey-signup",
    () => id,
    input.response,
    (reason) => new ApiError("bad_request", STALE, { reason }),
  );
  const made = await accountStub(env, id).createWithPasskey({
    id,
    email: link.email,
    name: input.name ?? link.name ?? link.email.slice(0, link.email.indexOf("@")),
    client: clientMeta(request),
    passkey: input.response as unknown as RegistrationResponseJSON,
    passkeyName: input.passkeyName ?? defaultName(),
    expected: exp,
  });
  if (made === "invalid") {
    throw new ApiError("bad_request", "The passkey could not be verified. Try again, or choose a password instead.", { reason: "invalid" });
  }
  if (!made) throw new ApiError("conflict", "This address already has an account. Sign in, or reset your password if you forgot it.");
  log("account_sign_in", { method: "sign_up_passkey", result: "ok" });
  return accountSessionResponse(request, made);
}

/** `POST /invitations/accept/new-account/passkey/options {token, proof}`: options to make the invited person's first passkey. */
export async function invitationPasskeyOptions(request: Request, env: Env): Promise<Response> {
  await newAccountCall(request, env);
  const input = parseBody(invitationPasskeyOptionsSchema, await readJsonObject(request), "invitation");
  const { email, accountId } = await provenInvitation(env, input.token, input.proof);
  const name = email.slice(0, email.indexOf("@"));
  return json({ options: await registrationOptions(request, env, { id: accountId, email, name }, "passkey-signup", []) });
}

/**
 * `POST /invitations/accept/new-account/passkey {token, proof, response, name?, passkeyName?}`: the
 * account is made for the invited address with this passkey and no password, signed in, and joins.
 */
export async function acceptWithNewPasskey(request: Request, env: Env): Promise<Response> {
  await newAccountCall(request, env);
  const input = parseBody(acceptWithNewPasskeySchema, await readJsonObject(request), "invitation");
  const proven = await provenInvitation(env, input.token, input.proof);
  const exp = await expected(
    request,
    env,
    "passkey-signup",
    () => proven.accountId,
    input.response,
    (reason) => new ApiError("bad_request", STALE, { reason }),
  );
  const made = await accountStub(env, proven.accountId).createWithPasskey({
    id: proven.accountId,
    email: proven.email,
    name: input.name ?? proven.email.slice(0, proven.email.indexOf("@")),
    client: clientMeta(request),
    passkey: input.response as unknown as RegistrationResponseJSON,
    passkeyName: input.passkeyName ?? defaultName(),
    expected: exp,
  });
  if (made === "invalid") {
    throw new ApiError("bad_request", "The passkey could not be verified. Try again, or choose a password instead.", { reason: "invalid" });
  }
  if (!made) throw accountExists();
  log("account_sign_in", { method: "invitation_passkey", result: "ok" });
  return joinNewAccount(request, proven.workspace, input.token, made);
}
