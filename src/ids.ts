/**
 * New identifiers and credentials, and the hashing and comparison of secrets. Their
 * formats (and the parsers the front Worker routes by) are the contract's: src/contract/ids.ts.
 */
import { ID_ALPHABET as ALPHABET, ID_LENGTH as L, ID_PREFIX as P } from "./contract/ids";

export function randomId(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}

export const newSiteId = (): string => randomId(L.site);
export const newWorkspaceId = (): string => `${P.workspace}${randomId(L.workspace)}`;
export const newPublicToken = (siteId: string): string => `${P.token}${siteId}_${randomId(L.token)}`;
export const newAdminKey = (siteId: string): string => `${P.adminKey}${siteId}_${randomId(L.adminKey)}`;
export const newItemId = (): string => `${P.item}${randomId(L.item)}`;
export const newMediaId = (): string => `${P.media}${randomId(L.media)}`;
export const newCollectionId = (): string => `${P.collection}${randomId(L.collection)}`;

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
