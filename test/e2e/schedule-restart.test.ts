/**
 * A scheduled publish across a restart of the whole runtime: the built Worker on workerd
 * with state on disk; an item is scheduled a few seconds ahead; the process stops before that time
 * and starts again after it. The item is published by itself, exactly once, with every effect a
 * manual publish has (the public list and item, search, `publishedAt` = the scheduled time, one
 * `scheduled_publish` revision), and a second restart does not publish it again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startWorkerd } from "../../scripts/workerd-host.mjs";

const OPERATOR = "restart-test-operator";
const dir = mkdtempSync(join(tmpdir(), "oc-restart-"));
let running: { base: string; dispose(): Promise<void> } | undefined;
const start = () =>
  startWorkerd({
    scriptPath: ".wrangler/browser-test-build/index.js",
    adminToken: OPERATOR,
    persistDir: dir,
    embedderProcesses: 1,
    dashboard: false,
  });

async function json<T>(method: string, url: string, auth: string | null, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = `Bearer ${auth}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a schedule across a restart of the whole runtime", () => {
  it("publishes the item by itself after the restart, once, with every effect", { timeout: 180_000 }, async () => {
    try {
      await scheduleAcrossRestart();
    } finally {
      await running?.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function scheduleAcrossRestart(): Promise<void> {
  running = await start();
  let base = running.base;
  const { body: made } = await json<{ site: { id: string; token: string; adminKey: string } }>("POST", `${base}/sites`, OPERATOR, {
    name: "Restart",
    plan: "pro",
  });
  const site = made.site;
  const key = site.adminKey;
  expect(
    (
      await json("PUT", `${base}/sites/${site.id}/collections/posts`, key, {
        name: "Posts",
        fields: [{ key: "title", type: "text", required: true }],
      })
    ).status,
  ).toBe(201);
  await json("POST", `${base}/sites/${site.id}/collections/posts/items`, key, {
    slug: "already",
    data: { title: "Already live" },
    publish: true,
  });
  const { body: created } = await json<{ item: { id: string } }>("POST", `${base}/sites/${site.id}/collections/posts/items`, key, {
    slug: "after-restart",
    data: { title: "Porcupine quills after the restart" },
  });
  // The runtime gets a new port at every start: addresses are made from the current base.
  const itemPath = () => `${base}/sites/${site.id}/collections/posts/items/${created.item.id}`;
  const list = () =>
    json<{ items: { slug: string; publishedAt: string }[] }>("GET", `${base}/v1/${site.token}/collections/posts/items`, null);
  // The public list is read (and cached) before: the item is not there.
  expect((await list()).body.items.map((i) => i.slug)).toEqual(["already"]);

  // Whole seconds, in the future by enough to stop the runtime before it.
  const due = Math.ceil((Date.now() + 5_000) / 1000) * 1000;
  const scheduled = await json<{ item: { schedule: { publishAt: string } } }>("PUT", `${itemPath()}/schedule`, key, {
    publishAt: new Date(due).toISOString(),
  });
  expect(scheduled.status).toBe(200);
  await running.dispose();
  running = undefined;
  expect(Date.now()).toBeLessThan(due);

  // Down past the due time; then up again, and the first request is a reader's.
  await sleep(due - Date.now() + 3_000);
  running = await start();
  base = running.base;
  let seen: { slug: string; publishedAt: string }[] = [];
  for (let i = 0; i < 100; i++) {
    seen = (await list()).body.items;
    if (seen.some((x) => x.slug === "after-restart")) break;
    await sleep(100);
  }
  expect(seen.find((x) => x.slug === "after-restart")).toMatchObject({ publishedAt: new Date(due).toISOString() });
  // The item itself, and search (indexed by the job the publish queued).
  expect((await json("GET", `${base}/v1/${site.token}/collections/posts/items/after-restart`, null)).status).toBe(200);
  let found = false;
  for (let i = 0; i < 100 && !found; i++) {
    const r = await json<{ results?: { slug: string }[]; items?: { slug: string }[] }>(
      "GET",
      `${base}/v1/${site.token}/search?q=${encodeURIComponent("porcupine quills")}`,
      null,
    );
    found = JSON.stringify(r.body).includes("after-restart");
    if (!found) await sleep(200);
  }
  expect(found, "the scheduled item is found by search").toBe(true);
  const revisions = async () =>
    (await json<{ revisions: { kind: string; actor: { kind: string } }[] }>("GET", `${itemPath()}/revisions`, key)).body.revisions;
  const once = (await revisions()).filter((r) => r.kind === "scheduled_publish");
  expect(once).toHaveLength(1);
  expect(once[0]!.actor.kind).toBe("schedule");
  const { body: item } = await json<{ item: { status: string; schedule: unknown } }>("GET", itemPath(), key);
  expect(item.item).toMatchObject({ status: "published", schedule: null });

  // Another restart: nothing is published twice.
  await running.dispose();
  running = await start();
  base = running.base;
  await sleep(1_000);
  expect((await list()).body.items.map((i) => i.slug).sort()).toEqual(["after-restart", "already"]);
  expect((await revisions()).filter((r) => r.kind === "scheduled_publish")).toHaveLength(1);
}
