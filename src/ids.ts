/**
 * New identifiers and credentials, and the hashing and comparison of secrets. Their
 * formats (and the parsers the front Worker routes by) are the contract's: src/contract/ids.ts.
 */
import { type _HMAC, hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { ID_ALPHABET as ALPHABET, ID_LENGTH as L, ID_PREFIX as P, ID_SITE_MAC } from "./contract/ids";

export function randomId(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}

/**
 * A new site id: random characters and a MAC of them under SITE_ID_SECRET (ID_SITE_MAC), in the
 * same 16-character alphabet as every id before, so clients' patterns still hold. The front
 * Worker recognises an id it issued without asking any object (src/edge/issued.ts).
 */
export function newSiteId(secret: string): string {
  const random = randomId(ID_SITE_MAC.random);
  return `${random}${siteIdMac(secret, random)}`;
}

/**
 * 30 bits of HMAC-SHA-256 over the random part, as ID_SITE_MAC.mac characters of the id alphabet.
 * The front Worker checks it on every request naming a site it has not seen, and such a refusal
 * must cost less than a cached read (`BENCH_ONLY=refused npm run bench`), so it is synchronous
 * (WebCrypto's promise round costs more than the hash of a 15-byte message) and allocates nothing:
 * see `idMacBits`.
 */
export function siteIdMac(secret: string, random: string): string {
  return idMac(secret, "site", random);
}

/** The same MAC for another kind of id (`workspace`): a site id's MAC never passes for a workspace's. */
export function idMac(secret: string, kind: "site" | "workspace", random: string): string {
  let bits = idMacBits(secret, kind, random);
  let out = "";
  for (let i = 0; i < ID_SITE_MAC.mac; i++) {
    out = ALPHABET[bits & 31] + out;
    bits >>>= 5;
  }
  return out;
}

/**
 * Whether `mac` is the MAC of `random` (`idMac`), compared without building the expected string,
 * in the same time wherever they differ.
 */
export function idMacMatches(secret: string, kind: "site" | "workspace", random: string, mac: string): boolean {
  if (mac.length !== ID_SITE_MAC.mac) return false;
  let bits = idMacBits(secret, kind, random);
  let diff = 0;
  for (let i = ID_SITE_MAC.mac - 1; i >= 0; i--, bits >>>= 5) diff |= ALPHABET.charCodeAt(bits & 31) ^ mac.charCodeAt(i);
  return diff === 0;
}

// The keyed HMAC state per kind and secret with "<kind>:" already absorbed, copied into one scratch
// state per call (the isolate runs one call at a time), and the random part's bytes written by hand
// into one buffer: a MAC is two SHA-256 blocks and no allocation. A profile of the refused bench
// put node:crypto's createHmac (a new Hmac stream, the key and message turned into Buffers per
// call) at a quarter of a made-up id's refusal; this costs about half as much in workerd
// (docs/caching.md, "Refused requests, measured").
const idKeyed = { site: new Map<string, HmacState>(), workspace: new Map<string, HmacState>() };
const randomPart = new Uint8Array(ID_SITE_MAC.random);

/** The first 30 bits of HMAC-SHA-256(secret, `<kind>:<random>`). */
function idMacBits(secret: string, kind: "site" | "workspace", random: string): number {
  const mac = randomBytesOf(random) ? keyedId(secret, kind, randomPart) : macOf(secret, `${kind}:${random}`);
  return ((mac[0]! << 24) | (mac[1]! << 16) | (mac[2]! << 8) | mac[3]!) >>> 2;
}

/** Writes an ASCII random part of the usual length into `randomPart`; false for anything else. */
function randomBytesOf(random: string): boolean {
  if (random.length !== randomPart.length) return false;
  for (let i = 0; i < random.length; i++) {
    const c = random.charCodeAt(i);
    if (c > 0x7f) return false;
    randomPart[i] = c;
  }
  return true;
}

function keyedId(secret: string, kind: "site" | "workspace", bytes: Uint8Array): Uint8Array {
  let state = idKeyed[kind].get(secret);
  if (!state)
    idKeyed[kind].set(
      secret,
      (state = keyedState(secret)
        .clone()
        .update(encoder.encode(`${kind}:`)) as HmacState),
    );
  const s = (scratch = state._cloneInto(scratch));
  s.update(bytes).digestInto(digest);
  return digest;
}

/**
 * `bytes` bytes (at most 32) of HMAC-SHA-256 of `message` under `secret`, in hex: a value the
 * service can give again without storing it, and nobody without the secret can work out.
 */
export function keyedHex(secret: string, message: string, bytes: number): string {
  return toHex(macOf(secret, message).slice(0, bytes));
}

type HmacState = _HMAC<ReturnType<typeof sha256.create>>;
const keyed = new Map<string, HmacState>();
let scratch: HmacState | undefined;
const digest = new Uint8Array(32);
const encoder = new TextEncoder();

function keyedState(secret: string): HmacState {
  let state = keyed.get(secret);
  if (!state) keyed.set(secret, (state = hmac.create(sha256, encoder.encode(secret)) as HmacState));
  return state;
}

function macOf(secret: string, message: string): Uint8Array {
  const s = (scratch = keyedState(secret)._cloneInto(scratch));
  s.update(encoder.encode(message)).digestInto(digest);
  return digest;
}

/**
 * A new workspace id: `ws_`, then random characters and their MAC (as a site id's), so the front
 * Worker refuses a made-up workspace credential without reaching any object (src/edge/issued.ts).
 * Without the secret (a deployment not yet configured) the id is random, as before the MAC.
 */
export function newWorkspaceId(secret: string | null): string {
  if (!secret) return `${P.workspace}${randomId(L.workspace)}`;
  const random = randomId(ID_SITE_MAC.random);
  return `${P.workspace}${random}${idMac(secret, "workspace", random)}`;
}
export const newPublicToken = (siteId: string): string => `${P.token}${siteId}_${randomId(L.token)}`;
export const newAdminKey = (siteId: string): string => `${P.adminKey}${siteId}_${randomId(L.adminKey)}`;
export const newItemId = (): string => `${P.item}${randomId(L.item)}`;
export const newMediaId = (): string => `${P.media}${randomId(L.media)}`;
export const newCollectionId = (): string => `${P.collection}${randomId(L.collection)}`;
/** A share link's secret token (shown once; only its SHA-256 is stored) and its public id. */
export const newPreviewToken = (siteId: string): string => `${P.previewToken}${siteId}_${randomId(L.previewToken)}`;
export const newPreviewLinkId = (): string => `${P.previewLink}${randomId(L.previewLink)}`;
export const newRedirectId = (): string => `${P.redirect}${randomId(L.redirect)}`;

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A secret of `bytes` random bytes, in hex (webhook secrets, validation tokens). */
export const randomHex = (bytes: number): string => toHex(crypto.getRandomValues(new Uint8Array(bytes)));

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Equality that takes the same time wherever the strings differ. */
export function safeEqual(a: string, b: string): boolean {
  // Equal strings have equal lengths: a key of another length (a site admin key against the
  // operator token) is told apart without encoding either; the byte lengths below said as much.
  if (a.length !== b.length) return false;
  const ea = encoder.encode(a);
  const eb = encoder.encode(b);
  if (ea.byteLength !== eb.byteLength) return false;
  return crypto.subtle.timingSafeEqual(ea, eb);
}

/** A workspace API key (`ak_`) and invitation token (`iv_`): the workspace's random part, then random characters. */
const ofWorkspace = (workspaceId: string): string => workspaceId.slice(P.workspace.length);
export const newApiKey = (workspaceId: string): string => `${P.apiKey}${ofWorkspace(workspaceId)}_${randomId(L.apiKey)}`;
export const newInvitationToken = (workspaceId: string): string => `${P.invitation}${ofWorkspace(workspaceId)}_${randomId(L.invitation)}`;

/** The secret signing account tokens (and keying proxy keys); null when the deployment has not set one (16+ characters). */
export function authSecret(env: { AUTH_SECRET?: string }): string | null {
  return typeof env.AUTH_SECRET === "string" && env.AUTH_SECRET.length >= 16 ? env.AUTH_SECRET : null;
}
