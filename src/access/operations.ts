/**
 * Which permission each dashboard operation needs, by the operationId of the OpenAPI registry.
 * The registry itself is not imported (it carries every schema and example of the document);
 * test/unit/access-table.test.ts checks that both name the same operations with the same routes, so an
 * endpoint cannot land unguarded. An operation that is not here is refused.
 */
import type { Permission } from "./roles";

export type Who =
  /** A member (or key) whose role on the site or workspace has `permission`; `own`: enough for an item they created. */
  | { who: "member"; permission: Permission; own?: Permission }
  /** Any signed-in account, acting for itself (create a workspace, accept an invitation). */
  | { who: "account" }
  /** The operator alone. */
  | { who: "operator" };

export interface AccessEntry {
  id: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  /** The OpenAPI path template, as in the registry. */
  path: string;
  /** For the audit log and the Activity filter (the registry's tag). */
  kind: string;
  access: Who;
}

const m = (permission: Permission, own?: Permission): Who => (own ? { who: "member", permission, own } : { who: "member", permission });
const S = "/sites/{siteId}";
const W = "/workspaces/{id}";

export const ACCESS: readonly AccessEntry[] = [
  // Workspaces and sites
  { id: "createWorkspace", method: "post", path: "/workspaces", kind: "Workspaces", access: { who: "account" } },
  { id: "getWorkspace", method: "get", path: W, kind: "Workspaces", access: m("site.read") },
  { id: "updateWorkspace", method: "patch", path: W, kind: "Workspaces", access: m("workspace.settings") },
  { id: "changePlan", method: "put", path: `${W}/plan`, kind: "Workspaces", access: m("workspace.plan") },
  { id: "deleteWorkspace", method: "delete", path: W, kind: "Workspaces", access: m("workspace.delete") },
  { id: "createSite", method: "post", path: "/sites", kind: "Sites", access: m("site.create") },
  { id: "getSite", method: "get", path: S, kind: "Sites", access: m("site.read") },
  { id: "updateSite", method: "patch", path: S, kind: "Sites", access: m("site.settings") },
  { id: "getSiteStats", method: "get", path: `${S}/stats`, kind: "Sites", access: m("site.read") },
  { id: "rotateAdminKey", method: "post", path: `${S}/admin-key`, kind: "Keys", access: m("keys.manage") },
  // Search
  { id: "getSearchStatus", method: "get", path: `${S}/search`, kind: "Search", access: m("site.read") },
  { id: "retrySearchIndexing", method: "post", path: `${S}/search/retry`, kind: "Search", access: m("search.manage") },
  // Collections
  { id: "listCollections", method: "get", path: `${S}/collections`, kind: "Collections", access: m("site.read") },
  { id: "getCollection", method: "get", path: `${S}/collections/{slug}`, kind: "Collections", access: m("site.read") },
  { id: "putCollection", method: "put", path: `${S}/collections/{slug}`, kind: "Collections", access: m("collections.manage") },
  { id: "deleteCollection", method: "delete", path: `${S}/collections/{slug}`, kind: "Collections", access: m("collections.manage") },
  // Exports (site/transfer/): a collection's CSV to whoever may read the site; the whole site to its administrators
  { id: "exportCollectionCsv", method: "get", path: `${S}/collections/{slug}/export.csv`, kind: "Export", access: m("site.read") },
  { id: "exportSite", method: "get", path: `${S}/export.json`, kind: "Export", access: m("site.settings") },
  // Imports (site/imports/): a collection's file by whoever may create, edit and publish any item (Editor and
  // up; a mapping that adds fields also needs collections.manage, checked by the site); a whole site by its administrators
  { id: "createImport", method: "post", path: `${S}/collections/{slug}/imports`, kind: "Import", access: m("items.publish.any") },
  { id: "createSiteImport", method: "post", path: `${S}/imports`, kind: "Import", access: m("site.settings") },
  { id: "listImports", method: "get", path: `${S}/imports`, kind: "Import", access: m("items.publish.any") },
  { id: "getImport", method: "get", path: `${S}/imports/{importId}`, kind: "Import", access: m("items.publish.any") },
  { id: "setImportMapping", method: "put", path: `${S}/imports/{importId}/mapping`, kind: "Import", access: m("items.publish.any") },
  { id: "startImport", method: "post", path: `${S}/imports/{importId}/start`, kind: "Import", access: m("items.publish.any") },
  { id: "cancelImport", method: "post", path: `${S}/imports/{importId}/cancel`, kind: "Import", access: m("items.publish.any") },
  { id: "listImportRows", method: "get", path: `${S}/imports/{importId}/rows`, kind: "Import", access: m("items.publish.any") },
  { id: "getImportReport", method: "get", path: `${S}/imports/{importId}/report.csv`, kind: "Import", access: m("items.publish.any") },
  { id: "deleteImport", method: "delete", path: `${S}/imports/{importId}`, kind: "Import", access: m("items.publish.any") },
  // Items (creating with `publish: true` also needs items.publish.own: checked by the site)
  { id: "listDashboardItems", method: "get", path: `${S}/collections/{slug}/items`, kind: "Items", access: m("site.read") },
  { id: "getDashboardItem", method: "get", path: `${S}/collections/{slug}/items/{id}`, kind: "Items", access: m("site.read") },
  { id: "createItem", method: "post", path: `${S}/collections/{slug}/items`, kind: "Items", access: m("items.create") },
  { id: "createItems", method: "post", path: `${S}/collections/{slug}/items:batch`, kind: "Items", access: m("items.create") },
  {
    id: "updateItem",
    method: "patch",
    path: `${S}/collections/{slug}/items/{id}`,
    kind: "Items",
    access: m("items.edit.any", "items.edit.own"),
  },
  {
    id: "deleteItem",
    method: "delete",
    path: `${S}/collections/{slug}/items/{id}`,
    kind: "Items",
    access: m("items.delete.any", "items.delete.own"),
  },
  {
    id: "publishItem",
    method: "post",
    path: `${S}/collections/{slug}/items/{id}/publish`,
    kind: "Items",
    access: m("items.publish.any", "items.publish.own"),
  },
  {
    // Each item is checked as publishItem checks it (an own-only role publishes only its own).
    id: "publishItems",
    method: "post",
    path: `${S}/collections/{slug}/items:publish`,
    kind: "Items",
    access: m("items.publish.any", "items.publish.own"),
  },
  {
    id: "unpublishItem",
    method: "post",
    path: `${S}/collections/{slug}/items/{id}/unpublish`,
    kind: "Items",
    access: m("items.publish.any", "items.publish.own"),
  },
  // History, trash and schedules
  { id: "listItemRevisions", method: "get", path: `${S}/collections/{slug}/items/{id}/revisions`, kind: "Items", access: m("site.read") },
  {
    id: "getItemRevision",
    method: "get",
    path: `${S}/collections/{slug}/items/{id}/revisions/{revisionId}`,
    kind: "Items",
    access: m("site.read"),
  },
  {
    id: "restoreItemRevision",
    method: "post",
    path: `${S}/collections/{slug}/items/{id}/revisions/{revisionId}/restore`,
    kind: "Items",
    access: m("items.edit.any", "items.edit.own"),
  },
  {
    id: "savePendingChanges",
    method: "put",
    path: `${S}/collections/{slug}/items/{id}/pending`,
    kind: "Items",
    access: m("items.edit.any", "items.edit.own"),
  },
  {
    id: "discardPendingChanges",
    method: "delete",
    path: `${S}/collections/{slug}/items/{id}/pending`,
    kind: "Items",
    access: m("items.edit.any", "items.edit.own"),
  },
  {
    id: "putItemSchedule",
    method: "put",
    path: `${S}/collections/{slug}/items/{id}/schedule`,
    kind: "Items",
    access: m("items.publish.any", "items.publish.own"),
  },
  {
    id: "deleteItemSchedule",
    method: "delete",
    path: `${S}/collections/{slug}/items/{id}/schedule`,
    kind: "Items",
    access: m("items.publish.any", "items.publish.own"),
  },
  { id: "listUpcomingChanges", method: "get", path: `${S}/schedule`, kind: "Items", access: m("site.read") },
  { id: "listTrash", method: "get", path: `${S}/trash`, kind: "Items", access: m("site.read") },
  {
    id: "restoreDeletedItem",
    method: "post",
    path: `${S}/trash/{itemId}/restore`,
    kind: "Items",
    access: m("items.delete.any", "items.delete.own"),
  },
  // Share links of items: creating and revoking one is an edit of the item
  {
    id: "createPreviewLink",
    method: "post",
    path: `${S}/collections/{slug}/items/{id}/preview-links`,
    kind: "Items",
    access: m("items.edit.any", "items.edit.own"),
  },
  {
    id: "listPreviewLinks",
    method: "get",
    path: `${S}/collections/{slug}/items/{id}/preview-links`,
    kind: "Items",
    access: m("site.read"),
  },
  {
    id: "revokePreviewLink",
    method: "delete",
    path: `${S}/collections/{slug}/items/{id}/preview-links/{linkId}`,
    kind: "Items",
    access: m("items.edit.any", "items.edit.own"),
  },
  // Media
  { id: "listMedia", method: "get", path: `${S}/media`, kind: "Media", access: m("site.read") },
  { id: "createMedia", method: "post", path: `${S}/media`, kind: "Media", access: m("media.create") },
  { id: "updateMedia", method: "patch", path: `${S}/media/{mediaId}`, kind: "Media", access: m("media.edit") },
  // Streamed into R2 by the front Worker; the site object checks this entry at the upload's begin and commit.
  { id: "uploadMedia", method: "post", path: `${S}/media/files`, kind: "Media", access: m("media.create") },
  { id: "replaceMedia", method: "put", path: `${S}/media/{mediaId}/file`, kind: "Media", access: m("media.edit") },
  { id: "copyMedia", method: "post", path: `${S}/media/{mediaId}/copy`, kind: "Media", access: m("media.create") },
  { id: "deleteMedia", method: "delete", path: `${S}/media/{mediaId}`, kind: "Media", access: m("media.edit") },
  // Server rendering, SEO Engine and domains
  { id: "getCapture", method: "get", path: `${S}/ssr/capture`, kind: "SEO", access: m("site.read") },
  { id: "getCaptureStatus", method: "get", path: `${S}/ssr/capture/status`, kind: "SEO", access: m("site.read") },
  { id: "putCapture", method: "put", path: `${S}/ssr/capture`, kind: "SEO", access: m("seo.manage") },
  { id: "deleteCapture", method: "delete", path: `${S}/ssr/capture`, kind: "SEO", access: m("seo.manage") },
  { id: "refreshCapture", method: "post", path: `${S}/ssr/refresh`, kind: "SEO", access: m("seo.manage") },
  { id: "rotateWebhookSecret", method: "post", path: `${S}/ssr/webhook-secret`, kind: "SEO", access: m("seo.manage") },
  { id: "getProxyKey", method: "get", path: `${S}/ssr/proxy-key`, kind: "SEO", access: m("seo.manage") },
  { id: "getRichResults", method: "get", path: `${S}/ssr/rich-results`, kind: "SEO", access: m("site.read") },
  { id: "putRichResults", method: "put", path: `${S}/ssr/rich-results`, kind: "SEO", access: m("seo.manage") },
  { id: "previewPage", method: "get", path: `${S}/ssr/preview`, kind: "SEO", access: m("site.read") },
  { id: "listRedirects", method: "get", path: `${S}/ssr/redirects`, kind: "SEO", access: m("site.read") },
  { id: "createRedirect", method: "post", path: `${S}/ssr/redirects`, kind: "SEO", access: m("seo.manage") },
  { id: "updateRedirect", method: "put", path: `${S}/ssr/redirects/{redirectId}`, kind: "SEO", access: m("seo.manage") },
  { id: "deleteRedirect", method: "delete", path: `${S}/ssr/redirects/{redirectId}`, kind: "SEO", access: m("seo.manage") },
  { id: "exportRedirects", method: "get", path: `${S}/ssr/redirects.csv`, kind: "SEO", access: m("site.read") },
  { id: "importRedirects", method: "post", path: `${S}/ssr/redirects/import`, kind: "SEO", access: m("seo.manage") },
  { id: "getCustomHostname", method: "get", path: `${S}/ssr/custom-hostname`, kind: "Domains", access: m("site.read") },
  {
    id: "getCustomHostnameStatus",
    method: "get",
    path: `${S}/ssr/custom-hostname/status`,
    kind: "Domains",
    access: m("site.read"),
  },
  { id: "putCustomHostname", method: "post", path: `${S}/ssr/custom-hostname`, kind: "Domains", access: m("domains.manage") },
  { id: "deleteCustomHostname", method: "delete", path: `${S}/ssr/custom-hostname`, kind: "Domains", access: m("domains.manage") },
  // Locales (site/locales/): the set like the site's other settings; a translation like an edit of its item
  { id: "getLocales", method: "get", path: `${S}/locales`, kind: "Locales", access: m("site.read") },
  { id: "putLocales", method: "put", path: `${S}/locales`, kind: "Locales", access: m("site.settings") },
  { id: "listTranslations", method: "get", path: `${S}/collections/{slug}/items/{id}/locales`, kind: "Locales", access: m("site.read") },
  {
    id: "putTranslation",
    method: "put",
    path: `${S}/collections/{slug}/items/{id}/locales/{locale}`,
    kind: "Locales",
    access: m("items.edit.any", "items.edit.own"),
  },
  {
    id: "deleteTranslation",
    method: "delete",
    path: `${S}/collections/{slug}/items/{id}/locales/{locale}`,
    kind: "Locales",
    access: m("items.edit.any", "items.edit.own"),
  },
  // Outbound webhooks (site/webhooks/): Administrator and up, like the site's other settings
  { id: "listWebhookEndpoints", method: "get", path: `${S}/webhooks`, kind: "Webhooks", access: m("site.settings") },
  { id: "createWebhookEndpoint", method: "post", path: `${S}/webhooks`, kind: "Webhooks", access: m("site.settings") },
  { id: "getWebhookEndpoint", method: "get", path: `${S}/webhooks/{endpointId}`, kind: "Webhooks", access: m("site.settings") },
  { id: "updateWebhookEndpoint", method: "patch", path: `${S}/webhooks/{endpointId}`, kind: "Webhooks", access: m("site.settings") },
  { id: "deleteWebhookEndpoint", method: "delete", path: `${S}/webhooks/{endpointId}`, kind: "Webhooks", access: m("site.settings") },
  {
    id: "rotateWebhookEndpointSecret",
    method: "post",
    path: `${S}/webhooks/{endpointId}/rotate-secret`,
    kind: "Webhooks",
    access: m("site.settings"),
  },
  { id: "sendWebhookTest", method: "post", path: `${S}/webhooks/{endpointId}/test`, kind: "Webhooks", access: m("site.settings") },
  {
    id: "listWebhookDeliveries",
    method: "get",
    path: `${S}/webhooks/{endpointId}/deliveries`,
    kind: "Webhooks",
    access: m("site.settings"),
  },
  {
    id: "getWebhookDelivery",
    method: "get",
    path: `${S}/webhooks/{endpointId}/deliveries/{eventId}`,
    kind: "Webhooks",
    access: m("site.settings"),
  },
  {
    id: "redeliverWebhook",
    method: "post",
    path: `${S}/webhooks/{endpointId}/deliveries/{eventId}/redeliver`,
    kind: "Webhooks",
    access: m("site.settings"),
  },
  // Members, invitations, API keys, audit (the workspace object)
  { id: "listMembers", method: "get", path: `${W}/members`, kind: "Members", access: m("members.read") },
  { id: "updateMember", method: "patch", path: `${W}/members/{accountId}`, kind: "Members", access: m("members.manage") },
  // Anyone may remove themselves (leave), except the Owner: checked by the workspace.
  { id: "removeMember", method: "delete", path: `${W}/members/{accountId}`, kind: "Members", access: m("members.manage") },
  { id: "transferOwnership", method: "post", path: `${W}/owner`, kind: "Members", access: m("ownership.transfer") },
  { id: "listInvitations", method: "get", path: `${W}/invitations`, kind: "Members", access: m("members.manage") },
  { id: "createInvitation", method: "post", path: `${W}/invitations`, kind: "Members", access: m("members.manage") },
  { id: "revokeInvitation", method: "delete", path: `${W}/invitations/{invitationId}`, kind: "Members", access: m("members.manage") },
  { id: "lookupInvitation", method: "post", path: "/invitations/lookup", kind: "Members", access: { who: "account" } },
  { id: "acceptInvitation", method: "post", path: "/invitations/accept", kind: "Members", access: { who: "account" } },
  { id: "listApiKeys", method: "get", path: `${W}/api-keys`, kind: "Keys", access: m("keys.manage") },
  { id: "createApiKey", method: "post", path: `${W}/api-keys`, kind: "Keys", access: m("keys.manage") },
  { id: "revokeApiKey", method: "delete", path: `${W}/api-keys/{keyId}`, kind: "Keys", access: m("keys.manage") },
  { id: "listAudit", method: "get", path: `${W}/audit`, kind: "Audit", access: m("audit.read") },
  { id: "exportAudit", method: "get", path: `${W}/audit.csv`, kind: "Audit", access: m("audit.read") },
];

export const ACCESS_BY_ID: ReadonlyMap<string, AccessEntry> = new Map(ACCESS.map((e) => [e.id, e]));

const COMPILED = ACCESS.map((e) => ({
  entry: e,
  re: new RegExp(`^${e.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
}));

/** The operation a request is, by method and path; null when it is none of them (and so refused). */
export function matchOperation(method: string, pathname: string): AccessEntry | null {
  const mth = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  for (const { entry, re } of COMPILED) if (entry.method === mth && re.test(pathname)) return entry;
  return null;
}
