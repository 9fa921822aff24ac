import { siteIdOfToken } from "../contract/ids";
import type { Plan } from "../contract/plans";
import { listUntouchedBetween, mergeChanges, searchVersionOf, untouchedBetween, type VersionChanges } from "../contract/cache-version";
import { mayBeIssued } from "./issued";
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
  /**
   * The version of `/search` and `/related` answers (src/contract/cache-version.ts): it follows
   * `version`, and moves alone when the search index changes. `searchPrevious` is to it what
   * `previous` is to `version`.
   */
  searchVersion: number;
  searchPrevious?: SiteMeta["previous"];
  /** What the site's recent versions changed, as the site object said (src/contract/cache-version.ts). */
  changes?: VersionChanges;
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
// One call per site in flight per isolate: concurrent reads after the TTL share it.
const pending = new Map<string, Promise<Facts>>();

/** What the site object says of itself (Site.publicFacts): its public token and meta; null when no site exists there. */
type Facts = { token: string; meta: SiteMeta } | null;

/**
 * A site's plan and cache version as this isolate last saw them. Reads trust
 * the memo for SITE_META_TTL_MS, so a cached read costs no Durable Object
 * round trip; dashboard writes through this isolate update it at once.
 *
 * The memo holds the site's real public token, so a wrong token of a real site is refused from
 * it: a loop of made-up tokens costs the site object one call per memo lifetime per isolate
 * (the call that renews the memo, shared by every request waiting), never one per request.
 */
export async function siteMeta(env: Env, token: string, ctx?: ExecutionContext): Promise<SiteMeta | null> {
  const siteId = siteIdOfToken(token);
  if (!siteId) return null;
  const hit = memo.get(siteId);
  if (hit && hit.expires > Date.now()) {
    if (!hit.meta || hit.token !== token) return null;
    if (ctx) renewAhead(env, ctx, siteId);
    return hit.meta;
  }
  // A token for a site id nobody was issued costs no object.
  if (!(await mayBeIssued(env, siteId))) return null;
  const facts = await shared(env, siteId);
  return facts && facts.token === token ? facts.meta : null;
}

/**
 * What the memo says of `token` right now, without any call: "real" (its site's current
 * token), "wrong" (another token is the site's, or no site exists there), or null when the memo
 * does not know (expired or never asked); then the caller asks `siteMeta`.
 */
export function knownToken(token: string, siteId: string | null = siteIdOfToken(token)): "real" | "wrong" | null {
  if (siteId === null) return "wrong";
  const hit = memo.get(siteId);
  if (!hit || hit.expires <= Date.now()) return null;
  return hit.meta && hit.token === token ? "real" : "wrong";
}

/**
 * The memo's answer for `token` if it is current and says the token is real; otherwise the caller
 * asks `siteMeta`. `siteId`: the token's site, when the caller knows it already (a parsed read).
 */
export function knownSiteMeta(token: string, siteId: string | null = siteIdOfToken(token)): SiteMeta | null {
  const hit = siteId === null ? undefined : memo.get(siteId);
  return hit && hit.meta && hit.token === token && hit.expires > Date.now() ? hit.meta : null;
}

/** How close to its expiry (a share of the TTL) a site's memo is renewed ahead by the reads that use it. */
const RENEW_AHEAD = 0.25;

/**
 * Called by a read answered from the memo: when the memo expires within the last quarter of its
 * TTL, one call per site renews it in the background (kept alive by this request's waitUntil),
 * so under steady traffic the memo is renewed before it expires and no read waits for the site
 * object, which after a change is busy with the new version's reads. The memo is then fresher,
 * never older: the freshness bounds are unchanged.
 */
export function renewAhead(env: Env, ctx: ExecutionContext, siteId: string | null): void {
  const hit = siteId === null ? undefined : memo.get(siteId);
  if (!hit?.meta || pending.has(siteId!)) return;
  const ttlMs = ttl(env);
  if (hit.expires - Date.now() > ttlMs * RENEW_AHEAD) return;
  ctx.waitUntil(shared(env, siteId!).catch(() => null));
}

/** The memo for a site reached by custom hostname: same entry, no token to check. */
export async function siteMetaById(env: Env, siteId: string): Promise<SiteMeta | null> {
  const hit = memo.get(siteId);
  if (hit && hit.expires > Date.now() && hit.meta) return hit.meta;
  return (await shared(env, siteId))?.meta ?? null;
}

