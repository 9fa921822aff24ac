/**
 * Workspace migration 4: the account that made each API key, for keys made before it was recorded.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { WORKSPACE_MIGRATIONS } from "../../actors/workspace/migrations";

describe("migration 4: the maker of keys made before it", () => {
  it("is taken from the key's createApiKey audit row, or else from the member with the key's email", async () => {
    const stub = env.WORKSPACE.get(env.WORKSPACE.idFromName("ws_migration_four_test"));
    const makers = await runInDurableObject(stub, async (_i: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      await new SQLSchemaMigrations({ doStorage: state.storage, migrations: WORKSPACE_MIGRATIONS.slice(0, 3) }).runAll();
      sql.exec("INSERT INTO members (account_id, email, role, added_at) VALUES ('ac_still', 'still@example.com', 'administrator', 0)");
      const key = (id: string, by: string) =>
        sql.exec("INSERT INTO api_keys (id, name, hash, scope, created_by, created_at) VALUES (?, ?, ?, 'full', ?, 0)", id, id, id, by);
      key("key_gone", "gone@example.com");
      key("key_still", "still@example.com");
      key("key_operator", "operator");
      // The maker of key_gone left long ago: only the audit log still names them.
      sql.exec(
        `INSERT INTO audit (at, actor_kind, actor_id, actor_label, operation, kind, target, details)
         VALUES (0, 'account', 'ac_gone', 'gone@example.com', 'createApiKey', 'Keys', 'API key key_gone', '{"scope":"full","id":"key_gone"}')`,
      );
      await new SQLSchemaMigrations({ doStorage: state.storage, migrations: WORKSPACE_MIGRATIONS }).runAll();
      return sql.exec<{ id: string; maker: string | null }>("SELECT id, created_by_account AS maker FROM api_keys ORDER BY id").toArray();
    });
    expect(makers).toEqual([
      { id: "key_gone", maker: "ac_gone" },
      { id: "key_operator", maker: null },
      { id: "key_still", maker: "ac_still" },
    ]);
  });
});
