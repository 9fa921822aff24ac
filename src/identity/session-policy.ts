/**
 * Dashboard sessions: how long they live and how their ids look. A session ends
 * after 12 hours without a request (idle) or 7 days after sign-in (absolute),
 * whichever comes first; sign-out and a key rotation end it at once.
 */
import { randomId } from "../ids";
import { accountOfSession } from "./tokens";

/** A live session's times, as its owner and the dashboard see them. */
export interface SessionInfo {
  createdAt: string;
  /** When the session ends if it is not used before (idle), never later than its absolute end. */
  expiresAt: string;
}

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
// Writing last_seen on every request would turn every dashboard read into a write.
export const SESSION_TOUCH_MS = 60 * 1000;

const SITE_SESSION = /^ss_([a-z2-7]{16})_[a-z2-7]{40}$/;
const OPERATOR_SESSION = /^so_[a-z2-7]{40}$/;

/** A site owner's session id carries the site id, so the front Worker can route it like an admin key. */
export const newSiteSessionId = (siteId: string): string => `ss_${siteId}_${randomId(40)}`;
export const newOperatorSessionId = (): string => `so_${randomId(40)}`;

export type SessionOwner = { kind: "site"; siteId: string } | { kind: "operator" } | { kind: "account"; accountId: string } | null;

/** Whose session an id claims to be (the store still has to confirm it). */
export function sessionOwner(id: string): SessionOwner {
  const site = SITE_SESSION.exec(id);
  if (site) return { kind: "site", siteId: site[1]! };
  // A person's session (`sa_<accountId>_…`, src/identity/tokens.ts) routes to their Account object.
  const accountId = accountOfSession(id);
  if (accountId) return { kind: "account", accountId };
  return OPERATOR_SESSION.test(id) ? { kind: "operator" } : null;
}

export interface SessionTimes {
  createdAt: number;
  lastSeenAt: number;
}

export const sessionExpiry = (t: SessionTimes): number => Math.min(t.createdAt + SESSION_ABSOLUTE_MS, t.lastSeenAt + SESSION_IDLE_MS);
