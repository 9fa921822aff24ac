/**
 * What a caller may do on one site or workspace: the principal the front Worker vouched for
 * (PRINCIPAL_HEADER), narrowed to that place. Pure functions: the site and workspace objects
 * call them on every dashboard request, and the role-matrix test loops over the same data.
 */
import { ApiError } from "../contract/errors";
import { type Membership, type Principal, ROLE_LABEL, type Role } from "../contract/principal";
import type { AccessEntry } from "./operations";
import { KEY_PERMISSIONS, PERMISSION_WORDS, type Permission, ROLE_PERMISSIONS, WORKSPACE_PERMISSIONS } from "./roles";

export interface Grant {
  permissions: ReadonlySet<Permission>;
  /** The role, for messages and the dashboard; keys and legacy credentials say what they stand for. */
  role: Role | "key:read" | "key:full" | "operator";
  /** Who to record as having done it (audit log, items.created_by). */
  actor: Actor;
}

export interface Actor {
  kind: Principal["kind"];
  /** The account id, key id, or null for the operator and legacy admin keys. */
  id: string | null;
  /** As shown in the audit log: an email, a key's name, "operator", "site admin key". */
  label: string;
  /**
   * The person's name, for an account (what they gave at sign-up); null for keys and the
   * operator, whose label already names them.
   */
  name: string | null;
}

const ALL: ReadonlySet<Permission> = ROLE_PERMISSIONS.owner;

export function actorOf(p: Principal): Actor {
  switch (p.kind) {
    case "operator":
      return { kind: "operator", id: null, label: "operator", name: null };
    case "siteKey":
      return { kind: "siteKey", id: null, label: "site admin key", name: null };
    case "account":
      return { kind: "account", id: p.accountId, label: p.label, name: p.name ?? null };
    case "apiKey":
      return { kind: "apiKey", id: p.keyId, label: p.label, name: null };
  }
}

/**
 * What a membership allows: its role's permissions, less the workspace-wide ones when it is
 * limited to some sites. The workspace also asks this of a member's current row, to decide
 * whether what they created (invitations, API keys) still stands.
 */
export function membershipPermissions(membership: Pick<Membership, "role" | "siteIds">): ReadonlySet<Permission> {
  const all = ROLE_PERMISSIONS[membership.role];
  return membership.siteIds !== null ? new Set([...all].filter((p) => !WORKSPACE_PERMISSIONS.has(p))) : all;
}

function membershipGrant(membership: Membership, actor: Actor): Grant {
  return { permissions: membershipPermissions(membership), role: membership.role, actor };
}

/** The caller's grant on a site of a workspace; null when the site is not theirs to see (answered 404). */
export function siteGrant(p: Principal, site: { id: string; workspaceId: string }): Grant | null {
  const actor = actorOf(p);
  switch (p.kind) {
    case "operator":
      return { permissions: ALL, role: "operator", actor };
    case "siteKey":
      // A legacy admin key (or its session) is the Owner of its one site: no integration breaks.
      return p.siteId === site.id ? { permissions: ALL, role: "owner", actor } : null;
    case "account": {
      const mb = p.memberships.find((x) => x.workspaceId === site.workspaceId);
      if (!mb || (mb.siteIds !== null && !mb.siteIds.includes(site.id))) return null;
      return membershipGrant(mb, actor);
    }
    case "apiKey":
      if (p.workspaceId !== site.workspaceId || (p.siteId !== null && p.siteId !== site.id)) return null;
      return { permissions: KEY_PERMISSIONS[p.scope], role: p.scope === "read" ? "key:read" : "key:full", actor };
  }
}

/** The caller's grant on a workspace as a whole; null when they are not part of it. */
export function workspaceGrant(p: Principal, workspaceId: string): Grant | null {
  const actor = actorOf(p);
  switch (p.kind) {
    case "operator":
      return { permissions: ALL, role: "operator", actor };
    case "siteKey":
      return null;
    case "account": {
      const mb = p.memberships.find((x) => x.workspaceId === workspaceId);
      return mb ? membershipGrant(mb, actor) : null;
    }
    case "apiKey": {
      if (p.workspaceId !== workspaceId) return null;
      const perms = KEY_PERMISSIONS[p.scope];
      // A key limited to one site sees that site, not the workspace's people or settings.
      return { permissions: perms, role: p.scope === "read" ? "key:read" : "key:full", actor };
    }
  }
}

