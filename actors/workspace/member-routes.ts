/**
 * The member routes of a workspace (`/owner`, `/members`): who is in it, their role and sites.
 * Each change runs alone and reaches the member's Account in the order member-change.ts keeps
 * (what it takes away before it is saved, what it gives after).
 */
import type { IRequest, IttyRouterType } from "itty-router";
import { requirePermission } from "../../src/access/grant";
import { ApiError } from "../../src/contract/errors";
import type { Membership, Principal, Role } from "../../src/contract/principal";
import { json, readJsonObject } from "../../src/http/json";
import { parseBody } from "../../src/http/validation";
import { type Changer, recordWorkspaceAudit } from "./audit";
import { type Made, NOTHING_MADE, type Revoked, revokeWhatTheyMayNotMake } from "./made-by";
import type { MemberPushes } from "./member-change";
import { deleteMember, listMembers, type MemberView, membershipOf, readMember, updateMemberRow } from "./members";

/** What the member routes need of the workspace they belong to. */
export interface WorkspaceShape {
  id: string;
  name: string;
  siteIds: string[];
}

export interface MemberRouteDeps<W extends WorkspaceShape> {
  sql: SqlStorage;
  pushes: MemberPushes;
  /** Runs a change alone, against the workspace as it is when its turn comes. */
  change: (fn: (ws: W) => Promise<Response>) => Promise<Response>;
  requireOwnSites: (ws: W, siteIds: readonly string[]) => void;
  /** After a change is saved and pushed: each site ends what the member made there (site-sweep.ts). */
  settle: (made: Made) => Promise<Revoked>;
}

export function addMemberRoutes<W extends WorkspaceShape>(
  router: IttyRouterType<IRequest, [Changer, W, Principal]>,
  d: MemberRouteDeps<W>,
): void {
  // The bodies' schemas (zod) load on the first write, never at start-up (docs/caching.md).
  const inputs = () => import("../../src/contract/workspaces");
  router.post("/owner", async (req, c) => {
    const { accountId } = parseBody((await inputs()).ownerTransfer, await readJsonObject(req), "owner");
    return d.change(async (ws) => {
      const target = readMember(d.sql, accountId);
      if (!target) throw new ApiError("not_found", "No such member: invite them first, then make them the Owner.");
      if (target.role === "owner") throw new ApiError("conflict", `${target.email} is already the Owner.`);
      const before = listMembers(d.sql).find((m) => m.role === "owner") ?? null;
      const as = (m: MemberView, role: Role): Membership => ({ ...membershipOf(m, ws.id, ws.name), role, siteIds: null });
      // The old Owner's step down is pushed before anything is saved, the new Owner's after.
      const changes = [
        ...(before
          ? [{ accountId: before.accountId, before: membershipOf(before, ws.id, ws.name), after: as(before, "administrator") }]
          : []),
        { accountId, before: membershipOf(target, ws.id, ws.name), after: as(target, "owner") },
      ];
      const result = await d.pushes.apply(ws.id, changes, () => {
        // Exactly one Owner (a unique index holds it): the old one steps down first.
        const previous = before ? updateMemberRow(d.sql, before.accountId, { role: "administrator", siteIds: null }) : null;
        const owner = updateMemberRow(d.sql, accountId, { role: "owner", siteIds: null });
        recordWorkspaceAudit(d.sql, c, `member ${owner.email}`, null, {
          role: "owner",
          from: { role: target.role },
          previousOwner: previous?.email ?? null,
        });
        const made = before ? revokeWhatTheyMayNotMake(d.sql, c, before, previous, "ownership") : NOTHING_MADE;
        return { owner, previous, made };
      });
      return json({ owner: result.owner, previous: result.previous, revoked: await d.settle(result.made) });
    });
  });
  router.get("/members", (_req) => json({ members: listMembers(d.sql) }));
  router.patch("/members/:accountId", async (req, c) => {
    const accountId = req.params.accountId ?? "";
    const patch = parseBody((await inputs()).memberPatch, await readJsonObject(req), "member");
    return d.change(async (ws) => {
      const current = readMember(d.sql, accountId);
      if (!current) throw new ApiError("not_found", "No such member.");
      if (current.role === "owner") throw new ApiError("conflict", "The Owner's role changes only by transferring ownership.");
      if (patch.siteIds) d.requireOwnSites(ws, patch.siteIds);
      const before = membershipOf(current, ws.id, ws.name);
      const after = { ...before, role: patch.role ?? before.role, siteIds: patch.siteIds === undefined ? before.siteIds : patch.siteIds };
      const answer = await d.pushes.apply(ws.id, [{ accountId, before, after }], () => {
        const m = updateMemberRow(d.sql, accountId, patch);
        recordWorkspaceAudit(d.sql, c, `member ${m.email}`, null, {
          role: m.role,
          siteIds: m.siteIds,
          from: { role: current.role, siteIds: current.siteIds },
        });
        return { member: m, made: revokeWhatTheyMayNotMake(d.sql, c, current, m, "role") };
      });
      return json({ member: answer.member, revoked: await d.settle(answer.made) });
    });
  });
  router.delete("/members/:accountId", async (req, c, _ws, principal) => {
    const accountId = req.params.accountId ?? "";
    const self = principal.kind === "account" && principal.accountId === accountId;
    return d.change(async (ws) => {
      const current = readMember(d.sql, accountId);
      if (!current) throw new ApiError("not_found", "No such member.");
      if (current.role === "owner") throw new ApiError("conflict", "The Owner cannot be removed; transfer ownership first.");
      if (!self) requirePermission(c.grant, "members.manage");
      // Their Account loses the workspace before it is saved: their next request is refused.
      const change = { accountId, before: membershipOf(current, ws.id, ws.name), after: null };
      const made = await d.pushes.apply(ws.id, [change], () => {
        deleteMember(d.sql, accountId);
        recordWorkspaceAudit(d.sql, c, `member ${current.email}`, null, { role: current.role, left: self });
        // What they made goes with them: their keys stop and their invitations cannot bring them back.
        return revokeWhatTheyMayNotMake(d.sql, c, current, null, self ? "left" : "removed");
      });
      // Each site ends what they made there before this answers.
      return json({ removed: true, accountId, revoked: await d.settle(made) });
    });
  });
}
