/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,` and the base64 of
 * HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the secret's raw
 * bytes (the `standardwebhooks` library base64-decodes `whsec_…` the same way).
 */

/** A new signing key: 32 random bytes, stored as base64. */
export function newSecret(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** How the owner sees a secret, once: the form receivers' libraries take. */
export const shownSecret = (stored: string): string => `whsec_${stored}`;

export async function signature(secretBase64: string, id: string, timestamp: number, body: string): Promise<string> {
  const raw = Uint8Array.from(atob(secretBase64), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The `webhook-*` headers of one attempt; during a rotation's overlap, a signature with each secret. */
export async function signedHeaders(secrets: readonly string[], id: string, body: string, now: number): Promise<Record<string, string>> {
  const timestamp = Math.floor(now / 1000);
  const signatures = await Promise.all(secrets.map((s) => signature(s, id, timestamp, body)));
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.join(" ") };
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}
