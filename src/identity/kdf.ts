/**
 * Password hashing. Every hash is stored as a PHC string that names its algorithm and
 * parameters, so they can be raised later and old hashes still verify (then get rehashed).
 *
 * - argon2id (default) through @phi-ag/argon2: the reference C implementation as a 29 KB wasm
 *   with no imports, imported as a CompiledWasm module (workerd refuses compiling wasm from
 *   bytes, which rules out hash-wasm). Parameters: OWASP's first configuration.
 * - PBKDF2-SHA256 through WebCrypto, at most 100,000 iterations. Production Workers refuse
 *   more (workerd #1346) while wrangler dev and local workerd do not, so a count that passes
 *   every local test would fail every production sign-in: this wrapper enforces the cap itself.
 *
 * The measurements and the choice are in docs/accounts.md ("Which KDF").
 */
import Argon2, { Argon2Type, Argon2Version } from "@phi-ag/argon2";
import argon2Wasm from "../../dist/argon2.wasm";

export const PBKDF2_MAX_ITERATIONS = 100_000;
export const PBKDF2_ITERATIONS = 100_000;
export const ARGON2 = { timeCost: 2, memoryCost: 19_456, parallelism: 1, hashLength: 32 } as const;
/** The most work a stored argon2 string may ask for; anything above is refused before computing. */
const ARGON2_MAX = { memoryCost: 65_536, timeCost: 10, parallelism: 4 } as const;

export type KdfName = "argon2id" | "pbkdf2";
/** Bounds of a password at the API: the KDF input stays bounded. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** The version of `prepare` a stored hash was made with (1 = NFC → UTF-8 → base64url). */
export const PASSWORD_PREP = 1;

/**
 * What every password goes through before any KDF. @phi-ag/argon2 passes `password.length`
 * (UTF-16 units) as the byte length of the UTF-8 copy, so "é" (c3 a9) hashes as its first
 * byte only and verifies against "Ã" (c3 83). ASCII in, the same bytes out: base64url of the
 * NFC-normalised UTF-8 (so the composed and decomposed "é" are the same password).
 */
export function prepare(password: string): string {
  const bytes = new TextEncoder().encode(password.normalize("NFC"));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

let argon2: Promise<Argon2> | undefined;
// One instance per isolate: instantiating takes about a millisecond; its memory stays near 19 MiB.
const argon2Instance = (): Promise<Argon2> => (argon2 ??= WebAssembly.instantiate(argon2Wasm).then((i) => new Argon2(i)));

export async function pbkdf2(prepared: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) {
    throw new RangeError(`PBKDF2 iterations must be 1..${PBKDF2_MAX_ITERATIONS} (production Workers refuse more); got ${iterations}`);
  }
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(prepared), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

const b64 = (bytes: Uint8Array): string => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/=+$/, "");
};
const unb64 = (text: string): Uint8Array | null => {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
};

/** A new PHC string for this password. */
export async function hashPassword(password: string, kdf: KdfName = "argon2id"): Promise<string> {
  const prepared = prepare(password);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  if (kdf === "pbkdf2") {
    const hash = await pbkdf2(prepared, salt, PBKDF2_ITERATIONS);
    return `$pbkdf2-sha256$i=${PBKDF2_ITERATIONS}$${b64(salt)}$${b64(hash)}`;
  }
  const a2 = await argon2Instance();
  return a2.hash(prepared, { ...ARGON2, salt, type: Argon2Type.Argon2id, version: Argon2Version.Version13 }).encoded;
}

export type ParsedPhc =
  { alg: "argon2id"; m: number; t: number; p: number } | { alg: "pbkdf2-sha256"; i: number; salt: Uint8Array; hash: Uint8Array };

/** The algorithm and parameters of a stored string, or why it is refused (before any work). */
export function parsePhc(phc: string): ParsedPhc | { refused: string } {
  const a = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(phc);
  if (a) {
    const [m, t, p] = [Number(a[1]), Number(a[2]), Number(a[3])];
    if (m > ARGON2_MAX.memoryCost || t > ARGON2_MAX.timeCost || p > ARGON2_MAX.parallelism || t < 1 || p < 1) {
      return { refused: `argon2id parameters above the allowed work (m=${m},t=${t},p=${p})` };
    }
    return { alg: "argon2id", m, t, p };
  }
  const k = /^\$pbkdf2-sha256\$i=(\d{1,9})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(phc);
  if (k) {
    const i = Number(k[1]);
    if (i < 1 || i > PBKDF2_MAX_ITERATIONS) return { refused: `pbkdf2 iterations ${i} above ${PBKDF2_MAX_ITERATIONS}` };
    const salt = unb64(k[2]!);
    const hash = unb64(k[3]!);
    if (!salt || !hash || hash.length !== 32) return { refused: "pbkdf2 string malformed" };
    return { alg: "pbkdf2-sha256", i, salt, hash };
  }
  return { refused: "unknown algorithm" };
}

export interface Verified {
  ok: boolean;
  /** The hash verified but was made with other than the current parameters: store a new one. */
  needsRehash: boolean;
}

/**
 * Checks a password against a stored PHC string. A string asking for more work than allowed
 * (PBKDF2 above the production cap, argon2 above ARGON2_MAX) is refused without deriving.
 */
export async function verifyPassword(phc: string, password: string, current: KdfName = "argon2id"): Promise<Verified> {
  const parsed = parsePhc(phc);
  if ("refused" in parsed) throw new RangeError(`stored password hash refused: ${parsed.refused}`);
  const prepared = prepare(password);
  if (parsed.alg === "pbkdf2-sha256") {
    const derived = await pbkdf2(prepared, parsed.salt, parsed.i);
    const ok = crypto.subtle.timingSafeEqual(derived, parsed.hash);
    return { ok, needsRehash: ok && (current !== "pbkdf2" || parsed.i < PBKDF2_ITERATIONS) };
  }
  const a2 = await argon2Instance();
  const ok = a2.tryVerify(phc, prepared, Argon2Type.Argon2id).success;
  const same = parsed.m === ARGON2.memoryCost && parsed.t === ARGON2.timeCost && parsed.p === ARGON2.parallelism;
  return { ok, needsRehash: ok && (current !== "argon2id" || !same) };
}

/**
 * Verified for an address with no account (or no password), so every sign-in runs exactly one
 * KDF at the current cost and an unknown address answers in the same time as a wrong password.
 * Its password is unknowable: the salt and hash were drawn at random once.
 */
export const DUMMY_PHC: Record<KdfName, string> = {
  argon2id: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$Dp0A4NI7IYcG/Hy1o0PF3b7A6iEXxHYCN8iESA9uE7I",
  pbkdf2: "$pbkdf2-sha256$i=100000$Y29uc3RhbnRzYWx0MTIzNA$7Xfk2q1v3JmYtn0m5o1mOYF2Hc7X2b4Qmkz4ePp3kDY",
};

export const kdfOf = (env: { PASSWORD_KDF?: string }): KdfName => (env.PASSWORD_KDF === "pbkdf2" ? "pbkdf2" : "argon2id");
