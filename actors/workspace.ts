import { DurableObject } from "cloudflare:workers";
import { IttyRouter, type IRequest, type IttyRouterType } from "itty-router";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { PLAN_LIMITS, planLimit, type Plan } from "../src/contract/plans";
import { ApiError } from "../src/contract/errors";
import type { Membership, Principal, PrincipalHeader } from "../src/contract/principal";
import { errorResponse, toErrorResponse } from "../src/http/errors";
import { json, readJsonObject } from "../src/http/json";
import { parseBody } from "../src/http/validation";
import { newInvitationToken, sha256Hex } from "../src/ids";
import { ACCESS_BY_ID, matchOperation, type AccessEntry } from "../src/access/operations";
import { accessView, actorOf, type Grant, requireOperation, requirePermission, workspaceGrant } from "../src/access/grant";
import { readPrincipalHeader } from "../src/access/principal-header";
import type { Refusal } from "../src/contract/refusal";
import { WORKSPACE_MIGRATIONS } from "./workspace/migrations";
import { insertKey, listKeys, prepareKey, revokeKey, verifyKey } from "./workspace/api-keys";
import {
  auditCsv,
  type Changer,
  mergedAudit,
  oldestAuditAt,
  parseCursor,
  pruneWorkspaceAudit,
  recordWorkspaceAudit,
} from "./workspace/audit";
import {
  countMembers,
  insertInvitation,
  listInvitations,
  listMembers,
  markAccepted,
  membershipOf,
  pendingInvitation,
  putMember,
  readMember,
  revokeInvitationRow,
} from "./workspace/members";
import { type AccountLookup, deliver, drain, enqueue, type MembershipHolder } from "./workspace/outbox";
import { MemberPushes } from "./workspace/member-change";
import { addMemberRoutes } from "./workspace/member-routes";
import { AUDIT_RETENTION_MS, type AuditFilter, type AuditRow } from "./shared/audit-log";
import { reserve, settle, workspaceUsage } from "./workspace/media-usage";
import { keyMakerMay, type Made, type Revoked, requireInviter } from "./workspace/made-by";
import { deliverSweeps, drainSweeps, type SiteLookup } from "./workspace/site-sweep";
import type { StorageReport } from "../src/contract/media-calls";
import { MEDIA_LIMITS } from "../src/contract/limits";
import { visibleSiteIds } from "./workspace/visible-sites";
import { invitationMail, settledMailState } from "./workspace/invitation-mail";

export interface WorkspaceRecord {
  id: string;
  name: string;
  plan: Plan;
  siteIds: string[];
  createdAt: string;
  updatedAt: string;
}

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

/** Answers of RPC calls that can be refused: the error travels as data (an ApiError does not survive RPC). */
export type { Refusal };
const refusal = (e: unknown): Refusal => {
  if (e instanceof ApiError) return { error: { code: e.code, message: e.message, details: e.details } };
  throw e;
};

const DAY_MS = 86_400_000;
/** What SQLSchemaMigrations keeps once it has run (durable-utils): present wherever a schema was built. */
const MIGRATION_MARKER = "__sql_migrations_lastID";
const CSV_MAX_ROWS = 10_000;
const CSV_MAX_RANGE_MS = 92 * DAY_MS;

/**
 * A workspace owns the plan, its members and their roles, invitations, API keys, and its part of
 * the audit log. Its sites keep a copy of the plan and each member's Account a copy of their
 * membership, so that no dashboard or content request waits on the workspace; both copies are
 * pushed before a change is acknowledged (docs/accounts.md "When the Account cannot be told").
 */
