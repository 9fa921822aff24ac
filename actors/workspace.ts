import { DurableObject } from "cloudflare:workers";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";
import type { Plan } from "../src/contract/plans";

export interface WorkspaceRecord {
  id: string;
  name: string;
  plan: Plan;
  siteIds: string[];
  createdAt: string;
  updatedAt: string;
}

const MIGRATIONS = [
  {
    idMonotonicInc: 1,
    description: "workspace and its sites",
    sql: `
      CREATE TABLE IF NOT EXISTS workspace (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, plan TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS sites (site_id TEXT PRIMARY KEY, added_at TEXT NOT NULL);
    `,
  },
];

/**
 * A workspace owns the plan. Its sites keep a copy so that a content request
 * never waits on the workspace; a plan change is pushed to every site before
 * the change is acknowledged.
 */
export class Workspace extends DurableObject<Env> {
  #ready: Promise<void>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#ready = ctx.blockConcurrencyWhile(() =>
      new SQLSchemaMigrations({ doStorage: ctx.storage, migrations: MIGRATIONS }).runAll().then(() => undefined),
    );
  }

  async create(input: { id: string; name: string; plan: Plan }): Promise<WorkspaceRecord> {
    await this.#ready;
    if (this.#read()) throw new Error("workspace already exists");
    const now = new Date().toISOString();
    this.ctx.storage.sql.exec(
      "INSERT INTO workspace (id, name, plan, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      input.id,
      input.name,
      input.plan,
      now,
      now,
    );
    return this.#read() as WorkspaceRecord;
  }

  async get(): Promise<WorkspaceRecord | null> {
    await this.#ready;
    return this.#read();
  }

  /** Registers a site; null when the workspace does not exist. */
  async addSite(siteId: string): Promise<WorkspaceRecord | null> {
    await this.#ready;
    if (!this.#read()) return null;
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO sites (site_id, added_at) VALUES (?, ?)", siteId, new Date().toISOString());
    return this.#read();
  }

  async update(patch: { name?: string; plan?: Plan }): Promise<WorkspaceRecord | null> {
    await this.#ready;
    const current = this.#read();
    if (!current) return null;
    const now = new Date().toISOString();
    if (patch.name !== undefined) this.ctx.storage.sql.exec("UPDATE workspace SET name = ?, updated_at = ?", patch.name, now);
    if (patch.plan !== undefined) {
      this.ctx.storage.sql.exec("UPDATE workspace SET plan = ?, updated_at = ?", patch.plan, now);
      // Every site gets the new plan before the caller hears back; a failure
      // surfaces as an error and the caller's retry pushes the plan again.
      await Promise.all(current.siteIds.map((id) => this.env.SITE.get(this.env.SITE.idFromName(id)).setPlan(patch.plan as Plan)));
    }
    return this.#read();
  }

  #read(): WorkspaceRecord | null {
    const sql = this.ctx.storage.sql;
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
