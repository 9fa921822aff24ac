/**
 * One site's part of "what a member made stands only while they may make it" (src/access/maker.ts):
 * the workspace says whose standing fell, and this site ends, in one transaction with an audit row
 * each, what they made here that they may no longer make: the admin key they were shown is replaced
 * by one shown to no one (its sessions end), their webhook endpoints are paused, and their live share
 * links are revoked. Scheduled changes they set stay: they are content decisions the team can see and
 * cancel, and they hand no one a way in. The same goes for what their revoked API keys made.
 */
import { ApiError } from "../../../src/contract/errors";
import { ACCESS_BY_ID } from "../../../src/access/operations";
import { type Grant, requireOperation, requireOwnItem } from "../../../src/access/grant";
import { type MakerSweep, type SiteSwept, SITE_MADE_NEEDS, sitePermissionsOf } from "../../../src/access/maker";
import type { Permission } from "../../../src/access/roles";
import { newAdminKey, sha256Hex } from "../../../src/ids";
import { SessionStore } from "../../shared/session-store";
import type { SiteContext } from "../context";
import { recordAudit } from "../access/audit";
import type { SiteAccess } from "../access/site-access";
import { ADMIN_KEY_SHOWN_TO_NOBODY, setAdminKeyHash } from "../storage/site-row";
import { rowsByIds } from "../storage/items-table";
import type { ItemRow } from "../storage/rows";
import { endpointsMadeBy, pauseForMaker } from "../webhooks/endpoints";
import { liveLinksMadeBy, revokeLink } from "../preview/links-table";

const NONE: ReadonlySet<Permission> = new Set();

export async function sweepMaker(s: SiteContext, p: MakerSweep, now = Date.now()): Promise<SiteSwept> {
  const site = s.site()!;
  const standing = sitePermissionsOf(p.after, site.id);
  // A revoked key may make nothing; the member may make what their standing here allows.
  const mayOf = (maker: string | null): ReadonlySet<Permission> => (maker === p.accountId ? standing : NONE);
  const makers = [p.accountId, ...p.keyIds];

  const holder = site.adminKeyBy ?? (p.createdSite ? p.accountId : null);
  const replaceKey = holder !== null && makers.includes(holder) && !mayOf(holder).has(SITE_MADE_NEEDS.adminKey);
  const freshHash = replaceKey ? await sha256Hex(newAdminKey(site.id)) : null;

  const webhooks = endpointsMadeBy(s.sql, makers).filter((e) => !mayOf(e.created_by).has(SITE_MADE_NEEDS.webhook));
  const links = liveLinksMadeBy(s.sql, makers, now);
  const items = new Map(rowsByIds(s.sql, [...new Set(links.map((l) => l.item_id))]).map((r) => [r.id, r]));
  const goneLinks = links.filter((l) => {
    const item = items.get(l.item_id);
    return !item || !mayShare(mayOf(l.created_by_id), l.created_by_id, item);
  });
  const slugOf = new Map(s.collections().map((c) => [c.id, c.slug]));

  s.storage.transactionSync(() => {
    const why = { cause: p.cause, madeBy: p.email };
    if (freshHash !== null) {
      // The key nobody holds now: an Owner or Administrator rotates it to get one.
      setAdminKeyHash(s.sql, freshHash, ADMIN_KEY_SHOWN_TO_NOBODY);
      new SessionStore(s.sql).endAll();
      recordAudit(s.sql, as(p, "rotateAdminKey"), "site admin key", { ...why, shownTo: null });
    }
    for (const e of webhooks) {
      pauseForMaker(s.sql, e.id, p.email, now);
      recordAudit(s.sql, as(p, "updateWebhookEndpoint"), `webhook ${e.url}`, { id: e.id, fields: ["enabled"], ...why });
    }
    for (const l of goneLinks) {
      revokeLink(s.sql, l.id, now);
      const item = items.get(l.item_id);
      const target = item ? `${slugOf.get(item.collection_id) ?? "?"}/${item.slug}` : `item ${l.item_id}`;
      recordAudit(s.sql, as(p, "revokePreviewLink"), target, { id: l.item_id, previewLink: l.id, revoked: true, ...why });
    }
  });
  if (freshHash !== null) s.siteChanged();
  return { adminKey: freshHash !== null, webhooks: webhooks.map((e) => e.id), previewLinks: goneLinks.map((l) => l.id) };
}

/** Whether `permissions` may make a share link of `item` (the rule of createPreviewLink, own items included). */
function mayShare(permissions: ReadonlySet<Permission>, maker: string | null, item: ItemRow): boolean {
  const grant: Grant = { permissions, role: "viewer", actor: { kind: "account", id: maker, label: "", name: null } };
  const entry = ACCESS_BY_ID.get("createPreviewLink")!;
  try {
    if (requireOperation(grant, entry) === "own" && entry.access.who === "member")
      requireOwnItem(grant, { created_by: item.created_by ?? null, status: item.status }, entry.access.permission);
    return true;
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

/** The change that caused the sweep, as each row it writes records it: by whoever made it, as `operationId`. */
function as(p: MakerSweep, operationId: string): SiteAccess {
  const grant: Grant = { permissions: NONE, role: "owner", actor: p.by.actor };
  return { entry: ACCESS_BY_ID.get(operationId)!, grant, mode: "any", client: p.by.client, recorded: false };
}
