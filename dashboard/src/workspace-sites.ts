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

/** An audit row's operation (`createItem`) as words (`create item`). */
export const operationWords = (operationId: string): string => operationId.replace(/([A-Z])/g, " $1").toLowerCase();
