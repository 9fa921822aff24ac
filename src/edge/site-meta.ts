import { siteIdOfToken } from "../contract/ids";
import type { Plan } from "../contract/plans";
import { mayBeIssued } from "../sites/issued";
import { siteStub } from "../stubs";
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../shared/bounded-map";

export interface SiteMeta {
  siteId: string;
  plan: Plan;
  version: number;
  /**
   * The version before `version`, while its answers may still be served stale
   * (until `until`, ms since the epoch): see STALE_MS. `first`: even a request with
   * no read of the new version to wait for may be answered from it (the change was
   * made elsewhere); after a dashboard write through this isolate only requests that
   * arrive while the new version is being read may, so the writer reads its write.
   */
  previous?: { version: number; until: number; first: boolean };
}

interface Entry {
  token: string;
  meta: SiteMeta | null;
  expires: number;
  /** When `meta.version` was last known to be current (the start of the call that said so). */
  confirmedAt: number;
}

/**
 * How long after the previous version was last known current its answers may
 * still be served while the new version is fetched. The contract is "a change
 * is visible within 2 s of the dashboard call returning": the change returned
 * after that moment, so 1.5 s keeps half a second of margin (Date.now() in a
 * Worker only advances with I/O).
 */
export const STALE_MS = 1500;

const MAX_ENTRIES = 10_000;
const MAX_BYTES = 4 * 1024 * 1024;
/** How long a request waits for another request's call of the same site before it calls itself. */
const WAIT_MS = 10_000;
const TIMED_OUT = Symbol("timed out");
const memo = new BoundedMap<string, Entry>(MAX_ENTRIES, MAX_BYTES);
// One call per site (and token) in flight per isolate: concurrent reads after the TTL share it.
const pending = new Map<string, Promise<SiteMeta | null>>();

/**
 * A site's plan and cache version as this isolate last saw them. Reads trust
 * the memo for SITE_META_TTL_MS, so a cached read costs no Durable Object
 * round trip; dashboard writes through this isolate update it at once.
 */
export async function siteMeta(env: Env, token: string): Promise<SiteMeta | null> {
  const siteId = siteIdOfToken(token);
  if (!siteId) return null;
  const hit = memo.get(siteId);
  if (hit && hit.token === token && hit.expires > Date.now()) return hit.meta;
  // A token for a site id nobody was issued costs no object.
  if (!(await mayBeIssued(env, siteId))) return null;
  return shared(`${siteId}\u0000${token}`, env, siteId, token, () => siteStub(env, siteId).meta(token));
}

/** The memo's answer for `token` if it is current and says the token is real; otherwise the caller asks `siteMeta`. */
export function knownSiteMeta(token: string): SiteMeta | null {
  const siteId = siteIdOfToken(token);
  const hit = siteId === null ? undefined : memo.get(siteId);
  return hit && hit.meta && hit.token === token && hit.expires > Date.now() ? hit.meta : null;
}

/** The memo for a site reached by custom hostname: same entry, no token to check. */
export async function siteMetaById(env: Env, siteId: string): Promise<SiteMeta | null> {
  const hit = memo.get(siteId);
  if (hit && hit.expires > Date.now() && hit.meta) return hit.meta;
  return shared(`${siteId}\u0000#host`, env, siteId, null, () => siteStub(env, siteId).metaForHost());
}

function shared(
  key: string,
  env: Env,
  siteId: string,
  token: string | null,
  read: () => Promise<SiteMeta | null>,
): Promise<SiteMeta | null> {
  const waiting = pending.get(key);
  if (waiting) {
    // Another request's call; if its request went away and it never settles, call again.
    const timedOut = scheduler.wait(WAIT_MS).then(() => TIMED_OUT);
    return Promise.race([waiting, timedOut]).then((meta): Promise<SiteMeta | null> | SiteMeta | null => {
      if (meta !== TIMED_OUT) return meta as SiteMeta | null;
      if (pending.get(key) === waiting) pending.delete(key);
      return shared(key, env, siteId, token, read);
    });
  }
  const started = Date.now();
  const p = read()
    .then((meta) => {
      // A wrong token learns nothing and spoils nothing: the site's entry for its real token stays
      // (an unknown site is remembered as unknown, for this token only). By hostname only a real site is kept.
      const known = memo.get(siteId);
      if (meta === null && (token === null || (known?.meta && known.token !== token))) return null;
      return learn(siteId, token ?? known?.token ?? "", meta, started, ttl(env));
    })
    .finally(() => pending.get(key) === p && pending.delete(key));
  pending.set(key, p);
  return p;
}

/** Stores what one call said, keeping the version it replaced as the one that may be served stale. */
function learn(siteId: string, token: string, fresh: SiteMeta | null, started: number, ttlMs: number): SiteMeta | null {
  const old = memo.get(siteId);
  let meta = fresh;
  if (fresh && old?.meta && old.token === token) {
    if (fresh.version > old.meta.version)
      meta = { ...fresh, previous: { version: old.meta.version, until: old.confirmedAt + STALE_MS, first: true } };
    else if (fresh.version === old.meta.version && old.meta.previous) meta = { ...fresh, previous: old.meta.previous };
  }
  remember(siteId, { token, meta, expires: Date.now() + ttlMs, confirmedAt: started });
  return meta;
}

/** Called after a dashboard write returns the site's new cache version. */
export function noteVersion(siteId: string, version: number): void {
  const hit = memo.get(siteId);
  if (hit?.meta && hit.meta.version < version) {
    // The old version was current until this write, which has just returned.
    const now = Date.now();
    hit.meta = { ...hit.meta, version, previous: { version: hit.meta.version, until: now + STALE_MS, first: false } };
    hit.confirmedAt = now;
  }
}

/** A plan change reaches many sites; this isolate simply forgets them all. */
export function forgetAllSites(): void {
  memo.clear();
}

/** How many sites this isolate remembers and how many calls are in flight (for the no-growth tests). */
export function siteMetaSizes(): { sites: number; pending: number } {
  return { sites: memo.size, pending: pending.size };
}

/** What this isolate remembers of a site: the token it was confirmed for and what it said (for the tests). */
export function siteMetaEntry(siteId: string): { token: string; meta: SiteMeta | null } | null {
  const e = memo.get(siteId);
  return e ? { token: e.token, meta: e.meta } : null;
}

function remember(siteId: string, entry: Entry): void {
  // The site id, the token, and the entry's objects (two SiteMeta at most, with their plan and versions).
  memo.set(
    siteId,
    entry,
    stringBytes(siteId) + stringBytes(entry.token) + (entry.meta ? stringBytes(entry.meta.siteId) : 0) + 4 * ENTRY_OVERHEAD,
  );
}

function ttl(env: Env): number {
  const n = Number(env.SITE_META_TTL_MS);
  return Number.isFinite(n) && n >= 0 ? n : 1000;
}
