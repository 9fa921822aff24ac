/**
 * Passkeys (WebAuthn) with @simplewebauthn/server, which runs on workerd (it uses
 * globalThis.crypto; no metadata service is ever asked: attestation "none").
 *
 * The relying party is PASSKEY_RP_ID / PASSKEY_ORIGINS when the deployment sets them, otherwise
 * the host the dashboard was opened on. Browsers refuse an IP address as a relying party, so
 * locally the dashboard must be opened on `localhost` (docs/accounts.md "Passkeys").
 *
 * Challenges are signed tokens (AUTH_SECRET, purpose, what they are bound to, five minutes), so
 * asking for one stores nothing anywhere; the Account object that verifies an answer records the
 * challenge's hash until it expires, so each is used once.
 */
import { ApiError } from "../contract/errors";
import { openToken, signToken, type TokenPurpose } from "./tokens";

/** A challenge is answered within five minutes or not at all. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Passkeys one account may hold: bounded storage, and more than anyone has devices. */
export const MAX_PASSKEYS = 20;

export interface RelyingParty {
  rpID: string;
  /** Origins an answer may come from (the configured ones, or this request's). */
  origins: string[];
}

export interface ExpectedPasskey extends RelyingParty {
  challenge: string;
  /** When the challenge stops being valid (ms): how long the Account keeps it as used. */
  expiresAt: number;
}

const isAddress = (host: string): boolean => /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(":") || host.startsWith("[");

/** The relying party of this request: configured, or the request's own host and origin. */
export function relyingParty(request: Request, env: { PASSKEY_RP_ID?: string; PASSKEY_ORIGINS?: string }): RelyingParty {
  const url = new URL(request.url);
  const configured = env.PASSKEY_RP_ID?.trim();
  if (configured) {
    const origins = (env.PASSKEY_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean);
    return { rpID: configured, origins: origins.length > 0 ? origins : [`https://${configured}`] };
  }
  if (isAddress(url.hostname)) {
    throw new ApiError(
      "bad_request",
      `Passkeys need a name such as localhost, not an address: open the dashboard at ${url.protocol}//localhost${url.port ? `:${url.port}` : ""}/dashboard/.`,
      { reason: "address_host" },
    );
  }
  return { rpID: url.hostname, origins: [url.origin] };
}

type Purpose = Extract<TokenPurpose, `passkey-${string}`>;

/**
 * A challenge for this purpose, bound to `bind` (an account id, or the relying party for a
 * sign-in). Its bytes are a signed token; the browser sends them back base64url-encoded.
 */
export async function newChallenge(secret: string, purpose: Purpose, bind: string, now = Date.now()): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(16));
  return signToken(
    secret,
    purpose,
    { b: bind, n: Array.from(nonce, (b) => b.toString(16).padStart(2, "0")).join("") },
    now + PASSKEY_CHALLENGE_TTL_MS,
  );
}

const fromB64url = (text: string): string | null => {
  if (!/^[A-Za-z0-9_-]{1,4000}$/.test(text)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
    );
  } catch {
    return null;
  }
};

/** The challenge (base64url, as options carried it) a browser's answer signed, read from its clientDataJSON. */
export function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const raw = response.response?.clientDataJSON;
  if (typeof raw !== "string") return null;
  const json = fromB64url(raw);
  if (json === null) return null;
  try {
    const data = JSON.parse(json) as { challenge?: unknown };
    return typeof data.challenge === "string" ? data.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Checks that a challenge (base64url, from the browser's answer) is one this service issued for
 * this purpose and binding, and has not expired. Single use is the Account object's part.
 */
export async function openChallenge(
  secret: string,
  purpose: Purpose,
  bind: string,
  challenge: string | null,
  now = Date.now(),
): Promise<{ ok: true; expiresAt: number } | { ok: false; reason: "invalid" | "expired" }> {
  const token = challenge === null ? null : fromB64url(challenge);
  if (token === null) return { ok: false, reason: "invalid" };
  const opened = await openToken(secret, purpose, token, now);
  if (!opened.ok) return opened;
  if (opened.payload.b !== bind) return { ok: false, reason: "invalid" };
  return { ok: true, expiresAt: opened.payload.x as number };
}

/** The account id a passkey's user handle names (registration sets userID to the id's bytes). */
export function accountOfUserHandle(userHandle: unknown): string | null {
  if (typeof userHandle !== "string") return null;
  const text = fromB64url(userHandle);
  return text !== null && /^ac_[a-z2-7]{26}$/.test(text) ? text : null;
}

/** A passkey's id as the API names it: the credential id, base64url (at most 1,023 bytes). */
export const PASSKEY_ID = /^[A-Za-z0-9_-]{16,1400}$/;
