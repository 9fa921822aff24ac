import { cookieSession, isOperatorToken } from "../identity/site-auth";
import { ApiError } from "../contract/errors";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { siteIdOfAdminKey } from "../contract/ids";
import { clearSessionCookie, notFromOtherOrigin, sessionCookie, setSessionCookie } from "../identity/session-cookie";
import { sessionOwner } from "../identity/session-policy";
import type { SessionInfo } from "../identity/session-policy";
import { mayBeIssued, siteExists } from "../edge/issued";
import { clientKey } from "../limits/client";
import { RATELIMIT_HEADER, RATELIMIT_POLICY_HEADER, SIGN_IN_POLICY } from "../contract/limits";
import { accountStub, operatorSessionsStub, signInThrottleStub, siteStub } from "../stubs";
import { keySignInSchema, passwordSignInSchema } from "../contract/accounts";
import type { Membership } from "../contract/principal";
import { accountIdOf, normaliseEmail } from "../identity/email";
import { clientMeta, verifyAccountSession } from "../identity/account-session";
import { passwordAttempt } from "../identity/sign-in-throttle";
import type { AccountPublic } from "../identity/account-types";
import { deliver } from "../mail/deliver";
import { newSignInMail, signInNotice } from "../mail/templates";
import { log } from "../log";
import { accountSessionResponse } from "./routes";

type Session = SessionInfo &
  ({ kind: "operator" } | { kind: "site"; siteId: string } | { kind: "account"; account: AccountPublic; memberships: Membership[] });

/**
 * Whose attempts count together: the client (src/limits/client.ts: CF-Connecting-IP, an IPv6
 * client by the /64 of its parsed address) and the key's target.
 */
export function throttleKey(request: Request, env: Env, key: string): string {
  return `${clientKey(request, env)}|${siteIdOfAdminKey(key) ?? "operator"}`;
}

/**
 * The sign-in policy's fields (draft-ietf-httpapi-ratelimit-headers-11). The throttle object
 * counts exactly, so `RateLimit` tells the free attempts left and the seconds until the next
 * attempt is checked (or, with some left, until the count is forgotten).
 */
function signInFields(failures: number, waitMs: number): Record<string, string> {
  const left = Math.max(0, SIGN_IN_POLICY.quota - failures);
  const reset = waitMs > 0 ? Math.ceil(waitMs / 1000) : SIGN_IN_POLICY.window;
  return {
    [RATELIMIT_POLICY_HEADER]: `"${SIGN_IN_POLICY.name}";q=${SIGN_IN_POLICY.quota};w=${SIGN_IN_POLICY.window}`,
    [RATELIMIT_HEADER]: `"${SIGN_IN_POLICY.name}";r=${left};t=${reset}`,
  };
}

/**
 * `POST /sessions {key}`: exchanges a site admin key or the operator token for a
 * session cookie. Wrong keys cost the client a growing wait (actors/sign-in-throttle.ts).
 */
export async function signIn(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  // A page elsewhere must not sign a visitor in to an account of its choosing.
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", "Sign in from the dashboard's own page.");
  const body = await readJsonObject(request);
  // `{email, password}` is a person's account; `{key}` an admin key or the operator token, as before.
  if ("email" in body || "password" in body) return passwordSignIn(request, env, ctx, parseBody(passwordSignInSchema, body, "sign-in"));
  const { key } = parseBody(keySignInSchema, body, "sign-in");
  // A key naming a site nobody was issued is wrong without asking (and without a throttle object for it).
  const target = siteIdOfAdminKey(key);
  if (target !== null && !(await siteExists(env, target))) throw wrongKey(0);
  const throttle = signInThrottleStub(env, throttleKey(request, env, key));
  const { allowed, waitMs, failures } = await throttle.attempt();
  if (!allowed) throw tooMany(waitMs, failures);
  const made = await startSession(env, key);
  if (!made) throw wrongKey(waitMs, signInFields(failures, waitMs));
  await throttle.succeeded();
  return json({ session: made.session }, 201, { "set-cookie": setSessionCookie(request, made.id) });
}

async function startSession(env: Env, key: string): Promise<{ id: string; session: Session } | null> {
  if (isOperatorToken(key, env)) {
    const { id, session } = await operatorSessionsStub(env).create();
    return { id, session: { kind: "operator", ...session } };
  }
  const siteId = siteIdOfAdminKey(key);
  if (!siteId) return null;
  const made = await siteStub(env, siteId).signIn(key);
  return made && { id: made.id, session: { kind: "site", siteId, ...made.session } };
}

