/**
 * Passkeys (WebAuthn) with @simplewebauthn/server, which runs on workerd (it uses
 * globalThis.crypto; no metadata service is ever asked: attestation "none"). The relying party
 * is the service host the dashboard was opened on; browsers refuse an IP address, so locally the
 * dashboard must be opened on `localhost`.
 */
import { ApiError } from "../contract/errors";

/** The relying party of this request: its hostname and origin. */
export function relyingParty(request: Request): { rpID: string; origin: string } {
  const url = new URL(request.url);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(url.hostname) || url.hostname.includes(":")) {
    throw new ApiError(
      "bad_request",
      `Passkeys need a name such as localhost, not an address: open the dashboard at ${url.protocol}//localhost${url.port ? `:${url.port}` : ""}/dashboard/.`,
    );
  }
  return { rpID: url.hostname, origin: url.origin };
}

/** A challenge is answered within five minutes or not at all. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The account id a passkey's user handle names (registration sets userID to the id's bytes). */
export function accountOfUserHandle(userHandle: string | undefined): string | null {
  if (!userHandle || !/^[A-Za-z0-9_-]{1,200}$/.test(userHandle)) return null;
  try {
    const text = atob(userHandle.replace(/-/g, "+").replace(/_/g, "/"));
    return /^ac_[a-z2-7]{26}$/.test(text) ? text : null;
  } catch {
    return null;
  }
}
