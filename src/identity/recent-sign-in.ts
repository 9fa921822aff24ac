/**
 * Adding a passkey plants a way in that no password reset would otherwise end, so a session alone
 * is not enough: the session's sign-in must be recent (RECENT_SIGN_IN_SECONDS, ten minutes by
 * default), or the request carries the account's password, checked as a sign-in is (one KDF run,
 * the sign-in throttles). A stolen session cookie older than that cannot add one; a person who has
 * just signed in is not asked twice. The answer that asks for it (403, `details.reason`
 * `sign_in_again`) says what to do in words the dashboard shows.
 */
import { ApiError } from "../contract/errors";
import { accountStub } from "../stubs";
import { passwordAttempt } from "./sign-in-throttle";
import type { VerifiedSession } from "./account-types";

const DEFAULT_SECONDS = 600;
const MAX_SECONDS = 3600;

/** How recent a sign-in must be, in milliseconds (the configured seconds, kept to 1 s … 1 h). */
export function recentSignInMs(env: Env): number {
  const seconds = Number(env.RECENT_SIGN_IN_SECONDS);
  return (Number.isInteger(seconds) && seconds >= 1 && seconds <= MAX_SECONDS ? seconds : DEFAULT_SECONDS) * 1000;
}

const minutes = (ms: number): string => (ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} seconds`);

/** Passes when the session signed in recently or `password` is the account's; otherwise 403 saying how to confirm. */
export async function requireRecentSignIn(
  request: Request,
  env: Env,
  verified: VerifiedSession,
  password: string | undefined,
  what: string,
): Promise<void> {
  const window = recentSignInMs(env);
  const signedInAt = Date.parse(verified.session.createdAt);
  if (Date.now() - signedInAt <= window) return;
  const hasPassword = verified.account.hasPassword;
  const details = { reason: "sign_in_again", signedInAt: verified.session.createdAt, withinSeconds: window / 1000, hasPassword };
  if (password === undefined) {
    throw new ApiError(
      "forbidden",
      hasPassword
        ? `To ${what}, confirm it is you: enter your password (you signed in more than ${minutes(window)} ago).`
        : `To ${what}, confirm it is you: sign in again with one of your passkeys (you signed in more than ${minutes(window)} ago).`,
      details,
    );
  }
  const attempt = await passwordAttempt(request, env, verified.account.id);
  if (!(await accountStub(env, verified.account.id).confirmPassword(password))) {
    const message = hasPassword
      ? "That is not your password. Type it again, or sign out and use “Forgot your password?”."
      : "Your account has no password: sign in again with one of your passkeys instead.";
    throw new ApiError("forbidden", message, { ...details, reason: "wrong_password", issues: [{ path: "password", message }] });
  }
  await attempt.passed();
}
