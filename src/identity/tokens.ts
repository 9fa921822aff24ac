/**
 * Account credentials and signed tokens. Session and reset ids carry the account id, so the
 * stateless front Worker routes them to the Account object (as `ss_<site>_…` routes to a Site);
 * the object then checks the secret part, stored only as its SHA-256.
 *
 * Sign-up links and passkey sign-in challenges are stateless: signed with AUTH_SECRET, so a
 * stranger's request creates no storage anywhere.
 */
import { randomId } from "../ids";

const ACCOUNT_SESSION = /^sa_(ac_[a-z2-7]{26})_[a-z2-7]{40}$/;
const RESET_TOKEN = /^rt_(ac_[a-z2-7]{26})_[a-z2-7]{40}$/;

export const newAccountSessionId = (accountId: string): string => `sa_${accountId}_${randomId(40)}`;
export const newResetToken = (accountId: string): string => `rt_${accountId}_${randomId(40)}`;
/** The public handle of a session in the "active sessions" list; its id (or hash) is never shown. */
export const newSessionHandle = (): string => randomId(12);

export const accountOfSession = (id: string): string | null => ACCOUNT_SESSION.exec(id)?.[1] ?? null;
export const accountOfResetToken = (token: string): string | null => RESET_TOKEN.exec(token)?.[1] ?? null;

const b64url = (bytes: Uint8Array): string => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const fromB64url = (text: string): Uint8Array | null => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
};

const keys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

/** Every signed token names its purpose, so one kind can never be replayed as another. */
export type TokenPurpose =
  "signup" | "passkey-signin" | "passkey-register" | "passkey-signup" | "invitation-mail-stop" | "invitation-address";

/** `b64url(JSON payload) . b64url(HMAC(secret, purpose . payload))`, valid until `expiresAt` (ms). */
export async function signToken(
  secret: string,
  purpose: TokenPurpose,
  payload: Record<string, unknown>,
  expiresAt: number,
): Promise<string> {
  const body = b64url(new TextEncoder().encode(JSON.stringify({ ...payload, x: expiresAt })));
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(`${purpose}.${body}`));
  return `${body}.${b64url(new Uint8Array(mac))}`;
}

export type Opened = { ok: true; payload: Record<string, unknown> } | { ok: false; reason: "invalid" | "expired" };

/** The payload of a token this service signed for this purpose, if it has not expired. */
export async function openToken(secret: string, purpose: TokenPurpose, token: string, now = Date.now()): Promise<Opened> {
  if (token.length > 2000) return { ok: false, reason: "invalid" };
  const [body, mac, extra] = token.split(".");
  const macBytes = mac === undefined ? null : fromB64url(mac);
  if (!body || !macBytes || extra !== undefined) return { ok: false, reason: "invalid" };
  const good = await crypto.subtle.verify("HMAC", await hmacKey(secret), macBytes, new TextEncoder().encode(`${purpose}.${body}`));
  if (!good) return { ok: false, reason: "invalid" };
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(fromB64url(body) ?? new Uint8Array()));
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (typeof payload !== "object" || payload === null) return { ok: false, reason: "invalid" };
  const x = (payload as { x?: unknown }).x;
  if (typeof x !== "number" || x <= now) return { ok: false, reason: "expired" };
  return { ok: true, payload: payload as Record<string, unknown> };
}
