/**
 * Identifiers and credentials. A site's public token and admin key both carry
 * the site id, so the stateless front Worker can route them to the site's
 * Durable Object without a global lookup; the object then checks the secret part.
 */

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

export function randomId(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}

const SITE_ID = /^[a-z2-7]{16}$/;
const WORKSPACE_ID = /^ws_[a-z2-7]{16}$/;
const TOKEN = /^pk_([a-z2-7]{16})_[a-z2-7]{24}$/;
const ADMIN_KEY = /^sk_([a-z2-7]{16})_[a-z2-7]{40}$/;

/**
 * A new site id: 10 random characters and 6 that are a MAC of them under SITE_ID_SECRET, in the
 * same 16-character alphabet as every id before, so clients' patterns still hold. The front
 * Worker recognises an id it issued without asking any object (src/sites/issued.ts).
 */
export async function newSiteId(secret: string): Promise<string> {
  const random = randomId(SITE_ID_RANDOM);
  return `${random}${await siteIdMac(secret, random)}`;
}

export const SITE_ID_RANDOM = 10;

/** 30 bits of HMAC-SHA-256 over the random part, as 6 characters of the id alphabet. */
export async function siteIdMac(secret: string, random: string): Promise<string> {
  const key = await macKey(secret);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`site:${random}`)));
  let bits = ((mac[0]! << 24) | (mac[1]! << 16) | (mac[2]! << 8) | mac[3]!) >>> 2;
  let out = "";
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[bits & 31] + out;
    bits >>>= 5;
  }
  return out;
}

const keys = new Map<string, Promise<CryptoKey>>();
function macKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}
export const newWorkspaceId = (): string => `ws_${randomId(16)}`;
export const newPublicToken = (siteId: string): string => `pk_${siteId}_${randomId(24)}`;
export const newAdminKey = (siteId: string): string => `sk_${siteId}_${randomId(40)}`;
export const newItemId = (): string => `it_${randomId(20)}`;
export const newMediaId = (): string => `md_${randomId(20)}`;
export const newCollectionId = (): string => `co_${randomId(16)}`;

export const isSiteId = (s: string): boolean => SITE_ID.test(s);
export const isWorkspaceId = (s: string): boolean => WORKSPACE_ID.test(s);

/** The site a public token names, or null when it is not a token at all. */
export function siteIdOfToken(token: string): string | null {
  return TOKEN.exec(token)?.[1] ?? null;
}

/** The site an admin key names, or null when it is not an admin key at all. */
export function siteIdOfAdminKey(key: string): string | null {
  return ADMIN_KEY.exec(key)?.[1] ?? null;
}

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A secret of `bytes` random bytes, in hex (webhook secrets, validation tokens). */
export const randomHex = (bytes: number): string => toHex(crypto.getRandomValues(new Uint8Array(bytes)));

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Equality that takes the same time wherever the strings differ. */
export function safeEqual(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  if (ea.byteLength !== eb.byteLength) return false;
  return crypto.subtle.timingSafeEqual(ea, eb);
}