/** One call per site in flight per isolate: every request that finds the memo expired waits for it. */
function shared(env: Env, siteId: string): Promise<Facts> {
  const waiting = pending.get(siteId);
  if (waiting) {
    // Another request's call; if its request went away and it never settles, call again.
    const timedOut = scheduler.wait(WAIT_MS).then(() => TIMED_OUT);
    return Promise.race([waiting, timedOut]).then((facts): Promise<Facts> | Facts => {
      if (facts !== TIMED_OUT) return facts as Facts;
      if (pending.get(siteId) === waiting) pending.delete(siteId);
      return shared(env, siteId);
    });
  }
  const started = Date.now();
  const p = siteStub(env, siteId)
    .publicFacts()
    .then((facts: Facts) => {
      // Whichever token asked, the memo learns the site's own: a wrong token spoils nothing.
      const meta = learn(siteId, facts?.token ?? "", facts?.meta ?? null, started, ttl(env));
      return facts && meta ? { token: facts.token, meta } : null;
    })
    .finally(() => pending.get(siteId) === p && pending.delete(siteId));
  pending.set(siteId, p);
  return p;
}

/** Stores what one call said, keeping the version it replaced as the one that may be served stale. */
function learn(siteId: string, token: string, fresh: SiteMeta | null, started: number, ttlMs: number): SiteMeta | null {
  const old = memo.get(siteId);
  let meta = fresh;
  if (fresh && old?.meta && old.token === token) {
    const until = old.confirmedAt + STALE_MS;
    meta = {
      ...fresh,
      previous: successor(old.meta.version, old.meta.previous, fresh.version, until),
      searchPrevious: successor(old.meta.searchVersion, old.meta.searchPrevious, fresh.searchVersion, until),
    };
  }
  remember(siteId, { token, meta, expires: Date.now() + ttlMs, confirmedAt: started });
  return meta;
}

/** What may be served stale once `fresh` is current: the old version if it moved, else what already was. */
function successor(old: number, oldPrevious: SiteMeta["previous"], fresh: number, until: number): SiteMeta["previous"] {
  if (fresh > old) return { version: old, until, first: true };
  return fresh === old ? oldPrevious : undefined;
}

/**
 * Whether this isolate knows that every version of the site after `from`, up to `to` (not past
 * the memo's own), changed other items than `item` and nothing else: an answer that depends on
 * `item` alone is then the same at `to` as at `from` (src/edge/cache.ts, `carried`).
 */
export function untouched(siteId: string, from: number, to: number, item: string): boolean {
  const meta = memo.get(siteId)?.meta;
  return !!meta && to <= meta.version && untouchedBetween(meta.changes, from, to, item);
}

/**
 * Whether this isolate knows that every version of the site after `from`, up to `to`, was edits of
 * items a list answer does not show (`shows`), changing none of the keys it depends on
 * (`dependsOn`): the list is then the same at `to` as at `from` (src/edge/cache.ts, `carried`).
 */
export function listUntouched(
  siteId: string,
  from: number,
  to: number,
  dependsOn: readonly string[],
  shows: (item: string) => boolean,
): boolean {
  const meta = memo.get(siteId)?.meta;
  return !!meta && to <= meta.version && listUntouchedBetween(meta.changes, from, to, dependsOn, shows);
}

/**
 * Called after a dashboard write returns the site's new cache version, and what the recent versions
 * changed: given as a function, worked out only when this isolate remembers the site (a write from
 * an isolate that served none of its public reads has nothing to carry).
 */
export function noteVersion(siteId: string, version: number, changes?: () => VersionChanges): void {
  const hit = memo.get(siteId);
  if (hit?.meta && changes) {
    hit.meta = { ...hit.meta, changes: mergeChanges(hit.meta.changes, changes()) };
    remember(siteId, hit);
  }
  if (hit?.meta && hit.meta.version < version) {
    // The old version was current until this write, which has just returned.
    const now = Date.now();
    // A content change starts the search answers' generation again (src/contract/cache-version.ts).
    hit.meta = {
      ...hit.meta,
      version,
      previous: { version: hit.meta.version, until: now + STALE_MS, first: false },
      searchVersion: searchVersionOf(version),
      searchPrevious: { version: hit.meta.searchVersion, until: now + STALE_MS, first: false },
    };
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
    stringBytes(siteId) +
      stringBytes(entry.token) +
      (entry.meta ? stringBytes(entry.meta.siteId) + changesBytes(entry.meta.changes) : 0) +
      4 * ENTRY_OVERHEAD,
  );
}

/** What a site's list of recent changes keeps alive (at most CHANGES_KEPT versions of CHANGED_ITEMS_MAX ids). */
function changesBytes(changes: VersionChanges | undefined): number {
  let n = 0;
  for (const c of changes ?? []) {
    n += 2 * ENTRY_OVERHEAD;
    for (const id of c.items ?? []) n += stringBytes(id);
  }
  return n;
}

function ttl(env: Env): number {
  const n = Number(env.SITE_META_TTL_MS);
  return Number.isFinite(n) && n >= 0 ? n : 1000;
}