/** The grant as the API shows it to the caller (`access` on getSite/getWorkspace): it describes, never grants. */
export function accessView(grant: Grant): { role: Grant["role"]; permissions: Permission[] } {
  return { role: grant.role, permissions: [...grant.permissions].sort() };
}

const ROLE_NAME = (role: Grant["role"]): string =>
  role === "operator"
    ? "the operator"
    : role === "key:read"
      ? "a read-only API key"
      : role === "key:full"
        ? "an API key"
        : ROLE_LABEL[role];

/**
 * A refusal in words a person reads ("Your role (Viewer) cannot connect or detach domains"), with
 * who can help; the permission's code stays in `details` for programs.
 */
export function forbidden(grant: Grant, permission: Permission, why?: string): ApiError {
  return new ApiError("forbidden", why ?? `${whoCannot(grant)} ${PERMISSION_WORDS[permission]}.${whoCanHelp(grant)}`, {
    permission,
    role: grant.role,
  });
}

const whoCannot = (grant: Grant): string =>
  grant.role === "key:read" || grant.role === "key:full"
    ? `${capitalised(ROLE_NAME(grant.role))} cannot`
    : `Your role (${ROLE_NAME(grant.role)}) cannot`;
const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const whoCanHelp = (grant: Grant): string =>
  grant.role === "key:read"
    ? " Use a key with full access."
    : grant.role === "key:full" || grant.role === "operator"
      ? ""
      : " An Administrator or the Owner of the workspace can do it, or give you a role that can.";

/**
 * Whether the grant allows the operation outright ("any"), only for the caller's own items
 * ("own": the caller checks the item), or not at all (throws 403 naming the permission).
 */
export function requireOperation(grant: Grant, entry: AccessEntry): "any" | "own" {
  const a = entry.access;
  if (a.who === "operator") {
    if (grant.role === "operator") return "any";
    throw new ApiError("forbidden", "Only the operator can do this.", { permission: "operator", role: grant.role });
  }
  if (a.who === "account") return "any";
  if (grant.permissions.has(a.permission)) return "any";
  if (a.own && grant.permissions.has(a.own) && grant.actor.kind === "account") return "own";
  throw forbidden(grant, a.own && !grant.permissions.has(a.own) ? a.own : a.permission);
}

export function requirePermission(grant: Grant, permission: Permission): void {
  if (!grant.permissions.has(permission)) throw forbidden(grant, permission);
}

/**
 * An item change allowed only on the caller's own items: theirs, and (for a role that cannot
 * publish) still a draft. `permission` is the "any" one the caller lacks, named in the refusal.
 */
/**
 * Whether the caller may change this item's content at all, without asking for it by name: every
 * item with `items.edit.any`; otherwise only their own (and only drafts without
 * `items.publish.own`), the rule `requireOwnItem` holds an item edit to. For changes that reach
 * items as a side effect of another operation (a media entry's uses).
 */
export function mayEditItem(grant: Grant, item: { created_by: string | null; status: string }): boolean {
  if (grant.permissions.has("items.edit.any")) return true;
  if (!grant.permissions.has("items.edit.own")) return false;
  if (item.created_by === null || item.created_by !== grant.actor.id) return false;
  return item.status === "draft" || grant.permissions.has("items.publish.own");
}

export function requireOwnItem(grant: Grant, item: { created_by: string | null; status: string }, permission: Permission): void {
  if (item.created_by === null || item.created_by !== grant.actor.id) {
    throw forbidden(grant, permission, `Your role (${ROLE_NAME(grant.role)}) can change only items you created.${whoCanHelp(grant)}`);
  }
  if (item.status !== "draft" && !grant.permissions.has("items.publish.own")) {
    throw forbidden(grant, "items.publish.own", `Your role (${ROLE_NAME(grant.role)}) can change only your own drafts.`);
  }
}
