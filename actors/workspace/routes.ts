/**
 * The workspace's routes under `/workspaces/:id`, as routers tried in order (actors/shared/router.ts):
 * its settings (read, rename, plan (plan-route.ts), delete), its members (member-routes.ts), invitations, API keys
 * and the merged audit log. The object has checked the caller and the operation's permission first.
 */
import { IttyRouter, type IRequest } from "itty-router";
import { PLAN_LIMITS, planLimit } from "../../src/contract/plans";
import { ApiError } from "../../src/contract/errors";
import type { Principal } from "../../src/contract/principal";
import { json, readJsonObject } from "../../src/http/json";
import { parseBody } from "../../src/http/validation";
import { newInvitationToken, sha256Hex } from "../../src/ids";
import { accessView } from "../../src/access/grant";
import { ittyRouter, type Router } from "../shared/router";
import { insertKey, listKeys, prepareKey, revokeKey } from "./api-keys";
import { auditCsv, type Changer, mergedAudit, parseCursor, recordWorkspaceAudit } from "./audit";
import { countMembers, insertInvitation, listInvitations, listMembers, revokeInvitationRow } from "./members";
import { deliver, enqueue } from "./outbox";
import { addMemberRoutes } from "./member-routes";
import { addPlanRoute } from "./plan-route";
import { planChange } from "../../src/contract/plan-offer";
import { visibleSiteIds } from "./visible-sites";
import { invitationMail, settledMailState } from "./invitation-mail";
import type { LiveWorkspace, WorkspaceRecord } from "./live-workspace";
import { afterDeletion, finished, retryPushesSoon } from "./job-registry";

const DAY_MS = 86_400_000;
const CSV_MAX_ROWS = 10_000;
const CSV_MAX_RANGE_MS = 92 * DAY_MS;

/** What every workspace route is handed: who changes what, the workspace, the caller. */
export type WorkspaceArgs = [Changer, WorkspaceRecord, Principal];

const newRouter = () => IttyRouter<IRequest, WorkspaceArgs>({ base: "/workspaces/:id" });

