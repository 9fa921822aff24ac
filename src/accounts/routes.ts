/**
 * Accounts: sign-up by a mailed, signed link (the account is created only when the link is
 * used), password reset, and the account's own sessions. Answers never say whether an address
 * has an account: the same status, body and work either way; mails go out after the answer.
 */
import { ApiError } from "../contract/errors";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { notFromOtherOrigin, setSessionCookie } from "../identity/session-cookie";
import { accountStub } from "../stubs";
import { resetConfirmSchema, resetRequestSchema, signUpSchema, verifySignUpSchema } from "../contract/accounts";
import { accountIdOf, normaliseEmail } from "../identity/email";
import { accountOfResetToken, openToken, signToken } from "../identity/tokens";
import { authSecret } from "../ids";
import { clientMeta } from "../identity/account-session";
import { mailAttempt } from "../identity/sign-in-throttle";
import type { StartedSession } from "../identity/account-types";
import { requireAccount } from "../identity/site-auth";
import { deliver } from "../mail/deliver";
import { accountExistsMail, passwordChangedMail, passwordResetMail, signInNotice, verifyEmailMail } from "../mail/templates";
import { log } from "../log";

/** A sign-up link works for a day. */
export const SIGNUP_TTL_MS = 24 * 60 * 60 * 1000;

const CHECK_YOUR_INBOX = {
  status: "check_your_inbox",
  message: "If the address can receive mail, a link is on its way. Open it from your inbox to continue.",
} as const;

export function sameOrigin(request: Request, what: string): void {
  // A page elsewhere must not sign a visitor up, in or out on an account of its choosing.
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", `${what} from the dashboard's own page.`);
}

export function secret(env: Env): string {
  const s = authSecret(env);
  if (!s) throw new ApiError("not_configured", "Set the AUTH_SECRET secret (16 characters or more) before accounts can be used.");
  return s;
}

export function emailOf(raw: string): string {
  const email = normaliseEmail(raw);
  if (!email)
    throw new ApiError("bad_request", "Invalid email: enter an address like ada@example.com.", {
      issues: [{ path: "email", message: "not an email address" }],
    });
  return email;
}

export const dashboardLink = (request: Request, fragment: string): string => `${new URL(request.url).origin}/dashboard/#/${fragment}`;

/** The session answer every account sign-in shares: `{session}` (and what else the step says) and the cookie. */
export function accountSessionResponse(request: Request, made: StartedSession, more: Record<string, unknown> = {}): Response {
  const session = { kind: "account" as const, ...made.session, account: made.account, memberships: [] };
  return json({ session, ...more }, 201, { "set-cookie": setSessionCookie(request, made.id) });
}

/** `POST /accounts {email, name?}`: always 202; the address gets a link (or "you already have an account"). */
export async function signUp(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  sameOrigin(request, "Sign up");
  const input = parseBody(signUpSchema, await readJsonObject(request), "sign-up");
  const email = emailOf(input.email);
  const id = await accountIdOf(email);
  await mailAttempt(request, env, id);
  // Both branches do the same work: one read of the account object and one signature.
  const token = await signToken(secret(env), "signup", { e: email, ...(input.name ? { n: input.name } : {}) }, Date.now() + SIGNUP_TTL_MS);
  const exists = await accountStub(env, id).exists();
  deliver(
    ctx,
    env,
    exists
      ? accountExistsMail(email, dashboardLink(request, "sign-in"), dashboardLink(request, "forgot"))
      : verifyEmailMail(email, dashboardLink(request, `verify/${token}`)),
  );
  return json(CHECK_YOUR_INBOX, 202);
}