export class Workspace extends DurableObject<Env> {
  #ready: Promise<void> | null = null;
  /**
   * No workspace was ever created here (or a deleted one's storage is gone): nothing is built and
   * nothing written. A stranger's made-up API key or invitation token names a random workspace
   * id, and the object it reaches must not grow storage to say "no" (issue 24 point 2).
   */
  #empty = true;
  /** Every change of members and every push to their Accounts, one at a time (workspace/member-change.ts). */
  #pushes = new MemberPushes({
    sql: this.ctx.storage.sql,
    transaction: (fn) => this.ctx.storage.transactionSync(fn),
    accounts: (accountId) => this.#accounts(accountId),
    retrySoon: () => this.ctx.storage.setAlarm(Date.now() + 5_000),
  });
  #router = this.#routes();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void this.#open();
  }

  /**
   * The schema, brought up to date before any call sees the database, where one exists; `create`
   * builds it (#build). A workspace from before the prune alarm was armed at creation gets it here.
   */
  #open(): Promise<void> {
    return (this.#ready ??= this.ctx.blockConcurrencyWhile(async () => {
      this.#empty = this.ctx.storage.kv.get(MIGRATION_MARKER) === undefined;
      if (this.#empty) return;
      await this.#migrate();
      if (this.#read() && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
    }));
  }

  async #migrate(): Promise<void> {
    await new SQLSchemaMigrations({ doStorage: this.ctx.storage, migrations: WORKSPACE_MIGRATIONS }).runAll();
    this.#empty = false;
  }

  /** The schema of a workspace being created (the first write this object makes). */
  async #build(): Promise<void> {
    await this.#open();
    if (this.#empty) await this.ctx.blockConcurrencyWhile(() => this.#migrate());
  }

  get #sql(): SqlStorage {
    return this.ctx.storage.sql;
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
    await this.#build();
    if (this.#read()) throw new Error("workspace already exists");
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
    await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
    await this.#pushes.serial(() =>
      this.#pushes.apply(
        input.id,
        changes,
        () => {
          this.#sql.exec(
            "INSERT INTO workspace (id, name, plan, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            input.id,
            input.name,
            input.plan,
            now,
            now,
          );
          if (owner) putMember(this.#sql, { ...owner, role: "owner", siteIds: null, addedBy: null });
          if (input.by)
            recordWorkspaceAudit(
              this.#sql,
              this.#changer("createWorkspace", input.by.principal, input.by.client),
              `workspace ${input.name}`,
            );
        },
        false,
      ),
    );
    return this.#read() as WorkspaceRecord;
  }

  async get(): Promise<WorkspaceRecord | null> {
    await this.#open();
    return this.#read();
  }

  /** Registers a site; null when the workspace does not exist. The operator's path: no plan limit. */
  async addSite(siteId: string): Promise<WorkspaceRecord | null> {
    await this.#open();
    if (!this.#read()) return null;
    this.#sql.exec("INSERT OR IGNORE INTO sites (site_id, added_at) VALUES (?, ?)", siteId, new Date().toISOString());
    return this.#read();
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
    await this.#open();
    const ws = this.#read();
    if (!ws) return { error: { code: "not_found", message: "No such workspace." } };
    return this.ctx.storage.transactionSync(() => reserve(this.#sql, ws.plan, r, Date.now()));
  }

  async settleMedia(r: { siteId: string; released: string[]; stored: StorageReport }): Promise<void> {
    await this.#open();
    if (this.#empty) return;
    this.ctx.storage.transactionSync(() => settle(this.#sql, r));
  }

  /** Bytes of media stored by every site and reserved by uploads under way (the workspace screen, tests). */
  async mediaUsage(): Promise<{ usedBytes: number; limitBytes: number } | null> {
    await this.#open();
    const ws = this.#read();
    return ws ? { usedBytes: workspaceUsage(this.#sql, Date.now()), limitBytes: MEDIA_LIMITS.storageBytes[ws.plan] } : null;
  }

  /**
   * A member creating a site: their permission (site.create) and the plan's site limit are checked,
   * and the site registered and audited, in one step. Refusals come back as data.
   */
  async addSiteAs(siteId: string, siteName: string, header: PrincipalHeader): Promise<{ workspace: WorkspaceRecord } | Refusal> {
    await this.#open();
    try {
      const ws = this.#read();
      const grant = ws ? workspaceGrant(header.principal, ws.id) : null;
      if (!ws || !grant) throw new ApiError("not_found", "No such workspace.");
      requirePermission(grant, "site.create");
      if (header.principal.kind !== "operator" && ws.siteIds.length >= PLAN_LIMITS[ws.plan].sites) throw planLimit(ws.plan, "sites");
      this.ctx.storage.transactionSync(() => {
        this.#sql.exec("INSERT OR IGNORE INTO sites (site_id, added_at) VALUES (?, ?)", siteId, new Date().toISOString());
        recordWorkspaceAudit(
          this.#sql,
          { ...this.#changer("createSite", header.principal, header.client), grant },
          `site ${siteName}`,
          siteId,
        );
      });
      return { workspace: this.#read()! };
    } catch (e) {
      return refusal(e);
    }
  }

  async update(patch: { name?: string; plan?: Plan }): Promise<WorkspaceRecord | null> {
    await this.#open();
    const current = this.#read();
    if (!current) return null;
    const now = new Date().toISOString();
    if (patch.name !== undefined) this.#sql.exec("UPDATE workspace SET name = ?, updated_at = ?", patch.name, now);
    if (patch.plan !== undefined) {
      this.#sql.exec("UPDATE workspace SET plan = ?, updated_at = ?", patch.plan, now);
      // Every site gets the new plan before the caller hears back; a failure
      // surfaces as an error and the caller's retry pushes the plan again.
      await Promise.all(current.siteIds.map((id) => this.env.SITE.get(this.env.SITE.idFromName(id)).setPlan(patch.plan as Plan)));
    }
    return this.#read();
  }

  /** An API key's grant when the key is live (and "last used" touched); null otherwise. */
  async verifyApiKey(key: string): Promise<VerifiedKey | null> {
    await this.#open();
    if (!this.#read()) return null;
    const row = await verifyKey(this.#sql, key, keyMakerMay(this.#sql));
    return row ? { keyId: row.id, name: row.name, scope: row.scope, siteId: row.site_id } : null;
  }

  /** What an invitation offers, for the page that asks the person to accept it. */
  async lookupInvitation(token: string, now = Date.now()): Promise<{ invitation: Record<string, unknown> } | Refusal> {
    await this.#open();
    try {
      const ws = this.#read();
      if (!ws) throw new ApiError("not_found", "This invitation link is not valid. Ask for a new one.");
      const inv = await pendingInvitation(this.#sql, token, now, requireInviter(this.#sql));
      const by = readMember(this.#sql, inv.createdBy);
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
    await this.#open();
    try {
      return await this.#pushes.serial(async () => {
        const ws = this.#read();
        if (!ws) throw new ApiError("not_found", "This invitation link is not valid. Ask for a new one.");
        const inv = await pendingInvitation(this.#sql, token, now, requireInviter(this.#sql));
        if (inv.email !== null && inv.email.toLowerCase() !== account.email.toLowerCase())
          throw new ApiError("forbidden", `This invitation was sent to ${inv.email}. Sign in with that address to accept it.`, {
            permission: "invitation.email",
          });
        const existing = readMember(this.#sql, account.accountId);
        const principal: Principal = { kind: "account", accountId: account.accountId, label: account.email, memberships: [] };
        // Someone already in the workspace keeps the higher of the two roles (and their owner seat).
        const membership: Membership = existing
          ? membershipOf(existing, ws.id, ws.name)
          : { workspaceId: ws.id, workspaceName: ws.name, role: inv.role, siteIds: inv.siteIds };
        const change = { accountId: account.accountId, before: existing ? membership : null, after: membership };
        await this.#pushes.apply(ws.id, [change], () => {
          markAccepted(this.#sql, inv.id, account.accountId, now);
          if (!existing) putMember(this.#sql, { ...account, role: inv.role, siteIds: inv.siteIds, addedBy: inv.createdBy });
          recordWorkspaceAudit(this.#sql, this.#changer("acceptInvitation", principal, client), `member ${account.email}`, null, {
            role: membership.role,
          });
        });
        return { membership };
      });
    } catch (e) {
      return refusal(e);
    }
  }

  /** The one alarm: membership pushes still owed, and the daily audit prune. */
  override async alarm(): Promise<void> {
    await this.#open();
    if (this.#empty) return;
    const accounts = await this.#pushes.serial(() => drain(this.#sql, this.#accounts));
    const pushes = [accounts, await drainSweeps(this.#sql, this.#sites)].filter((t) => t !== null);
    const nextPush = pushes.length ? Math.min(...pushes) : null;
    const last = Number(this.ctx.storage.kv.get("audit_pruned_at") ?? 0);
    if (Date.now() - last >= DAY_MS) {
      pruneWorkspaceAudit(this.#sql, Date.now());
      this.ctx.storage.kv.put("audit_pruned_at", Date.now());
    }
    await this.#arm(nextPush);
  }

  /**
   * Sets the one alarm for what is due next: a push still owed, the daily prune. A deleted
   * workspace keeps only its audit log (for the retention): it wakes when its oldest row expires
   * (at most daily), and once no row and no push is left its storage and alarm go for good.
   */
  async #arm(nextPush: number | null): Promise<void> {
    const nextPrune = Number(this.ctx.storage.kv.get("audit_pruned_at") ?? Date.now()) + DAY_MS;
    if (this.#read()) return this.ctx.storage.setAlarm(nextPush === null ? nextPrune : Math.min(nextPush, nextPrune));
    const oldest = oldestAuditAt(this.#sql);
    if (oldest === null && nextPush === null) {
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      this.#ready = null;
      this.#empty = true;
      return;
    }
    const expiry = oldest === null ? Infinity : Math.max(oldest + AUDIT_RETENTION_MS + 1, nextPrune);
    await this.ctx.storage.setAlarm(Math.min(nextPush ?? Infinity, expiry));
  }

  override async fetch(request: Request): Promise<Response> {
    await this.#open();
    try {
      const header = readPrincipalHeader(request);
      if (!header) return errorResponse("unauthorized", "Sign in to the dashboard, or send an API key as Authorization: Bearer <key>.");
      const ws = this.#read();
      const grant = ws ? workspaceGrant(header.principal, ws.id) : null;
      // A workspace the caller is not part of is one they cannot tell exists.
      if (!ws || !grant) return errorResponse("not_found", "No such workspace.");
      const entry = matchOperation(request.method, new URL(request.url).pathname);
      if (!entry) return errorResponse("not_found", "No such endpoint.");
      // Leaving (removing oneself) needs no permission; the handler checks it is oneself.
      const self =
        entry.id === "removeMember" &&
        header.principal.kind === "account" &&
        request.url.endsWith(`/members/${header.principal.accountId}`);
      if (!self) requireOperation(grant, entry);
      const changer: Changer = { entry, grant, client: header.client };
      return (
        ((await this.#router.fetch(request, changer, ws, header.principal)) as Response | undefined) ??
        errorResponse("not_found", "No such endpoint.")
      );
    } catch (err) {
      return toErrorResponse(err);
    }
  }

  #routes(): IttyRouterType<IRequest, [Changer, WorkspaceRecord, Principal]> {
    // The bodies' schemas (zod) load on the first write, never at start-up (docs/caching.md).
    const sites = () => import("../src/contract/sites");
    const inputs = () => import("../src/contract/workspaces");
    const router = IttyRouter<IRequest, [Changer, WorkspaceRecord, Principal]>({ base: "/workspaces/:id" });
    const audit = (c: Changer, target: string, siteId: string | null = null, details?: unknown) =>
      recordWorkspaceAudit(this.#sql, c, target, siteId, details);
    router.get("/", (_req, c, ws, principal) =>
      json({ workspace: { ...ws, siteIds: visibleSiteIds(this.#sql, principal, ws.siteIds) }, access: accessView(c.grant) }),
    );
    router.patch("/", async (req, c, ws) => {
      const body = await readJsonObject(req);
      const patch = parseBody((await sites()).workspacePatch, body, "workspace");
      // Plans change only by the operator (or, later, billing).
      if (patch.plan !== undefined && c.grant.role !== "operator")
        throw new ApiError("forbidden", "Only the operator can change a workspace's plan.", {
          permission: "operator",
          role: c.grant.role,
        });
      if (patch.name !== undefined && patch.plan === undefined) {
        this.ctx.storage.transactionSync(() => {
          this.#sql.exec("UPDATE workspace SET name = ?, updated_at = ?", patch.name, new Date().toISOString());
          audit(c, `workspace ${patch.name}`, null, { from: ws.name });
        });
        return json({ workspace: this.#read() });
      }
      const workspace = await this.update(patch);
      this.ctx.storage.transactionSync(() => audit(c, `workspace ${workspace!.name}`, null, patch));
      return json({ workspace });
    });
    // Deleting the workspace (Owner only, confirmed by its name): its sites are erased first (a
    // failure answers 502 and a retry finishes), then its people, invitations and keys go in one
    // transaction with the audit row; the workspace's audit log stays, pruned as before.
    router.delete("/", async (req, c, ws) => {
      const { confirm } = parseBody((await inputs()).workspaceDelete, await readJsonObject(req), "workspace");
      if (confirm !== ws.name)
        throw new ApiError("bad_request", `Type the workspace's name, “${ws.name}”, to delete it.`, { path: "confirm" });
      await this.#destroySites(ws.siteIds);
      return this.#pushes.serial(async () => {
        const members = listMembers(this.#sql);
        const seqs: number[] = [];
        // Saved before the pushes: with its sites erased and its row gone, a membership the
        // Account still holds reaches nothing.
        this.ctx.storage.transactionSync(() => {
          for (const m of members) seqs.push(enqueue(this.#sql, m.accountId, ws.id, null));
          this.#sql.exec("DELETE FROM members");
          this.#sql.exec("DELETE FROM invitations");
          this.#sql.exec("DELETE FROM api_keys");
          this.#sql.exec("DELETE FROM sites");
          this.#sql.exec("DELETE FROM workspace");
          audit(c, `workspace ${ws.name}`, null, { sites: ws.siteIds, members: members.length });
        });
        // Every member's account loses the workspace before this answers (or the alarm retries).
        const pushed = await Promise.all(seqs.map((seq) => deliver(this.#sql, seq, this.#accounts)));
        // No more daily wake-ups: only the kept audit log's expiry (or a push still owed).
        await this.#arm(pushed.includes(false) ? Date.now() + 5_000 : null);
        return json({ deleted: true, workspaceId: ws.id, siteIds: ws.siteIds });
      });
    });
    addMemberRoutes(router, {
      sql: this.#sql,
      pushes: this.#pushes,
      change: (fn) => this.#membersChange(fn),
      requireOwnSites: (ws, siteIds) => this.#requireOwnSites(ws, siteIds),
      settle: (made) => this.#settle(made),
    });
    router.get("/invitations", (_req) => json({ invitations: listInvitations(this.#sql) }));
    router.post("/invitations", async (req, c, ws) => {
      const input = parseBody((await inputs()).invitationCreate, await readJsonObject(req), "invitation");
      if (input.siteIds) this.#requireOwnSites(ws, input.siteIds);
      const byOperator = c.grant.role === "operator";
      const requireSeat = () => {
        if (!byOperator && countMembers(this.#sql) >= PLAN_LIMITS[ws.plan].members) throw planLimit(ws.plan, "members");
      };
      requireSeat();
      const token = newInvitationToken(ws.id);
      const tokenHash = await sha256Hex(token);
      // Whether it is mailed (workspace/invitation-mail.ts), settled where the row is written.
      const email = input.email?.toLowerCase() ?? null;
      const inviter = byOperator ? null : (c.grant.actor.id ?? c.grant.actor.label);
      const mail = await invitationMail(this.env, this.#sql, ws.plan, inviter, email);
      const invitation = this.ctx.storage.transactionSync(() => {
        // Asked again: other invitations may have been made while the mail checks were awaited
        // (a refusal here leaves that rare mail's counts spent: on the safe side).
        requireSeat();
        const now = Date.now();
        const inv = insertInvitation(this.#sql, {
          tokenHash,
          email,
          role: input.role,
          siteIds: input.siteIds ?? null,
          createdBy: c.grant.actor.id ?? c.grant.actor.label,
          now,
          mailState: settledMailState(this.#sql, ws.plan, inviter, mail, now),
        });
        audit(c, `invitation ${inv.email ?? "(link)"}`, null, { role: inv.role, id: inv.id, mailState: inv.mailState });
        return inv;
      });
      if (invitation.mailState !== mail.state) await mail.undo();
      // The secret is in the fragment: it never reaches a server log or a Referer.
      const link = `${new URL(req.url).origin}/dashboard/#/invite/${token}`;
      return json({ invitation, token, link, workspaceName: ws.name }, 201);
    });
    router.delete("/invitations/:invitationId", (req, c) => {
      const invitation = this.ctx.storage.transactionSync(() => {
        const inv = revokeInvitationRow(this.#sql, req.params.invitationId ?? "");
        audit(c, `invitation ${inv.email ?? "(link)"}`, null, { id: inv.id });
        return inv;
      });
      return json({ invitation });
    });
    router.get("/api-keys", (_req) => json({ apiKeys: listKeys(this.#sql) }));
    router.post("/api-keys", async (req, c, ws) => {
      const input = parseBody((await inputs()).apiKeyCreate, await readJsonObject(req), "API key");
      if (input.siteId) this.#requireOwnSites(ws, [input.siteId]);
      const { key, hash } = await prepareKey(ws.id);
      const apiKey = this.ctx.storage.transactionSync(() => {
        const k = insertKey(this.#sql, {
          name: input.name,
          scope: input.scope,
          siteId: input.siteId ?? null,
          hash,
          createdBy: c.grant.actor.label,
          createdByAccount: c.grant.actor.kind === "account" ? c.grant.actor.id : null,
        });
        audit(c, `API key ${k.name}`, k.siteId, { scope: k.scope, id: k.id });
        return k;
      });
      // The key is shown once, here; the workspace keeps only its SHA-256.
      return json({ apiKey: { ...apiKey, key } }, 201);
    });
    router.delete("/api-keys/:keyId", (req, c) => {
      const apiKey = this.ctx.storage.transactionSync(() => {
        const k = revokeKey(this.#sql, req.params.keyId ?? "");
        audit(c, `API key ${k.name}`, k.siteId, { id: k.id });
        return k;
      });
      return json({ apiKey });
    });
    router.get("/audit", async (req, _c, ws) => {
      const url = new URL(req.url);
      const q = url.searchParams;
      const limit = Math.max(1, Math.min(200, Number(q.get("limit") ?? 50) || 50));
      const page = await mergedAudit(this.#sql, ws.siteIds, (id, f) => this.#sitePage(id, f), {
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
    router.get("/audit.csv", async (req, _c, ws) => {
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
        const page = await mergedAudit(this.#sql, ws.siteIds, (id, f) => this.#sitePage(id, f), {
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
    return router;
  }

  #requireOwnSites(ws: WorkspaceRecord, siteIds: readonly string[]): void {
    const unknown = siteIds.filter((id) => !ws.siteIds.includes(id));
    if (unknown.length)
      throw new ApiError("bad_request", `Not a site of this workspace: ${unknown[0]}.`, { path: "siteIds", siteIds: unknown });
  }

  /** Erases every site of the workspace (their content, hostnames and sessions): all or, on a retry, the rest. */
  async #destroySites(siteIds: readonly string[]): Promise<void> {
    try {
      await Promise.all(siteIds.map((id) => this.env.SITE.get(this.env.SITE.idFromName(id)).destroy()));
    } catch {
      throw new ApiError("bad_gateway", "Some of the workspace's sites could not be deleted yet. Try again in a minute.");
    }
  }

  #sitePage(siteId: string, f: AuditFilter): Promise<AuditRow[]> {
    return Promise.resolve(this.env.SITE.get(this.env.SITE.idFromName(siteId)).auditPage(f)) as Promise<AuditRow[]>;
  }

  #changer(operationId: string, principal: Principal, client: PrincipalHeader["client"] = { ip: null, country: null }): Changer {
    const entry: AccessEntry = ACCESS_BY_ID.get(operationId) ?? {
      id: operationId,
      method: "post",
      path: "",
      kind: "Members",
      access: { who: "account" },
    };
    // Only the actor and operation of this grant are read (for the audit row); it grants nothing.
    const grant: Grant = { permissions: new Set(), role: "owner", actor: actorOf(principal) };
    return { entry, grant, client };
  }

  /** The Account objects, when this deployment has them (the ACCOUNT binding). */
  #accounts: AccountLookup = (accountId) => {
    const ns = (this.env as unknown as { ACCOUNT?: DurableObjectNamespace }).ACCOUNT;
    return ns ? (ns.get(ns.idFromName(accountId)) as unknown as MembershipHolder) : null;
  };

  /** The site objects of this deployment, as a member's sweep reaches them. */
  #sites: SiteLookup = (siteId) => this.env.SITE.get(this.env.SITE.idFromName(siteId));

  /**
   * After a change that lowered or removed a member (saved, and their Account told): each site ends
   * what they made there before the answer, which lists what went. A site not reached is retried by
   * the alarm, and the answer is then 502 (saved, not yet in effect on every site).
   */
  async #settle(made: Made): Promise<Revoked> {
    const { swept, failed } = await deliverSweeps(this.#sql, made.sweeps, this.#sites);
    if (!failed) return { ...made.revoked, ...swept };
    await this.ctx.storage.setAlarm(Date.now() + 5_000);
    throw new ApiError(
      "bad_gateway",
      "Saved, but some of the workspace's sites have not been reached yet: the workspace tries again in 5 seconds, then less often, until each has ended what the member made there.",
      { applied: true },
    );
  }

  /** A change of members, run alone against the workspace as it is once its turn comes (it may be gone by then). */
  #membersChange(fn: (ws: WorkspaceRecord) => Promise<Response>): Promise<Response> {
    return this.#pushes.serial(() => {
      const ws = this.#read();
      if (!ws) throw new ApiError("not_found", "No such workspace.");
      return fn(ws);
    });
  }

  #read(): WorkspaceRecord | null {
    if (this.#empty) return null;
    const sql = this.#sql;
    const row = sql
      .exec<{ id: string; name: string; plan: string; created_at: string; updated_at: string }>("SELECT * FROM workspace")
      .toArray()[0];
    if (!row) return null;
    const siteIds = sql
      .exec<{ site_id: string }>("SELECT site_id FROM sites ORDER BY added_at")
      .toArray()
      .map((r) => r.site_id);
    return { id: row.id, name: row.name, plan: row.plan as Plan, siteIds, createdAt: row.created_at, updatedAt: row.updated_at };
  }
}
