import { DurableObject } from "cloudflare:workers";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";

const MIGRATIONS = [
  {
    idMonotonicInc: 1,
    description: "who owns this hostname",
    sql: `CREATE TABLE IF NOT EXISTS claim (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      hostname TEXT NOT NULL,
      site_id TEXT NOT NULL,
      active INTEGER NOT NULL DEFAULT 0,
      updated_at TEXT NOT NULL
    );`,
  },
];

export interface HostnameRoute {
  siteId: string;
  active: boolean;
}

/**
 * One object per hostname (`idFromName(hostname)`): the single place that
 * decides which site a hostname belongs to, so two sites can never hold the
 * same hostname, without any global lock. It also answers the front Worker's
 * Host → site lookups.
 */
export class Hostname extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      await new SQLSchemaMigrations({ doStorage: ctx.storage, migrations: MIGRATIONS }).runAll();
    });
  }

  /** Takes the hostname for `siteId`; false when another site holds it. Idempotent for the owner. */
  claim(hostname: string, siteId: string): boolean {
    const owner = this.route();
    if (owner && owner.siteId !== siteId) return false;
    if (!owner) {
      this.ctx.storage.sql.exec(
        "INSERT INTO claim (id, hostname, site_id, active, updated_at) VALUES (1, ?, ?, 0, ?)",
        hostname,
        siteId,
        new Date().toISOString(),
      );
    }
    return true;
  }

  activate(siteId: string): boolean {
    return (
      this.ctx.storage.sql.exec("UPDATE claim SET active = 1, updated_at = ? WHERE site_id = ?", new Date().toISOString(), siteId)
        .rowsWritten > 0
    );
  }

  release(siteId: string): void {
    this.ctx.storage.sql.exec("DELETE FROM claim WHERE site_id = ?", siteId);
  }

  route(): HostnameRoute | null {
    const row = this.ctx.storage.sql.exec<{ site_id: string; active: number }>("SELECT site_id, active FROM claim").toArray()[0];
    return row ? { siteId: row.site_id, active: row.active === 1 } : null;
  }
}
