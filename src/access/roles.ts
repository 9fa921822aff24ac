/**
 * What each workspace role may do. The roles come from the
 * shared contract (src/contract/principal.ts); the permissions are ours. The role table of docs/workspaces.md is
 * generated from this file and operations.ts (scripts/role-table.mjs), so it cannot drift.
 */
import { ROLES, type Role } from "../contract/principal";

export const PERMISSIONS = [
  "site.read",
  "items.create",
  "items.edit.own",
  "items.edit.any",
  "items.delete.own",
  "items.delete.any",
  "items.publish.own",
  "items.publish.any",
  "media.create",
  "media.edit",
  "search.manage",
  "collections.manage",
  "site.settings",
  "seo.manage",
  "domains.manage",
  "keys.manage",
  "site.create",
  "members.read",
  "members.manage",
  "audit.read",
  "workspace.settings",
  "workspace.plan",
  "workspace.delete",
  "ownership.transfer",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const VIEWER: readonly Permission[] = ["site.read"];
const CONTRIBUTOR: readonly Permission[] = [...VIEWER, "items.create", "items.edit.own", "items.delete.own", "media.create"];
const AUTHOR: readonly Permission[] = [...CONTRIBUTOR, "items.publish.own"];
const EDITOR: readonly Permission[] = [...AUTHOR, "items.edit.any", "items.delete.any", "items.publish.any", "media.edit", "search.manage"];
// The plan is what the workspace pays for: like deleting it or handing it over, the Owner's alone.
const OWNER_ONLY: ReadonlySet<Permission> = new Set(["workspace.plan", "workspace.delete", "ownership.transfer"]);
const ADMINISTRATOR: readonly Permission[] = PERMISSIONS.filter((p) => !OWNER_ONLY.has(p));

export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  owner: new Set(PERMISSIONS),
  administrator: new Set(ADMINISTRATOR),
  editor: new Set(EDITOR),
  author: new Set(AUTHOR),
  contributor: new Set(CONTRIBUTOR),
  viewer: new Set(VIEWER),
};

/** Permissions that concern the workspace as a whole: only a membership not restricted to some sites has them. */
export const WORKSPACE_PERMISSIONS: ReadonlySet<Permission> = new Set([
  "site.create",
  "members.read",
  "members.manage",
  "audit.read",
  "keys.manage",
  "workspace.settings",
  "workspace.plan",
  "workspace.delete",
  "ownership.transfer",
]);

/** API keys: `read` is a Viewer; `full` is an Administrator on sites, but a key never manages people, keys or the workspace. */
export const KEY_PERMISSIONS: Readonly<Record<"read" | "full", ReadonlySet<Permission>>> = {
  read: new Set(VIEWER),
  full: new Set(ADMINISTRATOR.filter((p) => !WORKSPACE_PERMISSIONS.has(p))),
};

/** What each permission lets a person do, as a refusal says it ("Your role (Viewer) cannot …"). */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = {
  "site.read": "see this site",
  "items.create": "create items",
  "items.edit.own": "edit items",
  "items.edit.any": "edit items other people created",
  "items.delete.own": "delete items",
  "items.delete.any": "delete items other people created",
  "items.publish.own": "publish items",
  "items.publish.any": "publish items other people created",
  "media.create": "upload media",
  "media.edit": "change or delete media",
  "search.manage": "manage search",
  "collections.manage": "change collections",
  "site.settings": "change this site's settings",
  "seo.manage": "change the SEO Engine's settings",
  "domains.manage": "connect or detach domains",
  "keys.manage": "manage API keys",
  "site.create": "create sites",
  "members.read": "see the workspace's members",
  "members.manage": "invite or manage members",
  "audit.read": "see the activity log",
  "workspace.settings": "change the workspace's settings",
  "workspace.plan": "change the workspace's plan",
  "workspace.delete": "delete the workspace",
  "ownership.transfer": "hand the workspace to another owner",
};

export { ROLES, type Role };
