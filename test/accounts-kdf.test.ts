import { describe, expect, it } from "vitest";
import {
  ARGON2,
  DUMMY_PHC,
  hashPassword,
  parsePhc,
  PBKDF2_ITERATIONS,
  PBKDF2_MAX_ITERATIONS,
  pbkdf2,
  prepare,
  verifyPassword,
} from "../src/identity/kdf";

// The password KDF in workerd, where it runs in production. Local workerd (and wrangler dev)
// accept PBKDF2 above 100,000 iterations while production refuses it (workerd #1346), so the
// cap is ours to enforce and these tests check that we do.
describe("password KDF", () => {
  it("refuses a PBKDF2 count above the production cap in our wrapper, although local workerd would run it", async () => {
    const salt = new Uint8Array(16);
    await expect(pbkdf2(prepare("correct horse battery"), salt, PBKDF2_MAX_ITERATIONS + 1)).rejects.toThrow(/100000/);
    await expect(pbkdf2(prepare("correct horse battery"), salt, 0)).rejects.toThrow(RangeError);
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(PBKDF2_MAX_ITERATIONS);
    // The runtime itself does not refuse (that is why our wrapper must):
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("x"), "PBKDF2", false, ["deriveBits"]);
    const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 100_001 }, key, 256);
    expect(bits.byteLength).toBe(32);
  });

  it("refuses a stored hash asking for more work than allowed, before deriving anything", async () => {
    const over = "$pbkdf2-sha256$i=100001$c2FsdHNhbHRzYWx0c2FsdA$7Xfk2q1v3JmYtn0m5o1mOYF2Hc7X2b4Qmkz4ePp3kDY";
    expect(parsePhc(over)).toEqual({ refused: expect.stringMatching(/100001/) });
    await expect(verifyPassword(over, "whatever-password")).rejects.toThrow(/refused/);
    const heavy = "$argon2id$v=19$m=1048576,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$Dp0A4NI7IYcG/Hy1o0PF3b7A6iEXxHYCN8iESA9uE7I";
    await expect(verifyPassword(heavy, "whatever-password")).rejects.toThrow(/above the allowed work/);
  });

  it("stores argon2id as a PHC string with its parameters, and verifies it", async () => {
    const phc = await hashPassword("correct horse battery");
    expect(phc).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}\\$`));
    expect(await verifyPassword(phc, "correct horse battery")).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword(phc, "correct horse batterY")).toEqual({ ok: false, needsRehash: false });
  });

  it("stores PBKDF2 as a PHC string at the cap; it verifies and asks to be rehashed to argon2id", async () => {
    const phc = await hashPassword("correct horse battery", "pbkdf2");
    expect(phc).toMatch(/^\$pbkdf2-sha256\$i=100000\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(await verifyPassword(phc, "correct horse battery", "pbkdf2")).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword(phc, "correct horse battery", "argon2id")).toEqual({ ok: true, needsRehash: true });
    expect((await verifyPassword(phc, "wrong horse battery", "argon2id")).ok).toBe(false);
  });

  it("hashes every byte of a non-ASCII password (the library alone would hash only the first byte of 'é')", async () => {
    // é is c3 a9 and Ã is c3 83 in UTF-8: the same first byte.
    const phc = await hashPassword("mot-de-passé");
    expect((await verifyPassword(phc, "mot-de-passÃ")).ok).toBe(false);
    expect((await verifyPassword(phc, "mot-de-passé")).ok).toBe(true);
    // Composed and decomposed forms are one password (NFC).
    expect((await verifyPassword(phc, "mot-de-passe\u0301")).ok).toBe(true);
    const emoji = await hashPassword("🔑🔑🔑🔑🔑 key");
    expect((await verifyPassword(emoji, "🔑🔑🔑🔑🔒 key")).ok).toBe(false);
  });

  it("has dummy hashes with the current parameters that nothing verifies against", async () => {
    expect(parsePhc(DUMMY_PHC.argon2id)).toEqual({ alg: "argon2id", m: ARGON2.memoryCost, t: ARGON2.timeCost, p: ARGON2.parallelism });
    expect(parsePhc(DUMMY_PHC.pbkdf2)).toMatchObject({ alg: "pbkdf2-sha256", i: PBKDF2_ITERATIONS });
    expect((await verifyPassword(DUMMY_PHC.argon2id, "")).ok).toBe(false);
  });
});
