/**
 * The site builder's "Site Publish" webhook, `POST /hooks/ssr/:siteId`: every call is signed
 * over a timestamp (±5 minutes) and carries a delivery id accepted once.
 *  - Standard Webhooks: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`
 *    (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, space-separated list), keyed by
 *    the site's webhook secret (`whsec_…`, rotated from the dashboard).
 *  - Webflow: `x-webflow-timestamp` (ms) + `x-webflow-signature` = hex HMAC-SHA256 of
 *    `${timestamp}:${body}`, keyed by the signing secret the owner gave us; the signature is the id.
 * Hooks made before the secret left the URL (`/hooks/ssr/:siteId/:secret`) keep working until a
 * rotation, as before: the URL secret, plus a signature when the owner configured one
 * (`x-hub-signature-256: sha256=<hex HMAC of body>` too).
 */
import { safeEqual, toHex } from "../../../src/ids";

export const MAX_SKEW_MS = 5 * 60 * 1000;

/** A signed delivery: who signed it and the id it may be accepted under once. */
export type SignedDelivery = { ok: true; scheme: "standard" | "webflow"; id: string } | { ok: false; reason: string };

/** Checks a delivery to the signed URL form; nothing unsigned is accepted there. */
export async function verifyDelivery(
  headers: Headers,
  body: string,
  secret: string,
  webflowSecret: string | undefined,
  now = Date.now(),
): Promise<SignedDelivery> {
  const id = headers.get("webhook-id");
  const ts = headers.get("webhook-timestamp");
  const sigs = headers.get("webhook-signature");
  if (id !== null || ts !== null || sigs !== null) {
    if (!id || !ts || !sigs || id.length > 200)
      return { ok: false, reason: "webhook-id, webhook-timestamp and webhook-signature are all required" };
    const t = Number(ts);
    if (!/^\d{1,12}$/.test(ts) || Math.abs(now - t * 1000) > MAX_SKEW_MS)
      return { ok: false, reason: "webhook-timestamp is more than 5 minutes away" };
    const expected = await hmacBase64(secret, `${id}.${ts}.${body}`);
    const match = sigs.split(" ").some((s) => s.startsWith("v1,") && safeEqual(s.slice(3), expected));
    return match
      ? { ok: true, scheme: "standard", id: `std:${id}` }
      : { ok: false, reason: "webhook-signature does not match the webhook secret" };
  }
  const webflow = headers.get("x-webflow-signature");
  if (webflow !== null && webflowSecret) {
    const wts = headers.get("x-webflow-timestamp") ?? "";
    const t = Number(wts);
    if (!/^\d{1,15}$/.test(wts) || Math.abs(now - t) > MAX_SKEW_MS)
      return { ok: false, reason: "x-webflow-timestamp is more than 5 minutes away" };
    const sig = webflow.trim().toLowerCase();
    return safeEqual(await hmacHex(webflowSecret, `${wts}:${body}`), sig)
      ? { ok: true, scheme: "webflow", id: `webflow:${sig}` }
      : { ok: false, reason: "x-webflow-signature does not match the signing secret" };
  }
  return { ok: false, reason: "the call is not signed (Standard Webhooks headers, or Webflow's with a signing secret)" };
}

async function hmacBase64(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message)));
  return btoa(String.fromCharCode(...mac));
}

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
