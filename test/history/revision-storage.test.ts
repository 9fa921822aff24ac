/**
 * How revisions are stored: one that holds its item's current values keeps a mark instead of a
 * second copy, and reads, restores and the trash give back exactly what each revision recorded,
 * through edits, pending changes, a field removed from the collection and a delete. An older
 * site's full copies are marked on the alarm, a slice at a time, without changing what any
 * revision reads.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newBlog, type TestSite } from "../helpers";
import { settle, stubOf } from "./alarm";

type Revision = { id: string; number: number; kind: string; data: Record<string, unknown> };
const itemsPath = (site: TestSite) => `/sites/${site.id}/collections/posts/items`;

/** Every revision of an item with its values, oldest first. */
async function history(site: TestSite, id: string): Promise<{ kind: string; data: Record<string, unknown> }[]> {
  const list = await expectStatus(
    callJson<{ revisions: { id: string }[] }>("GET", `${itemsPath(site)}/${id}/revisions?limit=100`, { auth: site.adminKey }),
    200,
  );
  const out = [];
  for (const r of list.revisions.reverse()) {
    const one = await expectStatus(
      callJson<{ revision: Revision }>("GET", `${itemsPath(site)}/${id}/revisions/${r.id}`, { auth: site.adminKey }),
      200,
    );
    out.push({ kind: one.revision.kind, data: one.revision.data });
  }
  return out;
}

/** How the item's revisions are stored, oldest first: "live" for a mark, the stored values otherwise. */
const stored = (site: TestSite, id: string) =>
  runInDurableObject(stubOf(site), (_i, state) =>
    state.storage.sql
      .exec<{ data: string }>("SELECT data FROM item_revisions WHERE item_id = ? ORDER BY number", id)
      .toArray()
      .map((r) => (r.data === "" ? "live" : (JSON.parse(r.data) as Record<string, unknown>))),
  );

describe("revision storage", () => {
  it("keeps no second copy of an item's current values, and every revision reads what it recorded", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "One", summary: "first" } });
    // A created item that is never edited stores its values once.
    expect(await stored(site, a.id)).toEqual(["live"]);

    await expectStatus(callJson("PATCH", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey, body: { data: { title: "Two" } } }), 200);
    await expectStatus(callJson("POST", `${itemsPath(site)}/${a.id}/publish`, { auth: site.adminKey }), 200);
    // The create's values were copied in before the edit changed them; the edit and the publish share the item's.
    expect(await stored(site, a.id)).toEqual([{ title: "One", summary: "first" }, "live", "live"]);

    // Pending changes of a published item are not the item's values: stored in full.
    await expectStatus(
      callJson("PUT", `${itemsPath(site)}/${a.id}/pending`, { auth: site.adminKey, body: { data: { title: "Three", summary: "first" } } }),
      200,
    );
    expect((await stored(site, a.id)).slice(3)).toEqual([{ title: "Three", summary: "first" }]);

    const two = { title: "Two", summary: "first" };
    expect(await history(site, a.id)).toEqual([
      { kind: "create", data: { title: "One", summary: "first" } },
      { kind: "edit", data: two },
      { kind: "publish", data: two },
      { kind: "pending", data: { title: "Three", summary: "first" } },
    ]);

    // A field taken out of the collection leaves every earlier revision as it was.
    const b = await addItem(site, "posts", { slug: "b", data: { title: "Bee", summary: "kept in history" } });
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts`, {
        auth: site.adminKey,
        body: { name: "Posts", fields: [{ key: "title", type: "text", indexed: true, required: true }] },
      }),
      200,
    );
    const bHistory = await history(site, b.id);
    expect(bHistory[0]).toEqual({ kind: "create", data: { title: "Bee", summary: "kept in history" } });
    expect(bHistory.at(-1)?.data).toEqual({ title: "Bee" });

    // Restoring the first revision gives its values back (as pending changes: the item is published).
    const revs = await expectStatus(
      callJson<{ revisions: { id: string; number: number }[] }>("GET", `${itemsPath(site)}/${a.id}/revisions?limit=100`, {
        auth: site.adminKey,
      }),
      200,
    );
    const first = revs.revisions.find((r) => r.number === 1)!;
    const restored = await expectStatus(
      callJson<{ item: { pendingChanges: { data: Record<string, unknown> } | null } }>(
        "POST",
        `${itemsPath(site)}/${a.id}/revisions/${first.id}/restore`,
        { auth: site.adminKey },
      ),
      200,
    );
    expect(restored.item.pendingChanges?.data).toEqual({ title: "One" });

    // A delete copies the values into every revision that pointed at them: the trash restores them.
    await expectStatus(callJson("DELETE", `${itemsPath(site)}/${b.id}`, { auth: site.adminKey }), 200);
    expect((await stored(site, b.id)).includes("live")).toBe(false);
    await expectStatus(callJson("POST", `/sites/${site.id}/trash/${b.id}/restore`, { auth: site.adminKey }), 200);
    const back = await expectStatus(
      callJson<{ item: { data: Record<string, unknown> } }>("GET", `${itemsPath(site)}/${b.id}`, { auth: site.adminKey }),
      200,
    );
    expect(back.item.data).toEqual({ title: "Bee" });
  });

  it("marks an older site's full copies on the alarm, in slices, and every revision reads the same", async () => {
    const site = await newBlog();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await addItem(site, "posts", { slug: `p${i}`, data: { title: `Post ${i}` } })).id);
    await expectStatus(
      callJson("PATCH", `${itemsPath(site)}/${ids[0]}`, { auth: site.adminKey, body: { data: { title: "Edited" } } }),
      200,
    );
    const before = await Promise.all(ids.map((id) => history(site, id)));

    // As a site from before the marks: every revision a full copy, the job not yet run.
    await runInDurableObject(stubOf(site), (_i, state) => {
      const sql = state.storage.sql;
      sql.exec("UPDATE item_revisions SET data = (SELECT data FROM items WHERE id = item_id) WHERE data = ''");
      sql.exec("UPDATE revision_compaction SET done_to = 0");
      sql.exec("INSERT INTO jobs (kind, key, run_at, attempts) VALUES ('revisions-compact', 'all', ?, 0)", Date.now() - 1);
      void state.storage.setAlarm(Date.now() - 1);
    });
    expect(await stored(site, ids[1]!)).toEqual([{ title: "Post 1" }]);

    await settle(site);
    expect(await stored(site, ids[1]!)).toEqual(["live"]);
    expect(await stored(site, ids[0]!)).toEqual([{ title: "Post 0" }, "live"]);
    expect(await Promise.all(ids.map((id) => history(site, id)))).toEqual(before);
    const done = await runInDurableObject(
      stubOf(site),
      (_i, state) => state.storage.sql.exec<{ done_to: number }>("SELECT done_to FROM revision_compaction").one().done_to,
    );
    expect(done).toBe(Number.MAX_SAFE_INTEGER);
  });
});
