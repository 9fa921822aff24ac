import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { sha256Hex } from "../../src/ids";

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface Expected {
  challenge: string;
  origin: string;
  rpID: string;
}

/** Verifies a registration and stores the credential; false when it does not verify. */
export async function addPasskey(
  sql: SqlStorage,
  response: RegistrationResponseJSON,
  expected: Expected,
  name: string,
  now: number,
): Promise<boolean> {
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.origin,
      expectedRPID: expected.rpID,
      requireUserVerification: false,
    });
  } catch {
    return false;
  }
  if (!verified.verified || !verified.registrationInfo) return false;
  const c = verified.registrationInfo.credential;
  sql.exec(
    "INSERT OR IGNORE INTO passkeys (id, public_key, counter, transports, name, rp_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    c.id,
    c.publicKey,
    c.counter,
    JSON.stringify(c.transports ?? []),
    name,
    expected.rpID,
    now,
  );
  return true;
}

export function listPasskeys(sql: SqlStorage): PasskeyView[] {
  return sql
    .exec<{ id: string; name: string; created_at: number; last_used_at: number | null }>(
      "SELECT id, name, created_at, last_used_at FROM passkeys ORDER BY created_at",
    )
    .toArray()
    .map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: new Date(r.created_at).toISOString(),
      lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString(),
    }));
}

/**
 * Checks an assertion against the stored credential; the challenge is used once (kept until it
 * would have expired anyway) and the signature counter moves forward.
 */
export async function verifyPasskey(
  sql: SqlStorage,
  response: AuthenticationResponseJSON,
  expected: Expected & { expiresAt: number },
  now: number,
): Promise<boolean> {
  const row = sql
    .exec<{ public_key: ArrayBuffer; counter: number; transports: string | null; rp_id: string }>(
      "SELECT public_key, counter, transports, rp_id FROM passkeys WHERE id = ?",
      response.id,
    )
    .toArray()[0];
  if (!row || row.rp_id !== expected.rpID) return false;
  const challengeHash = await sha256Hex(expected.challenge);
  sql.exec("DELETE FROM used_challenges WHERE expires_at <= ?", now);
  if (sql.exec("SELECT 1 FROM used_challenges WHERE hash = ?", challengeHash).toArray().length > 0) return false;
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.origin,
      expectedRPID: expected.rpID,
      requireUserVerification: false,
      credential: {
        id: response.id,
        publicKey: new Uint8Array(row.public_key),
        counter: row.counter,
        transports: JSON.parse(row.transports ?? "[]") as never,
      },
    });
  } catch {
    return false;
  }
  if (!verified.verified) return false;
  sql.exec("INSERT OR IGNORE INTO used_challenges (hash, expires_at) VALUES (?, ?)", challengeHash, expected.expiresAt);
  sql.exec("UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?", verified.authenticationInfo.newCounter, now, response.id);
  return true;
}
