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
import { ID_PREFIX, ID_SITE_MAC, isSiteId, isWorkspaceId } from "../contract/ids";
import { idMacMatches } from "../ids";
import { siteStub } from "../stubs";
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../shared/bounded-map";

/** A site id's length at most (ids are checked by `isSiteId` before they are remembered). */
const ID_LENGTH_BOUND = 32;

export type LegacyIds = "check" | "refuse";

export function legacyMode(env: Env): LegacyIds {
  return (env as { LEGACY_SITE_IDS?: string }).LEGACY_SITE_IDS === "refuse" ? "refuse" : "check";
}

export function siteIdSecret(env: Env): string | null {
  const secret = (env as { SITE_ID_SECRET?: string }).SITE_ID_SECRET;
  return typeof secret === "string" && secret.length >= 16 ? secret : null;
}

// The MAC's verdict per id, per isolate (bounded; the oldest goes first): a busy site's reads pay
// for one HMAC, and an attacker repeating an id it made up pays for none after the first.
// (BoundedMap: a plain Map evicting through a new iterator each time walked the holes its own
// evictions left, ~100 µs a refusal once a loop of made-up ids had filled it.)
const MAX_VERDICTS = 10_000;
const verdicts = new BoundedMap<string, boolean>(MAX_VERDICTS, MAX_VERDICTS * (2 * ID_LENGTH_BOUND + ENTRY_OVERHEAD));

function remember(siteId: string, ok: boolean): boolean {
  verdicts.set(siteId, ok, stringBytes(siteId) + ENTRY_OVERHEAD);
  return ok;
}

/** Whether `siteId` carries the MAC of this deployment's secret (synchronous: one short HMAC at most). */
export function macValid(env: Env, siteId: string): boolean {
  if (!isSiteId(siteId)) return false;
  const known = verdicts.get(siteId);
  if (known !== undefined) return known;
  const secret = siteIdSecret(env);
  if (!secret) return false;
  return remember(siteId, idMacMatches(secret, "site", siteId.slice(0, ID_SITE_MAC.random), siteId.slice(ID_SITE_MAC.random)));
}

/** Whether `siteId` carries the MAC of this deployment's secret. */
export async function carriesMac(env: Env, siteId: string): Promise<boolean> {
  return macValid(env, siteId);
}

/** `mayBeIssued`, synchronously, for the front Worker's refusals (src/routing/refusals.ts). */
export function issuedNow(env: Env, siteId: string): boolean {
  return macValid(env, siteId) || (isSiteId(siteId) && legacyMode(env) === "check");
}

/** How many verdicts this isolate holds (for the no-growth tests). */
export function verdictCount(): number {
  return verdicts.size;
}

/** Whether a request naming `siteId` may reach the site's object at all. */
export async function mayBeIssued(env: Env, siteId: string): Promise<boolean> {
  if (!isSiteId(siteId)) return false;
  return issuedNow(env, siteId);
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

/**
 * Whether a request naming workspace `workspaceId` (in a path, an API key `ak_…` or an invitation
 * `iv_…`) may reach the workspace's object: workerd makes an object's file on its first call, so
 * a made-up id is refused here. Ids from before the MAC follow LEGACY_WORKSPACE_IDS as site ids
 * follow LEGACY_SITE_IDS ("check": let the object answer; "refuse").
 */
export function workspaceMayBeIssued(env: Env, workspaceId: string): boolean {
  if (!isWorkspaceId(workspaceId)) return false;
  const secret = siteIdSecret(env);
  const body = workspaceId.slice(ID_PREFIX.workspace.length);
  if (secret && idMacMatches(secret, "workspace", body.slice(0, ID_SITE_MAC.random), body.slice(ID_SITE_MAC.random))) return true;
  return (env as { LEGACY_WORKSPACE_IDS?: string }).LEGACY_WORKSPACE_IDS !== "refuse";
}
