/**
 * The steps of an upload the front Worker streams or parses (src/media/upload-route.ts,
 * src/imports/routes.ts), each checked as the dashboard request it is part of, with the caller's
 * headers; refusals travel as data (an ApiError does not survive RPC).
 */
import { ApiError } from "../../../src/contract/errors";
import type { ImportCall } from "../../../src/contract/imports";
import type { SiteContext } from "../context";
import { siteAccess } from "../access/site-access";
import { type MediaCall, mediaCall } from "../media/calls";
import { refusal } from "../../../src/contract/refusal";
import { callerOf } from "./caller";

/** One step of a media upload, checked as uploadMedia (or, with `replaces`, replaceMedia) is. */
export async function mediaUpload(
  s: SiteContext,
  headers: [string, string][],
  call: MediaCall,
  replaces?: string,
): Promise<Awaited<ReturnType<typeof mediaCall>> | ReturnType<typeof refusal>> {
  try {
    const site = s.site();
    if (!site) throw new ApiError("not_found", "No such site.");
    // Checked as the request it is part of: an upload (uploadMedia) or a replace (replaceMedia).
    const request = replaces
      ? new Request(`https://site.internal/sites/${site.id}/media/${encodeURIComponent(replaces)}/file`, { method: "PUT", headers })
      : new Request(`https://site.internal/sites/${site.id}/media/files`, { method: "POST", headers });
    if (call.op === "commit" && call.input.replaces !== replaces)
      throw new ApiError("bad_request", "A replace names its entry in every step.");
    const caller = await callerOf(s, request);
    if (!caller) throw new ApiError("unauthorized", "Missing or wrong site admin key, or the dashboard session has ended.");
    // Awaited here, so a refusal of the workspace's storage is answered as data too.
    return await mediaCall(s, siteAccess(s.site()!, request, caller.principal, caller.client), call);
  } catch (err) {
    return refusal(err);
  }
}

/** One step of an import upload, with the upload's path: checked as that dashboard request is, every step. */
export async function importUpload(s: SiteContext, headers: [string, string][], path: string, call: ImportCall): Promise<unknown> {
  try {
    if (!s.site()) throw new ApiError("not_found", "No such site.");
    const request = new Request(`https://site.internal${path}`, { method: "POST", headers });
    const caller = await callerOf(s, request);
    if (!caller) throw new ApiError("unauthorized", "Missing or wrong site admin key, or the dashboard session has ended.");
    const access = siteAccess(s.site()!, request, caller.principal, caller.client);
    if (access.entry.id !== "createImport" && access.entry.id !== "createSiteImport") throw new ApiError("not_found", "No such endpoint.");
    const { importCall } = await import("../imports/calls");
    return importCall(s, access, call);
  } catch (err) {
    return refusal(err);
  }
}
