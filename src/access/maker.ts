/**
 * What a site keeps that a member made there (the site admin key they were shown, webhook
 * endpoints, share links) stands only while they may still make it, like the invitations and API
 * keys the workspace keeps (actors/workspace/made-by.ts). The workspace tells each site whose
 * member's standing fell (`MakerSweep`, actors/workspace/site-sweep.ts); the site decides with the
 * same permission data every request is checked against, and answers what it ended.
 */
import type { Role } from "../contract/principal";
import { type Actor, membershipPermissions } from "./grant";
import type { Permission } from "./roles";

/** A member's role and sites, as the workspace holds them; null when they are no longer a member. */
export type MakerStanding = { role: Role; siteIds: string[] | null } | null;

/** Why a member's standing fell, as the audit rows' `details.cause` say it. */
export type MakerCause = "removed" | "left" | "role" | "ownership";

/** The permissions a site's things need of the one who made them. */
export const SITE_MADE_NEEDS = {
  /** Rotating the admin key (and so having been shown it) needs keys.manage. */
  adminKey: "keys.manage",
  /** A webhook endpoint is a site setting. */
  webhook: "site.settings",
} as const satisfies Record<string, Permission>;

/** Creating a share link is an edit of the item: on any item, or on one's own. */
export const SHARE_LINK_NEEDS: readonly Permission[] = ["items.edit.any", "items.edit.own"];

/** What the workspace sends each site when a member's standing falls (one site, one message). */
export interface MakerSweep {
  accountId: string;
  email: string;
  /** Their standing after the change. */
  after: MakerStanding;
  cause: MakerCause;
  /** API keys of theirs the same change revoked: what those keys made goes as well. */
  keyIds: string[];
  /**
   * The workspace's audit log records them creating this site, so they were shown its first admin
   * key: asked only of a site that does not know who holds its key (`site.admin_key_by` unknown).
   */
  createdSite: boolean;
  /** Who made the change, as the site's audit rows name them. */
  by: { actor: Actor; client: { ip: string | null; country: string | null } };
}

/** What one site ended: its admin key replaced, webhook endpoints paused, share links revoked. */
export interface SiteSwept {
  adminKey: boolean;
  webhooks: string[];
  previewLinks: string[];
}

const NONE: ReadonlySet<Permission> = new Set();

/** What a standing allows on one site: nothing outside the sites a restricted member may see. */
export function sitePermissionsOf(standing: MakerStanding, siteId: string): ReadonlySet<Permission> {
  if (standing === null || (standing.siteIds !== null && !standing.siteIds.includes(siteId))) return NONE;
  return membershipPermissions(standing);
}

/** Whether a change from `before` to `after` takes away anything a site's made things need on `siteId`. */
export function losesOnSite(before: MakerStanding, after: MakerStanding, siteId: string): boolean {
  const had = sitePermissionsOf(before, siteId);
  const has = sitePermissionsOf(after, siteId);
  return [...Object.values(SITE_MADE_NEEDS), ...SHARE_LINK_NEEDS].some((p) => had.has(p) && !has.has(p));
}
