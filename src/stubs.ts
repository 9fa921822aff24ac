import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "./shared/bounded-map";

/** Where each object lives: one Site per site id, one Workspace per workspace id, one Hostname per hostname. */
export const siteStub = (env: Env, siteId: string) => env.SITE.get(siteObjectId(env.SITE, siteId));

// A site's object id, worked out once per isolate: `idFromName` hashes the name, and every miss of a
// public read asks for its site's object, so the hash would be part of every miss. Ids are values, not I/O
// objects, so they outlive the request that made them; stubs are made per request. Bounded like
// every per-isolate memo (docs/caching.md, "Memory"); the id object is counted at 64 bytes.
const MAX_SITE_IDS = 10_000;
let siteIds: { namespace: Env["SITE"]; ids: BoundedMap<string, DurableObjectId> } | null = null;
function siteObjectId(namespace: Env["SITE"], siteId: string): DurableObjectId {
  if (siteIds?.namespace !== namespace) siteIds = { namespace, ids: new BoundedMap(MAX_SITE_IDS, 2 * 1024 * 1024) };
  let id = siteIds.ids.get(siteId);
  if (id === undefined) {
    id = namespace.idFromName(siteId);
    siteIds.ids.set(siteId, id, stringBytes(siteId) + 64 + ENTRY_OVERHEAD);
  }
  return id;
}
export const workspaceStub = (env: Env, workspaceId: string) => env.WORKSPACE.get(env.WORKSPACE.idFromName(workspaceId));
export const hostnameStub = (env: Env, hostname: string) => env.HOSTNAME.get(env.HOSTNAME.idFromName(hostname));
/** The operator's dashboard sessions live in one object. */
export const operatorSessionsStub = (env: Env) => env.OPERATOR_SESSIONS.get(env.OPERATOR_SESSIONS.idFromName("operator"));
/** Wrong sign-in keys are counted per client address. */
export const signInThrottleStub = (env: Env, client: string) => env.SIGN_IN_THROTTLE.get(env.SIGN_IN_THROTTLE.idFromName(client));
/** One object per person, named by the account id derived from their normalised email (src/identity/email.ts). */
export const accountStub = (env: Env, accountId: string) => env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
