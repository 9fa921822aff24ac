/**
 * Whether a site id named by a request is one this service issued, decided in the front Worker
 * without touching any Durable Object: a request naming an id (or a token, admin key or session
 * that carries one) nobody was given must not create a Site object, nor its storage.
 *
 * Ids issued since SITE_ID_SECRET exists carry a MAC (src/ids.ts). Ids from before it do not;
 * LEGACY_SITE_IDS says what to do with those:
 *  - "check" (the default, for deployments with such sites): the request goes to the site's
 *    object, which writes nothing unless a site was really created there (actors/site.ts);
 *  - "refuse": a deployment without such sites refuses them here, so a random id costs no object.
 */
import { ID_SITE_MAC, isSiteId } from "../contract/ids";
import { safeEqual, siteIdMac } from "../ids";
import { siteStub } from "../stubs";

export type LegacyIds = "check" | "refuse";

export function legacyMode(env: Env): LegacyIds {
  return (env as { LEGACY_SITE_IDS?: string }).LEGACY_SITE_IDS === "refuse" ? "refuse" : "check";
}

export function siteIdSecret(env: Env): string | null {
  const secret = (env as { SITE_ID_SECRET?: string }).SITE_ID_SECRET;
  return typeof secret === "string" && secret.length >= 16 ? secret : null;
}

// Ids seen to carry a valid MAC, per isolate (bounded): a busy site's reads pay for one HMAC.
const valid = new Set<string>();

/** Whether `siteId` carries the MAC of this deployment's secret. */
export async function carriesMac(env: Env, siteId: string): Promise<boolean> {
  if (!isSiteId(siteId)) return false;
  if (valid.has(siteId)) return true;
  const secret = siteIdSecret(env);
  if (!secret) return false;
  const ok = safeEqual(siteId.slice(ID_SITE_MAC.random), await siteIdMac(secret, siteId.slice(0, ID_SITE_MAC.random)));
  if (ok) {
    if (valid.size >= 10_000) valid.clear();
    valid.add(siteId);
  }
  return ok;
}

/** Whether a request naming `siteId` may reach the site's object at all. */
export async function mayBeIssued(env: Env, siteId: string): Promise<boolean> {
  if (!isSiteId(siteId)) return false;
  if (await carriesMac(env, siteId)) return true;
  return legacyMode(env) === "check";
}

/**
 * Whether a site really exists there, for a caller about to store something about it (a
 * sign-in attempt): an id without the MAC is asked of its object, which writes nothing to answer.
 */
export async function siteExists(env: Env, siteId: string): Promise<boolean> {
  if (!isSiteId(siteId)) return false;
  if (await carriesMac(env, siteId)) return true;
  return legacyMode(env) === "check" && (await siteStub(env, siteId).exists());
}