function wrongKey(waitMs: number, headers: Record<string, string> = {}): ApiError {
  return new ApiError(
    "unauthorized",
    waitMs > 0
      ? `That key is not right. Check it and try again in ${Math.ceil(waitMs / 1000)} seconds.`
      : "That key is not right. Check it and try again.",
    { retryAfterSeconds: Math.ceil(waitMs / 1000) },
    headers,
  );
}

function tooMany(waitMs: number, failures: number): ApiError {
  const seconds = Math.ceil(waitMs / 1000);
  return new ApiError(
    "rate_limited",
    `Too many wrong keys from your address. Try again in ${seconds} seconds.`,
    { retryAfterSeconds: seconds },
    { "retry-after": String(seconds), ...signInFields(failures, waitMs) },
  );
}

const WRONG_PASSWORD = "That email and password do not match an account. Check them, or reset your password.";

/**
 * `POST /sessions {email, password}`. An address with no account, a wrong password and an account
 * without a password get the same 401 after the same work (the Account object runs one KDF in
 * every case), and they are throttled alike (src/identity/sign-in-throttle.ts).
 */
async function passwordSignIn(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  input: { email: string; password: string },
): Promise<Response> {
  const email = normaliseEmail(input.email);
  // Not an address at all: no account could have it, so this says nothing about anyone.
  if (!email) throw new ApiError("unauthorized", WRONG_PASSWORD);
  const accountId = await accountIdOf(email);
  const attempt = await passwordAttempt(request, env, accountId);
  const client = clientMeta(request);
  const made = await accountStub(env, accountId).signIn(input.password, client);
  if (!made) {
    log("account_sign_in", { method: "password", result: "refused" });
    throw new ApiError("unauthorized", WRONG_PASSWORD);
  }
  await attempt.passed();
  log("account_sign_in", { method: "password", result: "ok" });
  if (made.newClient) deliver(ctx, env, newSignInMail(made.account.email, signInNotice(client, "with your password")));
  return accountSessionResponse(request, made);
}

/** `GET /sessions/current`: who the cookie signs in, so the dashboard knows what to show. */
export async function currentSession(request: Request, env: Env): Promise<Response> {
  const id = cookieSession(request);
  const session = id === null ? null : await lookUp(env, id);
  if (!session) throw new ApiError("unauthorized", "Not signed in, or the session has ended.");
  return json({ session });
}

/**
 * `GET /sessions/current/status`: the same session, or `{session: null}` (200) when no one is
 * signed in. A page that only asks "is anyone signed in?" gets an answer, not a 401 to log.
 */
export async function sessionStatus(request: Request, env: Env): Promise<Response> {
  const id = cookieSession(request);
  return json({ session: id === null ? null : await lookUp(env, id) });
}

async function lookUp(env: Env, id: string): Promise<Session | null> {
  const owner = sessionOwner(id);
  if (owner?.kind === "operator") {
    const info = await operatorSessionsStub(env).verify(id);
    return info && { kind: "operator", ...info };
  }
  if (owner?.kind === "site" && (await mayBeIssued(env, owner.siteId))) {
    const info = await siteStub(env, owner.siteId).verifySession(id);
    return info && { kind: "site", siteId: owner.siteId, ...info };
  }
  if (owner?.kind === "account") {
    const verified = await verifyAccountSession(env, id);
    if (!verified) return null;
    const { createdAt, expiresAt } = verified.session;
    return { kind: "account", createdAt, expiresAt, account: verified.account, memberships: verified.memberships };
  }
  return null;
}

/** `DELETE /sessions/current`: signs out at once (the stored session is deleted, the cookie cleared). */
export async function signOut(request: Request, env: Env): Promise<Response> {
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", "Sign out from the dashboard's own page.");
  const id = sessionCookie(request);
  const owner = id === null ? null : sessionOwner(id);
  if (id !== null && owner?.kind === "operator") await operatorSessionsStub(env).end(id);
  if (id !== null && owner?.kind === "site" && (await mayBeIssued(env, owner.siteId))) await siteStub(env, owner.siteId).endSession(id);
  if (id !== null && owner?.kind === "account") await accountStub(env, owner.accountId).endSession(id);
  return json({ signedOut: true }, 200, { "set-cookie": clearSessionCookie(request) });
}
