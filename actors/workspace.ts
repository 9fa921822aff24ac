/**
 * The Workspace object. A workspace owns the plan, its members and their roles, invitations, API
 * keys, and its part of the audit log. Its sites keep a copy of the plan and each member's Account
 * a copy of their membership, so that no dashboard or content request waits on the workspace; both
 * copies are pushed before a change is acknowledged (docs/accounts.md "When the Account cannot be
 * told"). This class wires the rooms of actors/workspace/ together: the shared state
 * (live-workspace.ts), the routers (routes.ts), the jobs of the one alarm (job-registry.ts), and
 * the RPC methods the front Worker calls.
 */
import { DurableObject } from "cloudflare:workers";
import { PLAN_LIMITS, planLimit, type Plan } from "../src/contract/plans";
import { ApiError } from "../src/contract/errors";
import type { Membership, Principal, PrincipalHeader } from "../src/contract/principal";
import { errorResponse, toErrorResponse } from "../src/http/errors";
import { matchOperation } from "../src/access/operations";
import { requireOperation, requirePermission, workspaceGrant } from "../src/access/grant";
import { readPrincipalHeader } from "../src/access/principal-header";
import { refusal, type Refusal } from "../src/contract/refusal";
import type { StorageReport } from "../src/contract/media-calls";
import type { InvitationMailFailure } from "../src/contract/workspaces";
import { MEDIA_LIMITS } from "../src/contract/limits";
import { firstResponse, type Router } from "./shared/router";
import { type JobHandler, runDueJobs } from "./shared/jobs";
import { verifyKey } from "./workspace/api-keys";
import { type Changer, recordWorkspaceAudit } from "./workspace/audit";
import { markAccepted, markMailFailed, membershipOf, nameMember, pendingInvitation, putMember, readMember } from "./workspace/members";
import { reserve, settle, workspaceUsage } from "./workspace/media-usage";
import { keyMakerMay, requireInviter } from "./workspace/made-by";
import { changer, LiveWorkspace, type WorkspaceRecord } from "./workspace/live-workspace";
import { type WorkspaceArgs, workspaceRoutes } from "./workspace/routes";
import { adoptPrunedAt, armPrune, finished, syncPushesJob, workspaceJobs } from "./workspace/job-registry";

export type { Refusal, WorkspaceRecord };

/** The account a workspace change is about (a new Owner, the person accepting an invitation). */
export interface AccountRef {
  accountId: string;
  email: string;
  name: string;
}

/** An API key's grant, as the front Worker turns it into a principal. */
export interface VerifiedKey {
  keyId: string;
  name: string;
  scope: "read" | "full";
  siteId: string | null;
}

