/**
 * The Account object's passkeys table and the single use of challenges. Verification is
 * @simplewebauthn/server's; this file stores what it verified and refuses what it did not.
 */
import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from "@simplewebauthn/server";
import { sha256Hex } from "../../src/ids";
import { MAX_PASSKEYS, type ExpectedPasskey } from "../../src/identity/passkeys";
import type { PasskeyView } from "../../src/identity/account-types";
import { log } from "../../src/log";

type Row = { id: string; name: string; created_at: number; last_used_at: number | null };

const view = (r: Row): PasskeyView => ({
  id: r.id,
  name: r.name,
  createdAt: new Date(r.created_at).toISOString(),
  lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString(),
});

export function listPasskeys(sql: SqlStorage): PasskeyView[] {
  return sql.exec<Row>("SELECT id, name, created_at, last_used_at FROM passkeys ORDER BY created_at, id").toArray().map(view);
}

export function passkeyOf(sql: SqlStorage, id: string): PasskeyView | null {
  const row = sql.exec<Row>("SELECT id, name, created_at, last_used_at FROM passkeys WHERE id = ?", id).toArray()[0];
  return row ? view(row) : null;
}

/**
 * Marks a challenge used (its hash, until it would have expired anyway). False when it was used
 * before. The check and the mark are one synchronous step, so two answers with the same challenge
 * at once cannot both pass.
 */
export async function claimChallenge(sql: SqlStorage, challenge: string, expiresAt: number, now: number): Promise<boolean> {
  const hash = await sha256Hex(challenge);
  sql.exec("DELETE FROM used_challenges WHERE expires_at <= ?", now);
  return (
    sql.exec("INSERT INTO used_challenges (hash, expires_at) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING", hash, expiresAt).rowsWritten > 0
  );
}

export type VerifiedRegistration = {
  id: string;
  publicKey: Uint8Array;
  counter: number;
  transports: AuthenticatorTransport[];
};

/** Verifies a registration (nothing stored); null when it does not verify. */
export async function verifyRegistration(
  response: RegistrationResponseJSON,
  expected: ExpectedPasskey,
): Promise<VerifiedRegistration | null> {
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.origins,
      expectedRPID: expected.rpID,
      requireUserVerification: false,
    });
    if (!verified.verified || !verified.registrationInfo) return null;
    const c = verified.registrationInfo.credential;
    return { id: c.id, publicKey: c.publicKey, counter: c.counter, transports: (c.transports ?? []) as AuthenticatorTransport[] };
  } catch (err) {
    log("passkey_refused", { step: "registration", reason: err instanceof Error ? err.message.slice(0, 160) : "unknown" });
    return null;
  }
}

export type StoreResult = "ok" | "too_many" | "exists";

/** Stores a verified credential under this relying party. */
export function storePasskey(sql: SqlStorage, c: VerifiedRegistration, rpID: string, name: string, now: number): StoreResult {
  if (sql.exec("SELECT 1 FROM passkeys WHERE id = ?", c.id).toArray().length > 0) return "exists";
  if (sql.exec<{ n: number }>("SELECT count(*) AS n FROM passkeys").one().n >= MAX_PASSKEYS) return "too_many";
  sql.exec(
    "INSERT INTO passkeys (id, public_key, counter, transports, name, rp_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    c.id,
    c.publicKey,
    c.counter,
    JSON.stringify(c.transports),
    name,
    rpID,
    now,
  );
  return "ok";
}

export type AssertionResult = { ok: true } | { ok: false; reason: "unknown_credential" | "used_challenge" | "counter" | "invalid" };

/**
 * Checks a sign-in assertion against the stored credential. The challenge is used once (claimed
 * before the signature is even checked), and the signature counter moves forward: an answer whose
 * counter did not grow past the stored one (a cloned authenticator, says the WebAuthn spec §6.1.1)
 * is refused, as @simplewebauthn/server decides.
 */
export async function verifyAssertion(
  sql: SqlStorage,
  response: AuthenticationResponseJSON,
  expected: ExpectedPasskey,
  now: number,
): Promise<AssertionResult> {
  const row = sql
    .exec<{ public_key: ArrayBuffer; counter: number; transports: string | null; rp_id: string }>(
      "SELECT public_key, counter, transports, rp_id FROM passkeys WHERE id = ?",
      response.id,
    )
    .toArray()[0];
  if (!row || row.rp_id !== expected.rpID) return { ok: false, reason: "unknown_credential" };
  if (!(await claimChallenge(sql, expected.challenge, expected.expiresAt, now))) return { ok: false, reason: "used_challenge" };
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.origins,
      expectedRPID: expected.rpID,
      requireUserVerification: false,
      credential: {
        id: response.id,
        publicKey: new Uint8Array(row.public_key),
        counter: row.counter,
        transports: JSON.parse(row.transports ?? "[]") as AuthenticatorTransport[],
      },
    });
    if (!verified.verified) return { ok: false, reason: "invalid" };
    newCounter = verified.authenticationInfo.newCounter;
  } catch (err) {
    const message = err instanceof Error ? err.message : "";
    const counter = /counter value/i.test(message);
    log("passkey_refused", { step: "sign_in", reason: counter ? "counter" : message.slice(0, 160) });
    return { ok: false, reason: counter ? "counter" : "invalid" };
  }
  sql.exec("UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?", newCounter, now, response.id);
  return { ok: true };
}
