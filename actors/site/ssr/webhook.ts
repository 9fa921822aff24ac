/**
 * The site builder's "Site Publish" webhook. The URL carries an unguessable
 * secret; when the builder also signs its calls and the site owner gave us
 * the signing secret, the signature must match too.
 *  - Webflow: `x-webflow-timestamp` + `x-webflow-signature` = hex HMAC-SHA256 of `${timestamp}:${body}`.
 *  - Generic: `x-hub-signature-256: sha256=<hex HMAC-SHA256 of body>`.
 */
import { safeEqual, toHex } from "../../../src/ids";

const MAX_SKEW_MS = 5 * 60 * 1000;

export type SignatureCheck = "valid" | "invalid" | "unsigned";

export async function checkSignature(
  headers: Headers,
  body: string,
  secret: string | undefined,
  now = Date.now(),
): Promise<SignatureCheck> {
  const webflow = headers.get("x-webflow-signature");
  const hub = headers.get("x-hub-signature-256");
  if (!webflow && !hub) return secret ? "invalid" : "unsigned";
  // Signed, but the owner never gave us the secret: the URL secret alone decides.
  if (!secret) return "unsigned";
  if (webflow) {
    const ts = headers.get("x-webflow-timestamp") ?? "";
    const t = Number(ts);
    if (!Number.isFinite(t) || Math.abs(now - t) > MAX_SKEW_MS) return "invalid";
    return safeEqual(await hmacHex(secret, `${ts}:${body}`), webflow.trim().toLowerCase()) ? "valid" : "invalid";
  }
  const given = /^sha256=([0-9a-f]{64})$/i.exec(hub!.trim())?.[1]?.toLowerCase() ?? "";
  return safeEqual(await hmacHex(secret, body), given) ? "valid" : "invalid";
}

export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return toHex(mac);
}

/** Builders post other events to the same URL; only a publish (or an unlabelled call) refreshes. */
export function isPublishEvent(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { triggerType?: unknown; event?: unknown; type?: unknown };
    const label = parsed.triggerType ?? parsed.event ?? parsed.type;
    return typeof label !== "string" || /site[_ ]?publish/i.test(label);
  } catch {
    return true;
  }
}
