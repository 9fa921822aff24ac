/**
 * Members, their roles and site restrictions, and invitations. Owner of tables `members` and
 * `invitations`. The authority on who belongs: every change here is pushed to the member's Account
 * (outbox.ts) before it is acknowledged, so the one-hop read path is never more generous.
 */
import { ApiError, clip } from "../../src/contract/errors";
import type { Membership, Role } from "../../src/contract/principal";
import type { InvitationMailDecision, InvitationMailFailure, InvitationMailState } from "../../src/contract/workspaces";
import { randomId, sha256Hex } from "../../src/ids";

export interface MemberView {
  accountId: string;
  email: string;
  name: string;
  role: Role;
  siteIds: string[] | null;
  addedAt: string;
}

type MemberRow = {
  account_id: string;
  email: string;
  name: string;
  role: Role;
  site_ids: string | null;
  added_at: number;
  added_by: string | null;
};

const memberView = (r: MemberRow): MemberView => ({
  accountId: r.account_id,
  email: r.email,
  name: r.name,
  role: r.role,
  siteIds: r.site_ids === null ? null : (JSON.parse(r.site_ids) as string[]),
  addedAt: new Date(r.added_at).toISOString(),
});

export function listMembers(sql: SqlStorage): MemberView[] {
  return sql.exec<MemberRow>("SELECT * FROM members ORDER BY CASE role WHEN 'owner' THEN 0 ELSE 1 END, added_at").toArray().map(memberView);
}

export function readMember(sql: SqlStorage, accountId: string): MemberView | null {
  const r = sql.exec<MemberRow>("SELECT * FROM members WHERE account_id = ?", accountId).toArray()[0];
  return r ? memberView(r) : null;
}

/** Sets a member's name to the one their account has (a statement that writes nothing when it is already that). */
export function nameMember(sql: SqlStorage, accountId: string, name: string): void {
  sql.exec("UPDATE members SET name = ? WHERE account_id = ? AND name <> ?", name, accountId, name);
}

/** The current names of those of these accounts who are members, by account id. */
export function memberNames(sql: SqlStorage, accountIds: readonly string[]): Map<string, string> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return new Map();
  const rows = sql
    .exec<{ account_id: string; name: string }>(
      `SELECT account_id, name FROM members WHERE account_id IN (${ids.map(() => "?").join(", ")})`,
      ...ids,
    )
    .toArray();
  return new Map(rows.filter((r) => r.name !== "").map((r) => [r.account_id, r.name]));
}

export function countMembers(sql: SqlStorage): number {
  const now = Date.now();
  const members = sql.exec<{ n: number }>("SELECT count(*) AS n FROM members").one().n;
  const pending = sql
    .exec<{ n: number }>("SELECT count(*) AS n FROM invitations WHERE accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?", now)
    .one().n;
  return members + pending;
}

export function putMember(
  sql: SqlStorage,
  m: { accountId: string; email: string; name: string; role: Role; siteIds: string[] | null; addedBy: string | null },
): MemberView {
  const row = sql
    .exec<MemberRow>(
      `INSERT INTO members (account_id, email, name, role, site_ids, added_at, added_by) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET role = excluded.role, site_ids = excluded.site_ids, email = excluded.email
       RETURNING *`,
      m.accountId,
      m.email,
      m.name,
      m.role,
      m.siteIds === null ? null : JSON.stringify(m.siteIds),
      Date.now(),
      m.addedBy,
    )
    .one();
  return memberView(row);
}

export function updateMemberRow(sql: SqlStorage, accountId: string, patch: { role?: Role; siteIds?: string[] | null }): MemberView {
  const current = readMember(sql, accountId);
  if (!current) throw new ApiError("not_found", `No member "${clip(accountId)}" in this workspace.`);
  const role = patch.role ?? current.role;
  const siteIds = patch.siteIds === undefined ? current.siteIds : patch.siteIds;
  const row = sql
    .exec<MemberRow>(
      "UPDATE members SET role = ?, site_ids = ? WHERE account_id = ? RETURNING *",
      role,
      siteIds === null ? null : JSON.stringify(siteIds),
      accountId,
    )
    .one();
  return memberView(row);
}

export function deleteMember(sql: SqlStorage, accountId: string): void {
  sql.exec("DELETE FROM members WHERE account_id = ?", accountId);
}

export function membershipOf(m: MemberView, workspaceId: string, workspaceName: string): Membership {
  return { workspaceId, workspaceName, role: m.role, siteIds: m.siteIds };
}

// Invitations

export const INVITATION_TTL_MS = 7 * 86_400_000;

export interface InvitationView {
  id: string;
  email: string | null;
  role: Role;
  siteIds: string[] | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  status: "pending" | "accepted" | "revoked" | "expired";
  mailState: InvitationMailState;
}

type InvitationRow = {
  id: string;
  token_hash: string;
  email: string | null;
  role: Role;
  site_ids: string | null;
  created_by: string;
  created_at: number;
  expires_at: number;
  accepted_by: string | null;
  accepted_at: number | null;
  revoked_at: number | null;
  mail_state: InvitationMailDecision;
  mail_failure: InvitationMailFailure | null;
};