export function workspaceRoutes(w: LiveWorkspace): Router<WorkspaceArgs>[] {
  // The bodies' schemas (zod) load on the first write, never at start-up (docs/caching.md).
  const sites = () => import("../../src/contract/sites");
  const inputs = () => import("../../src/contract/workspaces");
  const settings = newRouter();
  const record = (c: Changer, target: string, siteId: string | null = null, details?: unknown) =>
    recordWorkspaceAudit(w.sql, c, target, siteId, details);
  settings.get("/", (_req, c, ws, principal) =>
    json({
      workspace: { ...ws, siteIds: visibleSiteIds(w.sql, principal, ws.siteIds) },
      access: accessView(c.grant),
      planChange: planChange(w.env),
    }),
  );
  settings.patch("/", async (req, c, ws) => {
    const body = await readJsonObject(req);
    const patch = parseBody((await sites()).workspacePatch, body, "workspace");
    // Plans change only by the operator (or, later, billing).
    if (patch.plan !== undefined && c.grant.role !== "operator")
      throw new ApiError("forbidden", "Only the operator can change a workspace's plan.", {
        permission: "operator",
        role: c.grant.role,
      });
    if (patch.name !== undefined && patch.plan === undefined) {
      w.storage.transactionSync(() => {
        w.sql.exec("UPDATE workspace SET name = ?, updated_at = ?", patch.name, new Date().toISOString());
        record(c, `workspace ${patch.name}`, null, { from: ws.name });
      });
      return json({ workspace: w.read() });
    }
    const workspace = await w.update(patch);
    w.storage.transactionSync(() => record(c, `workspace ${workspace!.name}`, null, patch));
    return json({ workspace });
  });
  addPlanRoute(settings, w);
  // Deleting the workspace (Owner only, confirmed by its name): its sites are erased first (a
  // failure answers 502 and a retry finishes), then its people, invitations and keys go in one
  // transaction with the audit row; the workspace's audit log stays, pruned as before.
  settings.delete("/", async (req, c, ws) => {
    const { confirm } = parseBody((await inputs()).workspaceDelete, await readJsonObject(req), "workspace");
    if (confirm !== ws.name)
      throw new ApiError("bad_request", `Type the workspace's name, “${ws.name}”, to delete it.`, { path: "confirm" });
    await w.destroySites(ws.siteIds);
    return w.pushes.serial(async () => {
      const members = listMembers(w.sql);
      const seqs: number[] = [];
      // Saved before the pushes: with its sites erased and its row gone, a membership the
      // Account still holds reaches nothing.
      w.storage.transactionSync(() => {
        for (const m of members) seqs.push(enqueue(w.sql, m.accountId, ws.id, null));
        w.sql.exec("DELETE FROM members");
        w.sql.exec("DELETE FROM invitations");
        w.sql.exec("DELETE FROM api_keys");
        w.sql.exec("DELETE FROM sites");
        w.sql.exec("DELETE FROM workspace");
        record(c, `workspace ${ws.name}`, null, { sites: ws.siteIds, members: members.length });
      });
      // Every member's account loses the workspace before this answers (or the alarm retries).
      const pushed = await Promise.all(seqs.map((seq) => deliver(w.sql, seq, w.accounts)));
      if (pushed.includes(false)) retryPushesSoon(w);
      // No more daily wake-ups: only the kept audit log's expiry (or a push still owed).
      afterDeletion(w);
      if (finished(w)) await w.erase();
      return json({ deleted: true, workspaceId: ws.id, siteIds: ws.siteIds });
    });
  });
  const members = newRouter();
  addMemberRoutes(members, {
    sql: w.sql,
    pushes: w.pushes,
    change: (fn) => w.membersChange(fn),
    requireOwnSites: (ws, siteIds) => w.requireOwnSites(ws, siteIds),
    settle: (made) => w.settle(made),
  });
  const invitations = newRouter();
  invitations.get("/invitations", (_req) => json({ invitations: listInvitations(w.sql) }));
  invitations.post("/invitations", async (req, c, ws) => {
    const input = parseBody((await inputs()).invitationCreate, await readJsonObject(req), "invitation");
    if (input.siteIds) w.requireOwnSites(ws, input.siteIds);
    const byOperator = c.grant.role === "operator";
    const requireSeat = () => {
      if (!byOperator && countMembers(w.sql) >= PLAN_LIMITS[ws.plan].members) throw planLimit(ws.plan, "members");
    };
    requireSeat();
    const token = newInvitationToken(ws.id);
    const tokenHash = await sha256Hex(token);
    // Whether it is mailed (workspace/invitation-mail.ts), settled where the row is written.
    const email = input.email?.toLowerCase() ?? null;
    const inviter = byOperator ? null : (c.grant.actor.id ?? c.grant.actor.label);
    const mail = await invitationMail(w.env, w.sql, ws.plan, inviter, email);
    const invitation = w.storage.transactionSync(() => {
      // Asked again: other invitations may have been made while the mail checks were awaited
      // (a refusal here leaves that rare mail's counts spent: on the safe side).
      requireSeat();
      const now = Date.now();
      const inv = insertInvitation(w.sql, {
        tokenHash,
        email,
        role: input.role,
        siteIds: input.siteIds ?? null,
        createdBy: c.grant.actor.id ?? c.grant.actor.label,
        now,
        mailState: settledMailState(w.sql, ws.plan, inviter, mail, now),
      });
      record(c, `invitation ${inv.email ?? "(link)"}`, null, { role: inv.role, id: inv.id, mailState: inv.mailState });
      return inv;
    });
    if (invitation.mailState !== mail.state) await mail.undo();
    // The secret is in the fragment: it never reaches a server log or a Referer.
    const link = `${new URL(req.url).origin}/dashboard/#/invite/${token}`;
    return json({ invitation, token, link, workspaceName: ws.name }, 201);
  });
  invitations.delete("/invitations/:invitationId", (req, c) => {
    const invitation = w.storage.transactionSync(() => {
      const inv = revokeInvitationRow(w.sql, req.params.invitationId ?? "");
      record(c, `invitation ${inv.email ?? "(link)"}`, null, { id: inv.id });
      return inv;
    });
    return json({ invitation });
  });
  const apiKeys = newRouter();
  apiKeys.get("/api-keys", (_req) => json({ apiKeys: listKeys(w.sql) }));
  apiKeys.post("/api-keys", async (req, c, ws) => {
    const input = parseBody((await inputs()).apiKeyCreate, await readJsonObject(req), "API key");
    if (input.siteId) w.requireOwnSites(ws, [input.siteId]);
    const { key, hash } = await prepareKey(ws.id);
    const apiKey = w.storage.transactionSync(() => {
      const k = insertKey(w.sql, {
        name: input.name,
        scope: input.scope,
        siteId: input.siteId ?? null,
        hash,
        createdBy: c.grant.actor.label,
        createdByAccount: c.grant.actor.kind === "account" ? c.grant.actor.id : null,
      });
      record(c, `API key ${k.name}`, k.siteId, { scope: k.scope, id: k.id });
      return k;
    });
    // The key is shown once, here; the workspace keeps only its SHA-256.
    return json({ apiKey: { ...apiKey, key } }, 201);
  });
  apiKeys.delete("/api-keys/:keyId", (req, c) => {
    const apiKey = w.storage.transactionSync(() => {
      const k = revokeKey(w.sql, req.params.keyId ?? "");
      record(c, `API key ${k.name}`, k.siteId, { id: k.id });
      return k;
    });
    return json({ apiKey });
  });
  const audit = newRouter();
  audit.get("/audit", async (req, _c, ws) => {
    const url = new URL(req.url);
    const q = url.searchParams;
    const limit = Math.max(1, Math.min(200, Number(q.get("limit") ?? 50) || 50));
    const page = await mergedAudit(w.sql, ws.siteIds, (id, f) => w.sitePage(id, f), {
      actor: q.get("actor") || null,
      siteId: q.get("siteId") || null,
      kind: q.get("kind") || null,
      before: parseCursor(q.get("before")),
      from: null,
      to: null,
      limit,
    });
    return json(page);
  });
  audit.get("/audit.csv", async (req, _c, ws) => {
    const q = new URL(req.url).searchParams;
    const to = q.get("to") ? Date.parse(q.get("to")!) : Date.now();
    const from = q.get("from") ? Date.parse(q.get("from")!) : to - 90 * DAY_MS;
    if (!Number.isFinite(from) || !Number.isFinite(to) || to < from)
      throw new ApiError("bad_request", "`from` and `to` must be ISO dates, `from` first.", { path: "from" });
    if (to - from > CSV_MAX_RANGE_MS)
      throw new ApiError("bad_request", "One export covers at most 92 days; export a shorter range.", { path: "from" });
    const entries = [];
    let before = null;
    // Page after page, bounded: at most CSV_MAX_ROWS rows in one file.
    while (entries.length < CSV_MAX_ROWS) {
      const page = await mergedAudit(w.sql, ws.siteIds, (id, f) => w.sitePage(id, f), {
        actor: q.get("actor") || null,
        siteId: q.get("siteId") || null,
        kind: q.get("kind") || null,
        before,
        from,
        to,
        limit: 200,
      });
      entries.push(...page.entries);
      if (!page.next) break;
      before = parseCursor(page.next);
    }
    return new Response(await auditCsv(entries.slice(0, CSV_MAX_ROWS)), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="activity-${ws.id}.csv"`,
        "cache-control": "no-store",
      },
    });
  });
  return [settings, members, invitations, apiKeys, audit].map(ittyRouter);
}
