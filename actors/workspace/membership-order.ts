/**
 * Comparing what two memberships allow, so a change can be split into what it takes away and
 * what it gives (member-change.ts). Roles are nested: each role's permissions include those of
 * every role after it in ROLES (src/access/roles.ts builds each list from the next one), and a
 * membership limited to some sites allows less than the same role on every site.
 */
import { ROLES, type Membership } from "../../src/contract/principal";

const rank = (m: Membership): number => ROLES.indexOf(m.role);

/** The most that both allow: the lower role, on the sites both reach. Null when either is no membership. */
export function meetOf(a: Membership | null, b: Membership | null): Membership | null {
  if (a === null || b === null) return null;
  const role = rank(a) >= rank(b) ? a.role : b.role;
  const siteIds = a.siteIds === null ? b.siteIds : b.siteIds === null ? a.siteIds : both(a.siteIds, b.siteIds);
  return { ...b, role, siteIds };
}

const both = (a: readonly string[], b: readonly string[]): string[] => a.filter((id) => b.includes(id));

/** Whether the two allow exactly the same (the workspace's name is not a grant). */
export function sameGrant(a: Membership | null, b: Membership | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.role !== b.role) return false;
  if (a.siteIds === null || b.siteIds === null) return a.siteIds === b.siteIds;
  const bs = new Set(b.siteIds);
  return new Set(a.siteIds).size === bs.size && a.siteIds.every((id) => bs.has(id));
}
