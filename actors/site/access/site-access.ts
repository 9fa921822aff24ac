/**
 * Who is calling the site's dashboard API and what they may do here: the operation the request
 * is (src/access/operations.ts), the caller's grant on this site, and whether it holds for every
 * item or only the caller's own. Built once per request and handed to the route handlers, never
 * kept on the object (concurrent requests would mix after an await).
 */
import { ApiError } from "../../../src/contract/errors";
import type { Principal, PrincipalHeader } from "../../../src/contract/principal";
import { matchOperation, type AccessEntry } from "../../../src/access/operations";
import { type Grant, requireOperation, requireOwnItem, requirePermission, siteGrant } from "../../../src/access/grant";
import type { Permission } from "../../../src/access/roles";
import type { SiteRow } from "../storage/site-row";

export interface SiteAccess {
  entry: AccessEntry;
  grant: Grant;
  /** "own": the caller may do this only to items they created (handlers check with `ownItem`). */
  mode: "any" | "own";
  client: PrincipalHeader["client"];
  /** Set when the handler wrote the change's audit row. */
  recorded: boolean;
  /** What the change's audit row names, when the handler leaves the row to the object (a hostname). */
  target?: string;
}

/** The caller's access to the operation the request is, or an error (404 not theirs, 403 not allowed). */
export function siteAccess(
  site: SiteRow,
  request: Request,
  principal: Principal,
  client: PrincipalHeader["client"],
  // The request's path when the caller has parsed its URL already.
  pathname: string = new URL(request.url).pathname,
): SiteAccess {
  const grant = siteGrant(principal, { id: site.id, workspaceId: site.workspaceId });
  // A site outside the caller's workspaces (or key) is one they cannot tell exists; a person is
  // told where to go, in words that fit both a made-up id and a membership that just ended.
  if (!grant)
    throw new ApiError(
      "not_found",
      principal.kind === "account"
        ? "No such site, or you are no longer a member of its workspace. Open Workspaces to see where you can work."
        : "No such site.",
    );
  const entry = matchOperation(request.method, pathname);
  if (!entry) throw new ApiError("not_found", "No such endpoint.");
  const mode = requireOperation(grant, entry);
  return { entry, grant, mode, client, recorded: false };
}

/** Before changing an item when the caller's access is "own": theirs, and still a draft if they cannot publish. */
export function ownItem(a: SiteAccess, item: { created_by?: string | null; status: string }): void {
  if (a.mode !== "own" || a.entry.access.who !== "member") return;
  requireOwnItem(a.grant, { created_by: item.created_by ?? null, status: item.status }, a.entry.access.permission);
}

export function needs(a: SiteAccess, permission: Permission): void {
  requirePermission(a.grant, permission);
}
