/** The sites of a workspace by name (the workspace lists ids; each site says its own name). */
import { call, client } from "./api";

export interface SiteName {
  id: string;
  name: string;
}

/** At most the plan's number of sites (25), read at once; a site that cannot be read shows its id. */
export function siteNames(siteIds: readonly string[]): Promise<SiteName[]> {
  return Promise.all(
    siteIds.map((siteId) =>
      call(client.GET("/sites/{siteId}", { params: { path: { siteId } } })).then(
        (r) => ({ id: siteId, name: r.site.name }),
        () => ({ id: siteId, name: siteId }),
      ),
    ),
  );
}

// Operations whose id does not read as what a person did ("put capture").
const OPERATION_WORDS: Readonly<Record<string, string>> = {
  putCollection: "save collection",
  createItems: "create items",
  createMedia: "add media",
  updateSite: "change site settings",
  rotateAdminKey: "replace admin key",
  restoreItemRevision: "restore an earlier version",
  restoreDeletedItem: "undo delete",
  putItemSchedule: "schedule item",
  deleteItemSchedule: "cancel schedule",
  putCapture: "capture page",
  deleteCapture: "stop rendering",
  refreshCapture: "refresh captured page",
  putCustomHostname: "connect domain",
  deleteCustomHostname: "detach domain",
  updateMember: "change member's role",
  createWebhookEndpoint: "add webhook endpoint",
  updateWebhookEndpoint: "change webhook endpoint",
  deleteWebhookEndpoint: "delete webhook endpoint",
  rotateWebhookEndpointSecret: "rotate webhook secret",
  redeliverWebhook: "redeliver webhook event",
  createSiteImport: "create import",
  setImportMapping: "map import columns",
};

/** An audit row's operation (`createItem`) as words (`create item`). */
export const operationWords = (operationId: string): string =>
  OPERATION_WORDS[operationId] ?? operationId.replace(/([A-Z])/g, " $1").toLowerCase();
