/**
 * Throttles of account sign-in and of account mail, on the SignInThrottle objects the admin-key
 * sign-in uses. Every key names the account by the id derived from the address typed, so an
 * address with no account is counted and refused exactly like one with an account: a 429 only
 * real accounts could earn would tell which addresses have one.
 */
import { ApiError } from "../contract/errors";
import { clientKey } from "../limits/client";
import { signInThrottleStub } from "../stubs";
import { log } from "../log";

/** Free attempts per key, then a doubling wait (2 s … 15 min); counts are forgotten a day after the last. */
export const ACCOUNT_THROTTLES = {
  /** One client guessing one account's password. */
  clientAccount: 3,
  /** Everyone guessing one account (many addresses): passkeys and reset links stay open to its owner. */
  account: 20,
  /** One client trying many accounts (credential stuffing). */
  client: 30,
  /** Mails (sign-up links, resets) to one address, and from one client. */
  mailAccount: 3,
  mailClient: 10,
} as const;

function tooMany(waitMs: number, what: string): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(
    "rate_limited",
    `${what} Try again in ${seconds} seconds.`,
    { retryAfterSeconds: seconds },
    { "retry-after": String(seconds) },
  );
}

/**
 * Counts one sign-in attempt for this account from this client on every key that applies, or
 * refuses with 429 when any of them must wait. On success call `passed()`.
 *
 * A passkey sign-in counts on the same per-client keys as a password, but not on the account's
 * shared key: passkeys cannot be guessed, and strangers failing against an account must not lock
 * its owner out of the way in that needs no password. An answer naming no account (no user
 * handle) counts on the client's key alone.
 */
export async function signInAttempt(
  request: Request,
  env: Env,
  accountId: string | null,
  method: "password" | "passkey" = "password",
): Promise<{ passed(): Promise<void> }> {
  const client = clientKey(request, env);
  const keys: [string, number][] = [];
  if (accountId !== null) keys.push([`${client}|acct:${accountId}`, ACCOUNT_THROTTLES.clientAccount]);
  if (accountId !== null && method === "password") keys.push([`acct:${accountId}`, ACCOUNT_THROTTLES.account]);
  keys.push([`${client}|*`, ACCOUNT_THROTTLES.client]);
  const counted: ReturnType<typeof signInThrottleStub>[] = [];
  for (const [key, free] of keys) {
    const stub = signInThrottleStub(env, key);
    const r = await stub.attempt(Date.now(), free);
    if (!r.allowed) {
      // The attempts counted on the keys before this one never ran: taken back.
      await Promise.all(counted.map((s) => s.forgive()));
      log("account_sign_in", { method, result: "throttled" });
      throw tooMany(r.waitMs, "Too many sign-in attempts.");
    }
    counted.push(stub);
  }
  return {
    async passed() {
      // Signed in: this client and account start over; the shared counts lose this attempt only.
      const [first, ...rest] = counted;
      await Promise.all([accountId === null ? first!.forgive() : first!.succeeded(), ...rest.map((s) => s.forgive())]);
    },
  };
}

/** `signInAttempt` for a password (the three keys). */
export const passwordAttempt = (request: Request, env: Env, accountId: string) => signInAttempt(request, env, accountId, "password");

/** Counts one mail to this account's address from this client, or refuses with 429. */
export async function mailAttempt(request: Request, env: Env, accountId: string): Promise<void> {
  const client = clientKey(request, env);
  for (const [key, free] of [
    [`mail:${accountId}`, ACCOUNT_THROTTLES.mailAccount],
    [`${client}|mail`, ACCOUNT_THROTTLES.mailClient],
  ] as const) {
    const r = await signInThrottleStub(env, key).attempt(Date.now(), free);
    if (!r.allowed) throw tooMany(r.waitMs, "Too many mails asked for.");
  }
}
