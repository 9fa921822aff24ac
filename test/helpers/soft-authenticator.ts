/**
 * A software WebAuthn authenticator for workerd tests: real ES256 keys and CBOR, so
 * @simplewebauthn/server verifies every byte, and passkey tests need no browser. Not a stub.
 */
import { encodeCBOR } from "@levischuck/tiny-cbor";

const b64u = (bytes: Uint8Array): string => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const unb64u = (s: string): Uint8Array => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const cat = (...parts: (Uint8Array | number[])[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const sha256 = async (data: Uint8Array | string) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", typeof data === "string" ? new TextEncoder().encode(data) : data));
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/** WebCrypto's ECDSA signature (r‖s) as ASN.1 DER, which WebAuthn carries. */
function der(sig: Uint8Array): Uint8Array {
  const int = (x: Uint8Array) => {
    let i = 0;
    while (i < x.length - 1 && x[i] === 0) i++;
    const v = x.slice(i);
    return v[0]! & 0x80 ? cat([0], v) : v;
  };
  const r = int(sig.slice(0, 32));
  const s = int(sig.slice(32));
  const body = cat([2, r.length], r, [2, s.length], s);
  return cat([0x30, body.length], body);
}

export interface Assertion {
  id: string;
  rawId: string;
  type: "public-key";
  clientExtensionResults: Record<string, never>;
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string | null };
}

export class SoftAuthenticator {
  #keys!: CryptoKeyPair;
  /** The signature counter the next assertion carries, less one (a test may set it back: a clone). */
  counter = 0;
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  userHandle: string | null = null;

  readonly rpID: string;
  readonly origin: string;

  // Plain fields, not parameter properties: the bench (scripts/bench/accounts.mjs) imports this
  // file with Node's type stripping, which has no parameter properties.
  constructor(rpID: string, origin: string) {
    this.rpID = rpID;
    this.origin = origin;
  }

  async register(options: { challenge: string; user: { id: string } }, origin = this.origin): Promise<Record<string, unknown>> {
    this.#keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", this.#keys.publicKey)) as JsonWebKey;
    this.userHandle = options.user.id;
    const cose = encodeCBOR(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, unb64u(jwk.x!)],
        [-3, unb64u(jwk.y!)],
      ]),
    );
    const id = this.credentialId;
    const authData = cat(await sha256(this.rpID), [0x45], u32(0), new Uint8Array(16), [0, id.length], id, cose);
    const clientDataJSON = new TextEncoder().encode(
      JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false }),
    );
    const attestationObject = encodeCBOR(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]) as never,
    );
    return {
      id: b64u(id),
      rawId: b64u(id),
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: b64u(clientDataJSON), attestationObject: b64u(attestationObject), transports: ["internal"] },
    };
  }

  async assert(options: { challenge: string }, origin = this.origin, rpID = this.rpID): Promise<Assertion> {
    this.counter++;
    const authData = cat(await sha256(rpID), [0x05], u32(this.counter));
    const clientDataJSON = new TextEncoder().encode(
      JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }),
    );
    const signed = cat(authData, await sha256(clientDataJSON));
    const sig = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.#keys.privateKey, signed));
    return {
      id: b64u(this.credentialId),
      rawId: b64u(this.credentialId),
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(der(sig)),
        userHandle: this.userHandle,
      },
    };
  }
}
