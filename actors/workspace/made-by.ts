/**
 * Invitations and API keys stand only while the member who made them may still make them. When a
 * member is removed, leaves, gets another role or sites, or hands the workspace over, what they
 * may no longer make is revoked in the same transaction as the change, with one audit row each.
 * Accepting an invitation and using a key ask the same question again of the maker's current row,
 * so a row the sweep never saw (one older than `api_keys.created_by_account`) cannot outlive its
 * maker either. Writes go through the tables' owners (members.ts, api-keys.ts). What they made on
 * the sites (the admin key they were shown, webhook endpoints, share links) the same change asks
 * each site to end (site-sweep.ts, src/access/maker.ts).
 */
import { membershipPermissions } from "../../src/access/grant";
import type { MakerCause } from "../../src/access/maker";
import { ACCESS_BY_ID } from "../../src/access/operations";
import { ApiError } from "../../src/contract/errors";
import { ROLES, type Role } from "../../src/contract/principal";
import { liveKeysOf, revokeKey } from "./api-keys";
import { type Changer, recordWorkspaceAudit } from "./audit";
import { type MemberView, pendingInvitationsBy, readMember, revokeInvitationRow } from "./members";
import { queueSiteSweeps, type SweptOnSites } from "./site-sweep";

/** A member's role and sites as they are now; null when they are no longer a member. */
export type Standing = Pick<MemberView, "role" | "siteIds"> | null;

/** Why what a member made was revoked, as the audit rows' `details.cause` say it. */
export type Cause = MakerCause;

/** What went with a member's change: the workspace's rows and, once the sites answered, theirs (site-sweep.ts). */
export interface Revoked extends SweptOnSites {
  invitations: string[];
  apiKeys: string[];
}

/** What a change revoked here, and the sweeps it owes the sites (sent after its transaction). */
export interface Made {
  revoked: Revoked;
  sweeps: number[];
}

export const NOTHING_MADE: Readonly<Made> = {
  revoked: { invitations: [], apiKeys: [], adminKeys: [], webhooks: [], previewLinks: [] },
  sweeps: [],
};

/**
 * The maker an invitation records when the operator made it (`actorOf`'s label; an account's
 * invitation records its account id). The operator may always invite.
 */
const OPERATOR_MAKER = "operator";

/** Whether a member may invite someone as `role`: members.manage over the whole workspace, and no role above their own. */
export function mayInvite(m: Standing, role: Role): boolean {
  return m !== null && membershipPermissions(m).has("members.manage") && ROLES.indexOf(role) >= ROLES.indexOf(m.role);
}

/** Whether a member may make API keys: keys.manage over the whole workspace. */
export function mayMakeKeys(m: Standing): boolean {
  return m !== null && membershipPermissions(m).has("keys.manage");
}

/**
 * Throws (410, `details.reason: "inviter"`) when an invitation's maker, as stored in
 * `invitations.created_by`, may no longer invite to `role`.
 */
export const requireInviter =
  (sql: SqlStorage) =>
  (createdBy: string, role: Role): void => {
    if (createdBy === OPERATOR_MAKER || mayInvite(readMember(sql, createdBy), role)) return;
    throw new ApiError(
      "gone",
      "This invitation no longer holds: the person who made it can no longer invite to this role. Ask someone who manages the workspace's members for a new one.",
      { status: "revoked", reason: "inviter" },
    );
  };

/** Asks of an API key's maker (`api_keys.created_by_account`) whether they may still make keys. */
export const keyMakerMay =
  (sql: SqlStorage) =>
  (accountId: string): boolean =>
    mayMakeKeys(readMember(sql, accountId));

/**
 * Revokes the pending invitations and live API keys `maker` made that `after` (their row once the
 * change is written; null when they are gone) could not make, and queues the sweep of each site
 * where they lose a right what they made there needs (site-sweep.ts). Call inside the change's
 * transaction: the audit rows name the caller who made the change, the cause and the maker.
 */
export function revokeWhatTheyMayNotMake(sql: SqlStorage, c: Changer, maker: MemberView, after: Standing, cause: Cause): Made {
  const invitations = pendingInvitationsBy(sql, maker.accountId).filter((i) => !mayInvite(after, i.role));
  for (const i of invitations) {
    revokeInvitationRow(sql, i.id);
    recordWorkspaceAudit(sql, as(c, "revokeInvitation"), `invitation ${i.email ?? "(link)"}`, null, {
      id: i.id,
      role: i.role,
      cause,
      madeBy: maker.email,
    });
  }
  const keys = mayMakeKeys(after) ? [] : liveKeysOf(sql, maker.accountId);
  for (const k of keys) {
    revokeKey(sql, k.id);
    recordWorkspaceAudit(sql, as(c, "revokeApiKey"), `API key ${k.name}`, k.siteId, { id: k.id, cause, madeBy: maker.email });
  }
  const sweeps = queueSiteSweeps(sql, c, maker, after && { role: after.role, siteIds: after.siteIds }, cause, keys);
  return {
    revoked: { invitations: invitations.map((i) => i.id), apiKeys: keys.map((k) => k.id), adminKeys: [], webhooks: [], previewLinks: [] },
    sweeps,
  };
}

/** The caller's change, recorded as the revocation it caused (its operation and kind in the audit log). */
const as = (c: Changer, operationId: string): Changer => ({ ...c, entry: ACCESS_BY_ID.get(operationId) ?? c.entry });
