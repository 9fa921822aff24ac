/**
 * Email addresses as account identities. An address is compared case-insensitively after
 * normalisation (normaliseEmail), and the account's id is derived from the normalised address, so
 * finding an account by email needs no index object: the id names its Account object.
 */
import { ID_ALPHABET } from "../contract/ids";

/** RFC 5321's limit for a forward path, which is what an address can be used as. */
export const EMAIL_MAX = 254;
// Deliberately plain: one @, no spaces or angle brackets, a dotted domain. Whether the address
// can receive mail is proven by the verification link, not by a pattern.
const SHAPE = /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/;

/**
 * trim → NFC → lower case → the domain in ASCII (IDNA, via the URL parser). No provider-specific
 * folding (Gmail dots): an address is what its owner types. Null when it is not an address.
 */
export function normaliseEmail(raw: string): string | null {
  const lowered = raw.trim().normalize("NFC").toLowerCase();
  const at = lowered.lastIndexOf("@");
  if (at <= 0 || at === lowered.length - 1) return null;
  let domain: string;
  try {
    domain = new URL(`http://${lowered.slice(at + 1)}`).hostname;
  } catch {
    return null;
  }
  const email = `${lowered.slice(0, at)}@${domain}`;
  if (email.length > EMAIL_MAX || !SHAPE.test(email)) return null;
  return email;
}

/** `ac_` + 26 base32 characters (130 bits) of SHA-256 of the normalised address. */
export const ACCOUNT_ID = /^ac_[a-z2-7]{26}$/;
export const isAccountId = (s: string): boolean => ACCOUNT_ID.test(s);

export async function accountIdOf(normalisedEmail: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(normalisedEmail)));
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += ID_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === 26) break;
  }
  return `ac_${out}`;
}
