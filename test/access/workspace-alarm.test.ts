/**
 * The workspace's one alarm: armed for the daily audit prune when the workspace is made; after
 * the workspace is deleted it wakes only when its kept audit log expires, and once nothing is
 * left the object's storage and alarm are gone.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { callJson, expectStatus, OPERATOR } from "../helpers";
import { workspaceWithTwoSites } from "./workspace-fixture";

const DAY = 86_400_000;
const RETENTION = 400 * DAY;

const stubOf = (id: string) => env.WORKSPACE.get(env.WORKSPACE.idFromName(id));
const alarmOf = (id: string) => runInDurableObject(stubOf(id), (_i: unknown, state: DurableObjectState) => state.storage.getAlarm());

describe("the workspace's alarm", () => {
  it("prunes daily while the workspace lives, wakes only for the kept log once deleted, then erases the object", async () => {
    const { workspaceId } = await workspaceWithTwoSites("Gone soon");
    const live = await alarmOf(workspaceId);
    expect(live).not.toBeNull();
    expect(Math.abs(live! - (Date.now() + DAY))).toBeLessThan(60_000);

    await expectStatus(callJson("DELETE", `/workspaces/${workspaceId}`, { auth: OPERATOR, body: { confirm: "Gone soon" } }), 200);
    // The deletion's own audit row is the newest: nothing expires for 400 days, so no daily wake-up.
    const kept = await alarmOf(workspaceId);
    expect(kept).toBeGreaterThan(Date.now() + RETENTION - DAY);

    // A daily wake while rows remain prunes and re-arms for the oldest row's expiry.
    await runInDurableObject(stubOf(workspaceId), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE audit SET at = ? WHERE at = (SELECT min(at) FROM audit)", Date.now() - RETENTION - 1);
      state.storage.kv.put("audit_pruned_at", 0);
      return state.storage.setAlarm(Date.now() - 1);
    });
    await runDurableObjectAlarm(stubOf(workspaceId));
    expect(await alarmOf(workspaceId)).toBeGreaterThan(Date.now() + RETENTION - 2 * DAY);

    // Every row past the retention: the last wake prunes them and the object is gone for good.
    await runInDurableObject(stubOf(workspaceId), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE audit SET at = ?", Date.now() - RETENTION - 1);
      state.storage.kv.put("audit_pruned_at", 0);
      return state.storage.setAlarm(Date.now() - 1);
    });
    expect(await runDurableObjectAlarm(stubOf(workspaceId))).toBe(true);
    const left = await runInDurableObject(stubOf(workspaceId), async (_i: unknown, state: DurableObjectState) => ({
      alarm: await state.storage.getAlarm(),
      tables: state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'")
        .toArray()
        .map((r) => r.name),
      kv: [...state.storage.kv.list()].length,
    }));
    expect(left).toEqual({ alarm: null, tables: [], kv: 0 });

    // A stray request later finds no such workspace (and no error).
    expect((await callJson("GET", `/workspaces/${workspaceId}`, { auth: OPERATOR })).status).toBe(404);
  });
});
