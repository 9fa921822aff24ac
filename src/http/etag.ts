/**
 * A strong ETag from the exact bytes of an answer: the first 16 bytes of their SHA-256, in hex.
 * The front Worker's edge cache and the site object make it the same way, so an answer the site
 * object built again for a new version can be told "unchanged" from the copy the front Worker holds.
 */
export async function bodyEtag(data: ArrayBuffer | Uint8Array | string): Promise<string> {
  return `"${await sha256Hex32(typeof data === "string" ? new TextEncoder().encode(data) : data)}"`;
}

/** The first 16 bytes of the SHA-256 of `data`, in hex. */
export async function sha256Hex32(data: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  let out = "";
  for (let i = 0; i < 16; i++) out += (digest[i] as number).toString(16).padStart(2, "0");
  return out;
}
