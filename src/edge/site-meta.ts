import { siteIdOfToken } from "../ids";
import type { Plan } from "../plans";
import { siteStub } from "../stubs";

export interface SiteMeta {
  siteId: string;
  plan: Plan;
  version: number;
}

interface Entry {
  token: string;
  meta: SiteMeta | null;
  expires: number;
}

const MAX_ENTRIES = 10_000;
const memo = new Map<string, Entry>();

/**
 * A site's plan and cache version as this isolate last saw them. Reads trust
 * the memo for SITE_META_TTL_MS, so a cached read costs no Durable Object
 * round trip; dashboard writes through this isolate update it at once.
 */
export async function siteMeta(env: Env, token: string): Promise<SiteMeta | null> {
  const siteId = siteIdOfToken(token);
  if (!siteId) return null;
  const now = Date.now();
  const hit = memo.get(siteId);
  if (hit && hit.token === token && hit.expires > now) return hit.meta;
  const meta = await siteStub(env, siteId).meta(token);
  remember(siteId, { token, meta, expires: now + ttl(env) });
  return meta;
}

/** The memo for a site reached by custom hostname: same entry, no token to check. */
export async function siteMetaById(env: Env, siteId: string): Promise<SiteMeta | null> {
  const now = Date.now();
  const hit = memo.get(siteId);
  if (hit && hit.expires > now && hit.meta) return hit.meta;
  const meta = await siteStub(env, siteId).metaForHost();
  if (meta) remember(siteId, { token: hit?.token ?? "", meta, expires: now + ttl(env) });
  return meta;
}

/** Called after a dashboard write returns the site's new cache version. */
export function noteVersion(siteId: string, version: number): void {
  const hit = memo.get(siteId);
  if (hit?.meta && hit.meta.version < version) hit.meta = { ...hit.meta, version };
}

/** A plan change reaches many sites; this isolate simply forgets them all. */
export function forgetAllSites(): void {
  memo.clear();
}

function remember(siteId: string, entry: Entry): void {
  memo.delete(siteId);
  if (memo.size >= MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
  memo.set(siteId, entry);
}

function ttl(env: Env): number {
  const n = Number(env.SITE_META_TTL_MS);
  return Number.isFinite(n) && n >= 0 ? n : 1000;
}