const statusOf = (r: InvitationRow, now: number): InvitationView["status"] =>
  r.accepted_at !== null ? "accepted" : r.revoked_at !== null ? "revoked" : r.expires_at <= now ? "expired" : "pending";

const invitationView = (r: InvitationRow, now = Date.now()): InvitationView => ({
  id: r.id,
  email: r.email,
  role: r.role,
  siteIds: r.site_ids === null ? null : (JSON.parse(r.site_ids) as string[]),
  createdBy: r.created_by,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
  status: statusOf(r, now),
  // A mail the workspace decided to send but that did not go says why it did not.
  mailState: r.mail_failure ?? r.mail_state,
});

export function insertInvitation(
  sql: SqlStorage,
  i: {
    tokenHash: string;
    email: string | null;
    role: Role;
    siteIds: string[] | null;
    createdBy: string;
    now: number;
    mailState: InvitationMailDecision;
  },
): InvitationView {
  const row = sql
    .exec<InvitationRow>(
      `INSERT INTO invitations (id, token_hash, email, role, site_ids, created_by, created_at, expires_at, mail_state)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      `inv_${randomId(12)}`,
      i.tokenHash,
      i.email,
      i.role,
      i.siteIds === null ? null : JSON.stringify(i.siteIds),
      i.createdBy,
      i.now,
      i.now + INVITATION_TTL_MS,
      i.mailState,
    )
    .one();
  return invitationView(row, i.now);
}

/**
 * Records that the mail of a pending invitation did not go (the front Worker sends it and says).
 * Its `mail_state` stays `sent`: it still counts against the day's mails, so a failing mail
 * service cannot be retried without limit. Null when there is no such invitation mailed.
 */
export function markMailFailed(sql: SqlStorage, id: string, failure: InvitationMailFailure): InvitationView | null {
  const row = sql
    .exec<InvitationRow>("UPDATE invitations SET mail_failure = ? WHERE id = ? AND mail_state = 'sent' RETURNING *", failure, id)
    .toArray()[0];
  return row ? invitationView(row) : null;
}

/** Invitations this workspace mailed since `since` (ms), revoked ones included: each was a mail. */
export function mailedSince(sql: SqlStorage, since: number): number {
  return sql.exec<{ n: number }>("SELECT count(*) AS n FROM invitations WHERE mail_state = 'sent' AND created_at > ?", since).one().n;
}

export function listInvitations(sql: SqlStorage): InvitationView[] {
  const now = Date.now();
  return sql
    .exec<InvitationRow>(
      "SELECT * FROM invitations WHERE accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at DESC",
      now,
    )
    .toArray()
    .map((r) => invitationView(r, now));
}

/** The pending invitations one account made (the ones to look at when its role changes). */
export function pendingInvitationsBy(sql: SqlStorage, accountId: string, now = Date.now()): InvitationView[] {
  return sql
    .exec<InvitationRow>(
      "SELECT * FROM invitations WHERE created_by = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at",
      accountId,
      now,
    )
    .toArray()
    .map((r) => invitationView(r, now));
}

export function revokeInvitationRow(sql: SqlStorage, id: string): InvitationView {
  const row = sql
    .exec<InvitationRow>("UPDATE invitations SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING *", Date.now(), id)
    .toArray()[0];
  if (!row) throw new ApiError("not_found", `No invitation "${clip(id)}".`);
  return invitationView(row);
}

/**
 * The pending invitation a token names; 404 for none, 410 for one used, revoked or expired.
 * `requireInviter` throws when the invitation's maker may no longer invite to its role.
 */
export async function pendingInvitation(
  sql: SqlStorage,
  token: string,
  now: number,
  requireInviter: (createdBy: string, role: Role) => void,
): Promise<InvitationView & { row: InvitationRow }> {
  const row = sql.exec<InvitationRow>("SELECT * FROM invitations WHERE token_hash = ?", await sha256Hex(token)).toArray()[0];
  if (!row) throw new ApiError("not_found", "This invitation link is not valid. Ask for a new one.");
  const status = statusOf(row, now);
  // Used and expired links say so; a pending or withdrawn one whose maker lost the right says that
  // instead, since asking the person who invited for a new one would not help.
  if (status === "pending" || status === "revoked") requireInviter(row.created_by, row.role);
  if (status !== "pending") {
    const why = status === "accepted" ? "has already been used" : status === "revoked" ? "was withdrawn" : "has expired (after 7 days)";
    throw new ApiError("gone", `This invitation ${why}. Ask the person who invited you for a new one.`, { status });
  }
  return { ...invitationView(row, now), row };
}

export function markAccepted(sql: SqlStorage, id: string, accountId: string, now: number): void {
  sql.exec("UPDATE invitations SET accepted_by = ?, accepted_at = ? WHERE id = ?", accountId, now, id);
}
