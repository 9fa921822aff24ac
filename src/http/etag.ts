/**
 * A strong ETag from the exact bytes of an answer: the first 16 bytes of their SHA-256, in hex.
 * The front Worker's edge cache and the site object make it the same way, so an answer the site
 * object built again for a new version can be told "unchanged" from the copy the front Worker holds.
 *
 * Hashed with node:crypto (nodejs_compat): native and synchronous, a string hashed as UTF-8 with no
 * encoded copy made first. Every miss of a list or an item hashes its answer once (the site object's
 * memo), and WebCrypto's digest costs a promise round and a copy of the text on top of the hash.
 */
import { createHash } from "node:crypto";

export async function bodyEtag(data: ArrayBuffer | Uint8Array | string): Promise<string> {
  return `"${hex32(data)}"`;
}

/** The first 16 bytes of the SHA-256 of `data`, in hex. */
export async function sha256Hex32(data: ArrayBuffer | Uint8Array): Promise<string> {
  return hex32(data);
}

function hex32(data: ArrayBuffer | Uint8Array | string): string {
  const hash = createHash("sha256");
  if (typeof data === "string") hash.update(data, "utf8");
  else hash.update(data instanceof Uint8Array ? data : new Uint8Array(data));
  return hash.digest("hex").slice(0, 32);
}
