/**
 * An Activity entry in words a person reads ("saved changes and published") and the address of
 * what it names. The words come from the operation and what its row recorded (`details`); rows
 * written before an edit recorded the item's status read as "saved changes".
 */
import type { components } from "../../generated/api";
import { href } from "../../router";
import { operationWords } from "../../workspace-sites";
import { PLAN_NAMES, type Plan } from "../../types";

const planName = (p: string | undefined): string | null => (p && p in PLAN_NAMES ? PLAN_NAMES[p as Plan] : null);

export type AuditEntry = components["schemas"]["ListAuditResponse"]["entries"][number];

interface Details {
  id?: string;
  /** changePlan: the plans before and after. */
  from?: string;
  to?: string;
  status?: string;
  unchanged?: boolean;
  pending?: boolean;
}

const detailsOf = (e: AuditEntry): Details => (typeof e.details === "object" && e.details !== null ? (e.details as Details) : {});

// The item operations whose words do not depend on what the row recorded.
const ITEM_WORDS: Readonly<Record<string, string>> = {
  unpublishItem: "unpublished",
  deleteItem: "deleted",
  savePendingChanges: "saved pending changes",
  discardPendingChanges: "discarded pending changes",
  restoreItemRevision: "restored an earlier version",
  restoreDeletedItem: "restored from the trash",
  putItemSchedule: "scheduled",
  deleteItemSchedule: "cancelled the schedule",
  createPreviewLink: "made a share link",
  revokePreviewLink: "revoked a share link",
};

/** What the person did, in words. */
export function activityWords(e: AuditEntry): string {
  const d = detailsOf(e);
  switch (e.operation) {
    case "createItem":
    case "createItems":
      return d.status === "published" ? "created and published" : d.status === "draft" ? "created a draft" : "created";
    case "updateItem":
      // A published item's saved changes are live at once: "Save and publish changes".
      if (d.unchanged) return "saved without changes";
      return d.status === "published" ? "saved changes and published" : d.status === "draft" ? "saved the draft" : "saved changes";
    case "publishItem":
      return d.pending ? "published pending changes" : "published";
    case "changePlan": {
      const [from, to] = [planName(d.from), planName(d.to)];
      return from && to ? `changed the plan from ${from} to ${to}` : "changed the plan";
    }
    default:
      return ITEM_WORDS[e.operation] ?? operationWords(e.operation);
  }
}

// Operations after which what the target names is gone: no link.
const GONE = new Set(["deleteItem", "deleteCollection", "deleteMedia", "removeMember", "deleteWebhookEndpoint", "revokeApiKey"]);

/** The target's `<kind> <rest>` form (`collection posts`), when it has that prefix. */
const after = (target: string, prefix: string): string | null => (target.startsWith(prefix) ? target.slice(prefix.length) : null);

/**
 * Where the target lives in the dashboard, or null when there is nowhere to go (it was deleted,
 * or it has no screen). An item that was deleted later opens its editor, which says it is gone.
 */
export function targetHref(e: AuditEntry, workspaceId: string): string | null {
  if (GONE.has(e.operation)) return null;
  const site = e.siteId;
  const d = detailsOf(e);
  if (e.kind === "Members") return href("workspace", workspaceId, "members");
  if (e.operation === "createApiKey") return href("workspace", workspaceId, "keys");
  if (!site) return null;
  if (e.kind === "Items" && d.id) {
    // Item targets are `<collection>/<item slug>`; slugs never hold a slash.
    const slash = e.target.indexOf("/");
    return slash > 0 ? href(site, "items", e.target.slice(0, slash), d.id) : null;
  }
  const collection = after(e.target, "collection ");
  if (e.kind === "Collections" && collection) return href(site, "collection", collection);
  if (e.kind === "Media") return href(site, "media");
  if (e.operation === "rotateAdminKey" || e.operation === "updateSite") return href(site, "settings");
  if (e.operation === "createSite") return href(site, "overview");
  if (e.kind === "Domains") return href(site, "domains");
  if (e.kind === "SEO") return href(site, "seo");
  if (e.kind === "Search") return href(site, "search");
  if (e.kind === "Webhooks") return href(site, "webhooks");
  return null;
}
