import { DurableObject } from "cloudflare:workers";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { sha256Hex } from "../src/ids";
import { newOperatorSessionId } from "../src/identity/session-policy";
import { SessionStore } from "./shared/session-store";
import type { SessionInfo } from "../src/identity/session-policy";

const MIGRATIONS = [
  {
    idMonotonicInc: 1,
    description: "operator sessions and the operator token they were made with",
    sql: `
      CREATE TABLE IF NOT EXISTS sessions (id_hash TEXT PRIMARY KEY, created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS operator_token (hash TEXT NOT NULL);
    `,
  },
];

/**
 * The operator's dashboard sessions (one object, `idFromName("operator")`). A session
 * made with one operator token dies when the deployment's ADMIN_TOKEN changes.
 */
export class OperatorSessions extends DurableObject<Env> {
  #store = new SessionStore(this.ctx.storage.sql);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(() => new SQLSchemaMigrations({ doStorage: ctx.storage, migrations: MIGRATIONS }).runAll());
  }

  /** Called only after the front Worker has checked the operator token. */
  async create(): Promise<{ id: string; session: SessionInfo }> {
    await this.#forgetOnTokenChange();
    const id = newOperatorSessionId();
    return { id, session: await this.#store.create(id) };
  }

  async verify(id: string): Promise<SessionInfo | null> {
    await this.#forgetOnTokenChange();
    return this.#store.verify(id);
  }

  async end(id: string): Promise<void> {
    await this.#store.end(id);
  }

  async #forgetOnTokenChange(): Promise<void> {
    const current = await sha256Hex(this.env.ADMIN_TOKEN ?? "");
    const stored = this.ctx.storage.sql.exec<{ hash: string }>("SELECT hash FROM operator_token").toArray()[0]?.hash;
    if (stored === current) return;
    this.#store.endAll();
    this.ctx.storage.sql.exec("DELETE FROM operator_token");
    this.ctx.storage.sql.exec("INSERT INTO operator_token (hash) VALUES (?)", current);
  }
}
