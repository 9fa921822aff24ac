/**
 * Who is calling a dashboard operation, as the front Worker tells the objects behind it
 * (PRINCIPAL_HEADER). Which object keeps each fact of accounts, workspaces, roles and keys is in
 * docs/accounts.md ("Where each fact lives"); this is the part every side agrees on.
 */

/** Workspace roles, named as Ghost names them so site owners recognise them. Most powerful first. */
export const ROLES = ["owner", "administrator", "editor", "author", "contributor", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** One workspace an account belongs to. `siteIds: null` means every site of the workspace. */
export interface Membership {
  workspaceId: string;
  workspaceName: string;
  role: Role;
  siteIds: string[] | null;
}

/** An account may belong to at most this many workspaces, so the principal header stays small. */
export const MAX_MEMBERSHIPS = 50;

export type Principal =
  | { kind: "operator" }
  /** A legacy site admin key (`sk_`) or the session it signed in: the owner of that one site. */
  | { kind: "siteKey"; siteId: string }
  /** `label` is the email address; `name` the name they gave at sign-up (absent from older callers). */
  | { kind: "account"; accountId: string; label: string; name?: string; memberships: Membership[] }
  | { kind: "apiKey"; workspaceId: string; keyId: string; label: string; scope: "read" | "full"; siteId: string | null };

export interface PrincipalHeader {
  principal: Principal;
  /** Where the request came from, for the audit log: CF-Connecting-IP and request.cf.country when known. */
  client: { ip: string | null; country: string | null };
}

/** How the dashboard and errors name a role. */
export const ROLE_LABEL: Readonly<Record<Role, string>> = {
  owner: "Owner",
  administrator: "Administrator",
  editor: "Editor",
  author: "Author",
  contributor: "Contributor",
  viewer: "Viewer",
};