/** The address (and name) a sign-up link proves; 400 when it expired or is not ours. */
export async function openSignUpLink(env: Env, token: string): Promise<{ email: string; name: string | undefined }> {
  const opened = await openToken(secret(env), "signup", token);
  if (!opened.ok) {
    throw new ApiError(
      "bad_request",
      opened.reason === "expired"
        ? "This sign-up link has expired (links work for 24 hours). Sign up again to get a new one."
        : "This sign-up link is not valid. Open it from the mail again, or sign up again.",
      { reason: opened.reason },
    );
  }
  const email = typeof opened.payload.e === "string" ? normaliseEmail(opened.payload.e) : null;
  if (!email) throw new ApiError("bad_request", "This sign-up link is not valid. Sign up again.", { reason: "invalid" });
  return { email, name: typeof opened.payload.n === "string" ? opened.payload.n : undefined };
}

/** `POST /accounts/verify {token, password, name?}`: the link proves the address; the account is made now. */
export async function verifySignUp(request: Request, env: Env): Promise<Response> {
  sameOrigin(request, "Sign up");
  const input = parseBody(verifySignUpSchema, await readJsonObject(request), "sign-up");
  const { email, name: named } = await openSignUpLink(env, input.token);
  const id = await accountIdOf(email);
  const made = await accountStub(env, id).create({
    id,
    email,
    name: input.name ?? named ?? email.slice(0, email.indexOf("@")),
    password: input.password,
    client: clientMeta(request),
  });
  if (!made) throw new ApiError("conflict", "This address already has an account. Sign in, or reset your password if you forgot it.");
  log("account_sign_in", { method: "sign_up", result: "ok" });
  return accountSessionResponse(request, made);
}

/** `POST /account/password-reset {email}`: always 202; an account gets a single-use link for an hour. */
export async function requestPasswordReset(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  sameOrigin(request, "Ask for a password reset");
  const input = parseBody(resetRequestSchema, await readJsonObject(request), "password reset");
  const email = emailOf(input.email);
  const id = await accountIdOf(email);
  await mailAttempt(request, env, id);
  const token = await accountStub(env, id).startReset();
  if (token !== null) deliver(ctx, env, passwordResetMail(email, dashboardLink(request, `reset/${token}`)));
  return json(CHECK_YOUR_INBOX, 202);
}

/**
 * `POST /account/password-reset/confirm {token, password}`: new password, every other session ended
 * and every passkey removed, signed in; the account is mailed that it happened.
 */
export async function confirmPasswordReset(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  sameOrigin(request, "Reset your password");
  const input = parseBody(resetConfirmSchema, await readJsonObject(request), "password reset");
  const accountId = accountOfResetToken(input.token);
  const made = accountId === null ? null : await accountStub(env, accountId).finishReset(input.token, input.password, clientMeta(request));
  if (!made) {
    throw new ApiError("bad_request", "This reset link has expired or was already used. Ask for a new one from the sign-in page.", {
      reason: "expired_or_used",
    });
  }
  log("account_sign_in", { method: "reset", result: "ok" });
  const when = signInNotice(clientMeta(request), "");
  deliver(ctx, env, passwordChangedMail(made.account.email, made.passkeysRemoved, when, dashboardLink(request, "forgot")));
  return accountSessionResponse(request, made, { passkeysRemoved: made.passkeysRemoved.length });
}

/** `GET /account/sessions`: the account's live sessions, the caller's marked `current`. */
export async function listAccountSessions(request: Request, env: Env): Promise<Response> {
  const { sessionId, verified } = await requireAccount(request, env);
  return json({ sessions: await accountStub(env, verified.account.id).listSessions(sessionId) });
}

/** `DELETE /account/sessions/:id`: ends one session (another browser's, or this one). */
export async function endAccountSession(request: Request, env: Env, publicId: string | undefined): Promise<Response> {
  const { verified } = await requireAccount(request, env);
  if (!publicId || !/^[a-z2-7]{12}$/.test(publicId) || !(await accountStub(env, verified.account.id).endSessionByHandle(publicId))) {
    throw new ApiError("not_found", "No such session (it may have ended already).");
  }
  return json({ ended: true });
}
