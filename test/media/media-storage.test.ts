/**
 * The plan's media storage is the workspace's, for all its sites together: the Workspace object
 * owns the count (actors/workspace/media-usage.ts), uploads reserve before their first byte and
 * settle after, deletes and the sweep give back.
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson, expectStatus, OPERATOR, type TestSite } from "../helpers";
import { MEDIA_LIMITS } from "../../src/contract/limits";
import { mediaFile, upload } from "./helpers";

type Err = { error: { code: string; details?: Record<string, unknown> } };
const LIMIT = MEDIA_LIMITS.storageBytes.starter;
const siteStub = (id: string) => env.SITE.get(env.SITE.idFromName(id));
const workspace = (id: string) => env.WORKSPACE.get(env.WORKSPACE.idFromName(id));

async function workspaceWithTwoSites(): Promise<{ wsId: string; a: TestSite; b: TestSite }> {
  const ws = await expectStatus(
    callJson<{ workspace: { id: string } }>("POST", "/workspaces", { auth: OPERATOR, body: { name: "Two sites", plan: "starter" } }),
    201,
  );
  const site = async () =>
    (
      await expectStatus(
        callJson<{ site: TestSite }>("POST", "/sites", { auth: OPERATOR, body: { name: "s", workspaceId: ws.workspace.id } }),
        201,
      )
    ).site;
  return { wsId: ws.workspace.id, a: await site(), b: await site() };
}

/** A library as if it already held `bytes` of files (a row only: the count is by rows). */
async function alreadyHolds(site: TestSite, bytes: number): Promise<void> {
  await runInDurableObject(siteStub(site.id), (_i, state) => {
    state.storage.sql.exec(
      "INSERT INTO media (id, url, alt, created_at, object_key, sha256, type, bytes, name) VALUES ('md_full', 'https://x/y', '', '2026-01-01T00:00:00Z', ?, 'ff', 'video/mp4', ?, 'full.mp4')",
      `s/${site.id}/o/full`,
      bytes,
    );
  });
}

async function usedBytes(wsId: string): Promise<number> {
  return (await workspace(wsId).mediaUsage())!.usedBytes;
}

describe("storage per workspace", () => {
  it("two sites of one workspace cannot together pass the plan's storage; a delete gives the bytes back", async () => {
    const { wsId, a, b } = await workspaceWithTwoSites();
    const gif = mediaFile("photo.gif");
    const jpg = mediaFile("small.jpg");
    // After A's GIF, the workspace is one byte short of B's JPEG.
    await alreadyHolds(a, LIMIT - gif.byteLength - jpg.byteLength + 1);
    expect((await upload(a, gif, "a.gif")).status).toBe(201);
    expect(await usedBytes(wsId)).toBe(LIMIT - jpg.byteLength + 1);

    const refused = await upload(b, jpg, "b.jpg");
    expect(refused.status).toBe(413);
    const body = (await refused.json()) as Err;
    expect(body.error.code).toBe("payload_too_large");
    expect(body.error.details).toMatchObject({ limit: "storage", limitBytes: LIMIT, usedBytes: LIMIT - jpg.byteLength + 1 });
    // Each site alone is far under the plan's storage: B holds nothing.
    expect((await callJson<{ total: number }>("GET", `/sites/${b.id}/media`, { auth: b.adminKey })).body.total).toBe(0);

    // A deletes its large file: the workspace has the room again.
    expect((await call("DELETE", `/sites/${a.id}/media/md_full`, { auth: a.adminKey })).status).toBe(200);
    expect(await usedBytes(wsId)).toBe(gif.byteLength);
    expect((await upload(b, jpg, "b.jpg")).status).toBe(201);
    expect(await usedBytes(wsId)).toBe(gif.byteLength + jpg.byteLength);
  });

  it("an upload under way holds its reservation until it ends; a failed one gives it back", async () => {
    const { wsId, a, b } = await workspaceWithTwoSites();
    const declared = 8 * 1024 * 1024;
    await alreadyHolds(a, LIMIT - declared);
    // A's upload declares 8 MiB, sends the first bytes, then stalls (cut after the 2 s idle limit here).
    const stalled = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(mediaFile("small.jpg").subarray(0, 2000));
        return new Promise(() => undefined);
      },
    });
    const pending = upload(a, stalled, "big.jpg", { "content-length": String(declared) });
    // The reservation is made before the first byte is stored.
    for (let i = 0; i < 100 && (await usedBytes(wsId)) < LIMIT; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await usedBytes(wsId)).toBe(LIMIT);
    const refused = await upload(b, mediaFile("photo.gif"), "b.gif");
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as Err).error.details).toMatchObject({ limit: "storage" });
    expect((await pending).status).toBe(408);
    expect(await usedBytes(wsId)).toBe(LIMIT - declared);
    expect((await upload(b, mediaFile("photo.gif"), "b.gif")).status).toBe(201);
  });

  it("the sweep gives back what a crashed upload reserved, and reports the site's total again", async () => {
    const { wsId, a } = await workspaceWithTwoSites();
    // As a crash leaves things: the workspace holds a reservation, the site an open upload row, nothing else follows.
    const ws = workspace(wsId);
    const far = Date.now() + 3600_000;
    expect(
      await ws.reserveMedia({ siteId: a.id, reservationId: "crashed", bytes: 5000, stored: { bytes: 0, seq: 1 }, expiresAt: far }),
    ).toEqual({
      reserved: true,
    });
    await runInDurableObject(siteStub(a.id), (_i, state) => {
      state.storage.sql.exec(
        "INSERT INTO media_uploads (id, object_key, multipart_id, reserved_bytes, started_at, expires_at) VALUES ('crashed', ?, NULL, 5000, 0, 1)",
        `s/${a.id}/o/crashed`,
      );
    });
    await alreadyHolds(a, 1234);
    expect(await usedBytes(wsId)).toBe(5000);
    await runInDurableObject(siteStub(a.id), (_i, state) => {
      state.storage.sql.exec("UPDATE jobs SET run_at = 0 WHERE kind = 'media-sweep'");
    });
    expect(await runDurableObjectAlarm(siteStub(a.id))).toBe(true);
    expect(await usedBytes(wsId)).toBe(1234);
  });
});