export class Workspace extends DurableObject<Env> {
  #w: LiveWorkspace;
  #routers: Router<WorkspaceArgs>[];
  #jobs: Readonly<Record<string, JobHandler>>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#w = new LiveWorkspace(ctx, env);
    this.#routers = workspaceRoutes(this.#w);
    this.#jobs = workspaceJobs(this.#w);
    void this.#w.open();
  }

  /** Creates the workspace; with `owner`, that account is its Owner (self-serve), pushed to their Account first. */
  async create(input: {
    id: string;
    name: string;
    plan: Plan;
    owner?: AccountRef;
    /** Who is creating it, for the audit log. */
    by?: PrincipalHeader;
  }): Promise<WorkspaceRecord> {
    await this.#w.build();
    if (this.#w.read()) throw new Error("workspace already exists");
    const now = new Date().toISOString();
    const owner = input.owner;
    const changes = owner
      ? [
          {
            accountId: owner.accountId,
            before: null,
            after: { workspaceId: input.id, workspaceName: input.name, role: "owner" as const, siteIds: null },
          },
        ]
      : [];
    // The daily audit prune; a failed push brings the alarm forward.
    armPrune(this.#w);
    await this.#w.pushes.serial(() =>
      this.#w.pushes.apply(
        input.id,
        changes,
        () => {
          this.#w.sql.exec(
            "INSERT INTO workspace (id, name, plan, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            input.id,
            input.name,
            input.plan,
            now,
            now,
          );
          if (owner) putMember(this.#w.sql, { ...owner, role: "owner", siteIds: null, addedBy: null });
          if (input.by)
            recordWorkspaceAudit(this.#w.sql, changer("createWorkspace", input.by.principal, input.by.client), `workspace ${input.name}`);
        },
        false,
      ),
    );
    return this.#w.read() as WorkspaceRecord;
  }

  async get(): Promise<WorkspaceRecord | null> {
    await this.#w.open();
    return this.#w.read();
  }

  /** Registers a site; null when the workspace does not exist. The operator's path: no plan limit. */
  async addSite(siteId: string): Promise<WorkspaceRecord | null> {
    await this.#w.open();
    if (!this.#w.read()) return null;
    this.#w.sql.exec("INSERT OR IGNORE INTO sites (site_id, added_at) VALUES (?, ?)", siteId, new Date().toISOString());
    return this.#w.read();
  }

  /**
   * Media storage is the workspace's, for all its sites together (workspace/media-usage.ts): a
   * site reserves before an upload's first byte (refused as data: 413 storage), and settles after
   * a commit, abort, delete or sweep with its new stored total.
   */
  async reserveMedia(r: {
    siteId: string;
    reservationId: string;
    bytes: number;
    stored: StorageReport;
    expiresAt: number;
  }): Promise<{ reserved: true } | Refusal> {
    await this.#w.open();
    const ws = this.#w.read();
    if (!ws) return { error: { code: "not_found", message: "No such workspace." } };
    return this.#w.storage.transactionSync(() => reserve(this.#w.sql, ws.plan, r, Date.now()));
  }

  async settleMedia(r: { siteId: string; released: string[]; stored: StorageReport }): Promise<void> {
    await this.#w.open();
    if (this.#w.empty) return;
    this.#w.storage.transactionSync(() => settle(this.#w.sql, r));
  }

  /** Bytes of media stored by every site and reserved by uploads under way (the workspace screen, tests). */
  async mediaUsage(): Promise<{ usedBytes: number; limitBytes: number } | null> {
    await this.#w.open();
    const ws = this.#w.read();
    return ws ? { usedBytes: workspaceUsage(this.#w.sql, Date.now()), limitBytes: MEDIA_LIMITS.storageBytes[ws.plan] } : null;
  }

  /**
   * A member creating a site: their permission (site.create) and the plan's site limit are checked,
   * and the site registered and audited, in one step. Refusals come back as data.
   */
  async addSiteAs(siteId: string, siteName: string, header: PrincipalHeader): Promise<{ workspace: WorkspaceRecord } | Refusal> {
    await this.#w.open();
    try {
      const ws = this.#w.read();
      const grant = ws ? workspaceGrant(header.principal, ws.id) : null;
      if (!ws || !grant) throw new ApiError("not_found", "No such workspace.");
      requirePermission(grant, "site.create");
      if (header.principal.kind !== "operator" && ws.siteIds.length >= PLAN_LIMITS[ws.plan].sites) throw planLimit(ws.plan, "sites");
      this.#w.storage.transactionSync(() => {
        this.#w.sql.exec("INSERT OR IGNORE INTO sites (site_id, added_at) VALUES (?, ?)", siteId, new Date().toISOString());
        recordWorkspaceAudit(this.#w.sql, { ...changer("createSite", header.principal, header.client), grant }, `site ${siteName}`, siteId);
      });
      return { workspace: this.#w.read()! };
    } catch (e) {
      return refusal(e);
    }
  }

  async update(patch: { name?: string; plan?: Plan }): Promise<WorkspaceRecord | null> {
    await this.#w.open();
    return this.#w.update(patch);
  }

  /** An API key's grant when the key is live (and "last used" touched); null otherwise. */
  async verifyApiKey(key: string): Promise<VerifiedKey | null> {
    await this.#w.open();
    if (!this.#w.read()) return null;
    const row = await verifyKey(this.#w.sql, key, keyMakerMay(this.#w.sql));
    return row ? { keyId: row.id, name: row.name, scope: row.scope, siteId: row.site_id } : null;
  }

  /** The front Worker could not send an invitation's mail: the list says so from now on (workspace/members.ts). */
  async invitationMailFailed(invitationId: string, failure: InvitationMailFailure): Promise<void> {
    await this.#w.open();
    if (this.#w.read()) markMailFailed(this.#w.sql, invitationId, failure);
  }

  /** What an invitation offers, for the page that asks the person to accept it. */
  async lookupInvitation(token: string, now = Date.now()): Promise<{ invitation: Record<string, unknown> } | Refusal> {
    await this.#w.open();
    try {
      const ws = this.#w.read();
      if (!ws) throw new ApiError("not_found", "This invitation link is not valid. Ask for a new one.");
      const inv = await pendingInvitation(this.#w.sql, token, now, requireInviter(this.#w.sql));
      const by = readMember(this.#w.sql, inv.createdBy);
      return {
        invitation: {
          workspaceId: ws.id,
          workspaceName: ws.name,
          role: inv.role,
          email: inv.email,
          invitedBy: by?.name || by?.email || null,
          expiresAt: inv.expiresAt,
        },
      };
    } catch (e) {
      return refusal(e);
    }
  }

  /**
   * Accepts an invitation for a signed-in account: single use, within 7 days, not revoked, its maker
   * still allowed to invite to its role (workspace/made-by.ts), and for the account of its address if
   * it has one. The membership is pushed to the Account before this answers, so the very next request has it.
   */
  async acceptInvitation(
    token: string,
    account: AccountRef,
    client: PrincipalHeader["client"],
    now = Date.now(),
  ): Promise<{ membership: Membership } | Refusal> {
    await this.#w.open();
    try {
      return await this.#w.pushes.serial(async () => {
        const ws = this.#w.read();
        if (!ws) throw new ApiError("not_found", "This invitation link is not valid. Ask for a new one.");
        const inv = await pendingInvitation(this.#w.sql, token, now, requireInviter(this.#w.sql));
        if (inv.email !== null && inv.email.toLowerCase() !== account.email.toLowerCase())
          throw new ApiError("forbidden", `This invitation was sent to ${inv.email}. Sign in with that address to accept it.`, {
            permission: "invitation.email",
          });
        const existing = readMember(this.#w.sql, account.accountId);
        const principal: Principal = {
          kind: "account",
          accountId: account.accountId,
          label: account.email,
          name: account.name,
          memberships: [],
        };
        // Someone already in the workspace keeps the higher of the two roles (and their owner seat).
        const membership: Membership = existing
          ? membershipOf(existing, ws.id, ws.name)
          : { workspaceId: ws.id, workspaceName: ws.name, role: inv.role, siteIds: inv.siteIds };
        const change = { accountId: account.accountId, before: existing ? membership : null, after: membership };
        await this.#w.pushes.apply(ws.id, [change], () => {
          markAccepted(this.#w.sql, inv.id, account.accountId, now);
          if (!existing) putMember(this.#w.sql, { ...account, role: inv.role, siteIds: inv.siteIds, addedBy: inv.createdBy });
          recordWorkspaceAudit(this.#w.sql, changer("acceptInvitation", principal, client), `member ${account.email}`, null, {
            role: membership.role,
          });
        });
        return { membership };
      });
    } catch (e) {
      return refusal(e);
    }
  }

  /** The one alarm: runs the due jobs (pushes still owed, the audit prune) and re-arms for the next (shared/jobs.ts). */
  override async alarm(): Promise<void> {
    await this.#w.open();
    if (this.#w.empty) return;
    adoptPrunedAt(this.#w);
    syncPushesJob(this.#w);
    await runDueJobs(this.ctx.storage, this.#jobs);
    // A deleted workspace with no audit row and no push left is gone for good.
    if (finished(this.#w)) await this.#w.erase();
  }

  override async fetch(request: Request): Promise<Response> {
    await this.#w.open();
    try {
      const header = readPrincipalHeader(request);
      if (!header) return errorResponse("unauthorized", "Sign in to the dashboard, or send an API key as Authorization: Bearer <key>.");
      const ws = this.#w.read();
      const grant = ws ? workspaceGrant(header.principal, ws.id) : null;
      // A workspace the caller is not part of is one they cannot tell exists.
      if (!ws || !grant) return errorResponse("not_found", "No such workspace.");
      // Members who joined before names were passed along are named on their next request.
      if (header.principal.kind === "account" && header.principal.name)
        nameMember(this.#w.sql, header.principal.accountId, header.principal.name);
      const entry = matchOperation(request.method, new URL(request.url).pathname);
      if (!entry) return errorResponse("not_found", "No such endpoint.");
      // Leaving (removing oneself) needs no permission; the handler checks it is oneself.
      const self =
        entry.id === "removeMember" &&
        header.principal.kind === "account" &&
        request.url.endsWith(`/members/${header.principal.accountId}`);
      if (!self) requireOperation(grant, entry);
      const c: Changer = { entry, grant, client: header.client };
      return (await firstResponse(this.#routers, request, c, ws, header.principal)) ?? errorResponse("not_found", "No such endpoint.");
    } catch (err) {
      return toErrorResponse(err);
    }
  }
}
