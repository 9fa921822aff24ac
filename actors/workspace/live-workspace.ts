/**
 * What a Workspace object's routes, RPC methods and jobs share: its storage, whether a workspace
 * exists here, the serial queue of member changes and pushes, and the ways to reach its sites and
 * its members' Accounts.
 */
import type { Plan } from "../../src/contract/plans";
import { ApiError } from "../../src/contract/errors";
import type { Principal, PrincipalHeader } from "../../src/contract/principal";
import { ACCESS_BY_ID, type AccessEntry } from "../../src/access/operations";
import { actorOf, type Grant } from "../../src/access/grant";
import type { AuditFilter, AuditRow } from "../shared/audit-log";
import type { Changer } from "./audit";
import { MemberPushes } from "./member-change";
import type { AccountLookup, MembershipHolder } from "./outbox";
import type { Made, Revoked } from "./made-by";
import { deliverSweeps, type SiteLookup } from "./site-sweep";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { WORKSPACE_MIGRATIONS } from "./migrations";
import { armWorkspaceJobs, retryPushesSoon, type WorkspaceJobsHost } from "./job-registry";
import { MIGRATION_MARKER } from "../shared/migration-marker";

export interface WorkspaceRecord {
  id: string;
  name: string;
  plan: Plan;
  siteIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** Who made a change the workspace records, when no route's grant says it (RPC calls: creating, accepting). */
export function changer(
  operationId: string,
  principal: Principal,
  client: PrincipalHeader["client"] = { ip: null, country: null },
): Changer {
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

export class LiveWorkspace implements WorkspaceJobsHost {
  /**
   * No workspace was ever created here (or a deleted one's storage is gone): nothing is built and
   * nothing written. A stranger's made-up API key or invitation token names a random workspace
   * id, and the object it reaches must not grow storage to say "no".
   */
  empty = true;
  /** Every change of members and every push to their Accounts, one at a time (member-change.ts). */
  readonly pushes: MemberPushes;

  readonly storage: DurableObjectStorage;
  #ready: Promise<void> | null = null;

  constructor(
    private readonly ctx: DurableObjectState,
    readonly env: Env,
  ) {
    const storage = (this.storage = ctx.storage);
    this.pushes = new MemberPushes({
      sql: storage.sql,
      transaction: (fn) => storage.transactionSync(fn),
      accounts: (accountId) => this.accounts(accountId),
      retrySoon: async () => retryPushesSoon(this),
    });
  }

  /**
   * The schema, brought up to date before any call sees the database, where one exists, and the
   * jobs a start must find armed; `build` makes it for a workspace being created.
   */
  open(): Promise<void> {
    return (this.#ready ??= this.ctx.blockConcurrencyWhile(async () => {
      this.empty = this.storage.kv.get(MIGRATION_MARKER) === undefined;
      if (this.empty) return;
      await this.#migrate();
      await armWorkspaceJobs(this);
    }));
  }

  async #migrate(): Promise<void> {
    await new SQLSchemaMigrations({ doStorage: this.storage, migrations: WORKSPACE_MIGRATIONS }).runAll();
    this.empty = false;
  }

  /** The schema of a workspace being created (the first write this object makes). */
  async build(): Promise<void> {
    await this.open();
    if (this.empty) await this.ctx.blockConcurrencyWhile(() => this.#migrate());
  }

  /** A deleted workspace with nothing left to keep: its storage and alarm go for good, and the object is empty again. */
  async erase(): Promise<void> {
    await this.storage.deleteAlarm();
    await this.storage.deleteAll();
    this.#ready = null;
    this.empty = true;
  }

  get sql(): SqlStorage {
    return this.storage.sql;
  }

  /** The Account objects, when this deployment has them (the ACCOUNT binding). */
  accounts: AccountLookup = (accountId) => {
    const ns = (this.env as unknown as { ACCOUNT?: DurableObjectNamespace }).ACCOUNT;
    return ns ? (ns.get(ns.idFromName(accountId)) as unknown as MembershipHolder) : null;
  };

  /** The site objects of this deployment, as a member's sweep reaches them. */
  sites: SiteLookup = (siteId) => this.env.SITE.get(this.env.SITE.idFromName(siteId));

  read(): WorkspaceRecord | null {
    if (this.empty) return null;
    const sql = this.sql;
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

  /** Renames or changes the plan; a new plan reaches every site before this answers. Null when there is no workspace. */
  async update(patch: { name?: string; plan?: Plan }): Promise<WorkspaceRecord | null> {
    const current = this.read();
    if (!current) return null;
    const now = new Date().toISOString();
    if (patch.name !== undefined) this.sql.exec("UPDATE workspace SET name = ?, updated_at = ?", patch.name, now);
    if (patch.plan !== undefined) {
      this.sql.exec("UPDATE workspace SET plan = ?, updated_at = ?", patch.plan, now);
      // Every site gets the new plan before the caller hears back; a failure
      // surfaces as an error and the caller's retry pushes the plan again.
      await Promise.all(current.siteIds.map((id) => this.env.SITE.get(this.env.SITE.idFromName(id)).setPlan(patch.plan as Plan)));
    }
    return this.read();
  }

  requireOwnSites(ws: WorkspaceRecord, siteIds: readonly string[]): void {
    const unknown = siteIds.filter((id) => !ws.siteIds.includes(id));
    if (unknown.length)
      throw new ApiError("bad_request", `Not a site of this workspace: ${unknown[0]}.`, { path: "siteIds", siteIds: unknown });
  }

  /** Erases every site of the workspace (their content, hostnames and sessions): all or, on a retry, the rest. */
  async destroySites(siteIds: readonly string[]): Promise<void> {
    try {
      await Promise.all(siteIds.map((id) => this.env.SITE.get(this.env.SITE.idFromName(id)).destroy()));
    } catch {
      throw new ApiError("bad_gateway", "Some of the workspace's sites could not be deleted yet. Try again in a minute.");
    }
  }

  sitePage(siteId: string, f: AuditFilter): Promise<AuditRow[]> {
    return Promise.resolve(this.env.SITE.get(this.env.SITE.idFromName(siteId)).auditPage(f)) as Promise<AuditRow[]>;
  }

  /**
   * After a change that lowered or removed a member (saved, and their Account told): each site ends
   * what they made there before the answer, which lists what went. A site not reached is retried by
   * the alarm, and the answer is then 502 (saved, not yet in effect on every site).
   */
  async settle(made: Made): Promise<Revoked> {
    const { swept, failed } = await deliverSweeps(this.sql, made.sweeps, this.sites);
    if (!failed) return { ...made.revoked, ...swept };
    retryPushesSoon(this);
    throw new ApiError(
      "bad_gateway",
      "Saved, but some of the workspace's sites have not been reached yet: the workspace tries again in 5 seconds, then less often, until each has ended what the member made there.",
      { applied: true },
    );
  }

  /** A change of members, run alone against the workspace as it is once its turn comes (it may be gone by then). */
  membersChange(fn: (ws: WorkspaceRecord) => Promise<Response>): Promise<Response> {
    return this.pushes.serial(() => {
      const ws = this.read();
      if (!ws) throw new ApiError("not_found", "No such workspace.");
      return fn(ws);
    });
  }
}
