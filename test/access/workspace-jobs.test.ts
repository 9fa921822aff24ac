/**
 * The workspace runs the site's jobs table: a workspace last run by the code before it (its last
 * prune's time in the key-value storage, its alarm set by hand) still prunes on time.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { workspaceWithTwoSites } from "./workspace-fixture";

const DAY = 86_400_000;
const RETENTION = 400 * DAY;

describe("the workspace's jobs", () => {
  it("a workspace from before the jobs table: its kept prune time becomes the prune job, and the alarm it had runs the prune", async () => {
    const { workspaceId } = await workspaceWithTwoSites("Old style");
    const stub = env.WORKSPACE.get(env.WORKSPACE.idFromName(workspaceId));
    await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      sql.exec("DELETE FROM jobs");
      sql.exec(
        "INSERT INTO audit (at, actor_kind, actor_label, operation, kind, target) VALUES (?, 'operator', 'operator', 'createSite', 'Sites', 'too old')",
        Date.now() - RETENTION - 1,
      );
      state.storage.kv.put("audit_pruned_at", Date.now() - DAY - 1);
      return state.storage.setAlarm(Date.now() - 1);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const after = await runInDurableObject(stub, async (_i: unknown, state: DurableObjectState) => ({
      old: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM audit WHERE target = 'too old'").one().n,
      prune: state.storage.sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'audit-prune'").one().run_at,
      marker: state.storage.kv.get("audit_pruned_at"),
      alarm: await state.storage.getAlarm(),
    }));
    expect(after.old).toBe(0);
    expect(after.marker).toBeUndefined();
    expect(Math.abs(after.prune - (Date.now() + DAY))).toBeLessThan(60_000);
    expect(after.alarm).toBe(after.prune);
  });
});
