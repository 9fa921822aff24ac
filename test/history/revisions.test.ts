/**
 * Item history: a revision for every kind of change, written with the change (a
 * refused change leaves none), who made it, restore round trips, undo delete, and pruning by
 * the plan's retention through the alarm's job.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newBlog, type TestSite } from "../helpers";
import { asMember, siteCall } from "../access/principals";
import { TRASH_WHERE } from "../../actors/site/storage/revisions-table";

type Summary = {
  id: string;
  number: number;
  kind: string;
  status: string;
  changed: string[];
  actor: { kind: string; id: string | null; label: string };
  note: string | null;
};
type Item = {
  id: string;
  revision: number;
  slug: string;
  status: string;
  data: Record<string, unknown>;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

const itemsPath = (site: TestSite) => `/sites/${site.id}/collections/posts/items`;

async function revisions(site: TestSite, id: string, query = ""): Promise<{ revisions: Summary[]; total: number; totalPages: number }> {
  return expectStatus(callJson("GET", `${itemsPath(site)}/${id}/revisions${query}`, { auth: site.adminKey }), 200);
}
const kinds = async (site: TestSite, id: string) => (await revisions(site, id, "?limit=100")).revisions.map((r) => r.kind).reverse();

describe("item history", () => {
  it("keeps a revision of every kind of change, with who and which fields", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A", summary: "one" } });
    await expectStatus(callJson("PATCH", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey, body: { data: { summary: "two" } } }), 200);
    await expectStatus(callJson("POST", `${itemsPath(site)}/${a.id}/publish`, { auth: site.adminKey }), 200);
    // Publishing a published item changes nothing it says: no revision.
    await expectStatus(callJson("POST", `${itemsPath(site)}/${a.id}/publish`, { auth: site.adminKey }), 200);
    await expectStatus(callJson("POST", `${itemsPath(site)}/${a.id}/unpublish`, { auth: site.adminKey }), 200);
    expect(await kinds(site, a.id)).toEqual(["create", "edit", "publish", "unpublish"]);
    const list = await revisions(site, a.id);
    expect(list.total).toBe(4);
    expect(list.revisions[2]).toMatchObject({ kind: "edit", changed: ["summary"], actor: { kind: "siteKey", label: "site admin key" } });
    expect(list.revisions[0]).toMatchObject({ kind: "unpublish", changed: ["status"], status: "draft" });

    // A batch: one create revision per item. A member's change names the account.
    const batch = await expectStatus(
      callJson<{ items: Item[] }>("POST", `${itemsPath(site)}:batch`, {
        auth: site.adminKey,
        body: {
          items: [
            { slug: "b1", data: { title: "B1" } },
            { slug: "b2", data: { title: "B2" }, publish: true },
          ],
        },
      }),
      201,
    );
    for (const it of batch.items) expect(await kinds(site, it.id)).toEqual(["create"]);
    const editor = asMember("acc_editor1", site.workspaceId, "editor");
    expect(
      (await siteCall(site.id, editor, "PATCH", `/collections/posts/items/${batch.items[0]!.id}`, { data: { title: "B1!" } })).status,
    ).toBe(200);
    const byEditor = (await revisions(site, batch.items[0]!.id)).revisions[0]!;
    expect(byEditor).toMatchObject({ kind: "edit", actor: { kind: "account", id: "acc_editor1", label: "acc_editor1@example.com" } });

    // A field removed from the collection: a schema revision for the items that had a value only.
    const before = await expectStatus(
      callJson<{ collection: { fields: unknown[] } }>("GET", `/sites/${site.id}/collections/posts`, { auth: site.adminKey }),
      200,
    );
    const fields = (before.collection.fields as { key: string }[]).filter((f) => f.key !== "summary");
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts`, { auth: site.adminKey, body: { name: "Posts", fields } }),
      200,
    );
    expect(await kinds(site, a.id)).toEqual(["create", "edit", "publish", "unpublish", "schema"]);
    expect(await kinds(site, batch.items[1]!.id)).toEqual(["create"]);

    // Delete: a revision holding the item whole; the item is in the trash.
    await expectStatus(callJson("DELETE", `${itemsPath(site)}/${batch.items[1]!.id}`, { auth: site.adminKey }), 200);
    const trash = await expectStatus(
      callJson<{ items: { id: string; status: string; slug: string }[] }>("GET", `/sites/${site.id}/trash`, { auth: site.adminKey }),
      200,
    );
    expect(trash.items).toEqual([expect.objectContaining({ id: batch.items[1]!.id, slug: "b2", status: "published", title: "B2" })]);
  });

  it("writes no revision for a refused change (a batch with a taken slug)", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    const r = await callJson("POST", `${itemsPath(site)}:batch`, {
      auth: site.adminKey,
      body: {
        items: [
          { slug: "c", data: { title: "C" } },
          { slug: "a", data: { title: "dup" } },
        ],
      },
    });
    expect(r.status).toBe(409);
    const bad = await callJson("PATCH", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey, body: { data: { views: "x" } } });
    expect(bad.status).toBe(400);
    expect(await kinds(site, a.id)).toEqual(["create"]);
    const count = await runInDurableObject(
      env.SITE.get(env.SITE.idFromName(site.id)),
      (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM item_revisions").one().n,
    );
    expect(count).toBe(1);
  });

  it("restores a revision exactly, as a new revision, and reports values that no longer fit", async () => {
    const site = await newBlog();
    const v1 = {
      title: "First",
      summary: "s1",
      body: "<p>The <strong>quick</strong> fox</p>",
      views: 3,
      featured: true,
      date: "2024-05-01T00:00:00.000Z",
    };
    const a = await addItem(site, "posts", { slug: "a", data: v1 });
    await expectStatus(
      callJson("PATCH", `${itemsPath(site)}/${a.id}`, {
        auth: site.adminKey,
        body: { slug: "a2", data: { title: "Second", summary: null, body: "<p>slow</p>", views: 4 } },
      }),
      200,
    );
    const first = (await revisions(site, a.id)).revisions.find((r) => r.number === 1)!;
    const stored = await expectStatus(
      callJson<{ revision: { data: Record<string, unknown>; slug: string } }>("GET", `${itemsPath(site)}/${a.id}/revisions/${first.id}`, {
        auth: site.adminKey,
      }),
      200,
    );
    const restored = await expectStatus(
      callJson<{ item: Item; revision: Summary; restore: { dropped: unknown[] } }>(
        "POST",
        `${itemsPath(site)}/${a.id}/revisions/${first.id}/restore`,
        { auth: site.adminKey },
      ),
      200,
    );
    expect(JSON.stringify(restored.item.data)).toBe(JSON.stringify(stored.revision.data));
    expect(restored.item.slug).toBe("a");
    expect(restored.item.status).toBe("draft");
    expect(restored.restore.dropped).toEqual([]);
    expect(restored.revision).toMatchObject({ number: 3, kind: "restore", note: "from version 1" });
    const now = await expectStatus(callJson<{ item: Item }>("GET", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey }), 200);
    expect(JSON.stringify(now.item.data)).toBe(JSON.stringify(stored.revision.data));

    // The field `views` is removed: restoring version 1 now leaves it out and says so.
    const col = await expectStatus(
      callJson<{ collection: { fields: { key: string }[] } }>("GET", `/sites/${site.id}/collections/posts`, { auth: site.adminKey }),
      200,
    );
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts`, {
        auth: site.adminKey,
        body: { name: "Posts", fields: col.collection.fields.filter((f) => f.key !== "views") },
      }),
      200,
    );
    const again = await expectStatus(
      callJson<{ item: Item; restore: { dropped: { field: string }[] } }>(
        "POST",
        `${itemsPath(site)}/${a.id}/revisions/${first.id}/restore`,
        { auth: site.adminKey },
      ),
      200,
    );
    expect(again.restore.dropped.map((d) => d.field)).toEqual(["views"]);
    expect(again.item.data.views).toBeUndefined();

    // Its old slug taken by another item: 409, and nothing written.
    const before = (await revisions(site, a.id)).total;
    await expectStatus(callJson("PATCH", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey, body: { slug: "moved" } }), 200);
    await addItem(site, "posts", { slug: "a", data: { title: "Squatter" } });
    const conflict = await callJson<{ error: { code: string; details: { slug: string } } }>(
      "POST",
      `${itemsPath(site)}/${a.id}/revisions/${first.id}/restore`,
      { auth: site.adminKey },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.details.slug).toBe("a");
    expect((await revisions(site, a.id)).total).toBe(before + 1);
    expect((await callJson("GET", `${itemsPath(site)}/${a.id}/revisions/rv_999999`, { auth: site.adminKey })).status).toBe(404);
  });

  it("gives an item that existed before history a baseline revision on its first change", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "Old" } });
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await runInDurableObject(stub, (_i, state) => void state.storage.sql.exec("DELETE FROM item_revisions"));
    await expectStatus(callJson("PATCH", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey, body: { data: { title: "New" } } }), 200);
    const list = (await revisions(site, a.id)).revisions;
    expect(list.map((r) => [r.number, r.kind])).toEqual([
      [2, "edit"],
      [1, "baseline"],
    ]);
    const base = await expectStatus(
      callJson<{ revision: { data: { title: string } } }>("GET", `${itemsPath(site)}/${a.id}/revisions/${list[1]!.id}`, {
        auth: site.adminKey,
      }),
      200,
    );
    expect(base.revision.data.title).toBe("Old");
  });

  it("keeps no revision, no version and no edit time for a save that changes nothing", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "same", data: { title: "Same", summary: "one" }, publish: true });
    const get = () => expectStatus(callJson<{ item: Item }>("GET", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey }), 200);
    const first = await get();
    const patch = (body: unknown) =>
      expectStatus(callJson<{ item: Item }>("PATCH", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey, body }), 200);
    const pending = (body: unknown) =>
      expectStatus(
        callJson<{ item: Item & { pendingChanges: unknown } }>("PUT", `${itemsPath(site)}/${a.id}/pending`, { auth: site.adminKey, body }),
        200,
      );
    // Saved twice as it is, values in another order the second time: the same item, no new revision.
    const again = await patch({ slug: "same", data: { title: "Same", summary: "one" } });
    await patch({ data: { summary: "one", title: "Same" } });
    expect(again.item.updatedAt).toBe(first.item.updatedAt);
    expect(again.item).toMatchObject({ revision: first.item.revision });
    // "Save as pending changes" of the live version as it is: nothing pending, nothing recorded.
    expect((await pending({ data: { title: "Same" } })).item.pendingChanges).toBeNull();
    expect(await kinds(site, a.id)).toEqual(["create"]);
    // A real change is one revision, and the same pending save twice is one.
    await patch({ data: { summary: "two" } });
    await pending({ data: { title: "Later" } });
    await pending({ data: { title: "Later" } });
    expect(await kinds(site, a.id)).toEqual(["create", "edit", "pending"]);
  });

  it("undoes a delete: same id, slug, status, creation and publish dates, public again", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "kept", data: { title: "Kept" }, publish: true });
    const published = await expectStatus(callJson<{ item: Item }>("GET", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey }), 200);
    await expectStatus(callJson("DELETE", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey }), 200);
    expect((await callJson("GET", `/v1/${site.token}/collections/posts/items/kept`)).status).toBe(404);
    const back = await expectStatus(
      callJson<{ item: Item }>("POST", `/sites/${site.id}/trash/${a.id}/restore`, { auth: site.adminKey }),
      200,
    );
    expect(back.item).toMatchObject({
      id: a.id,
      slug: "kept",
      status: "published",
      publishedAt: published.item.publishedAt,
      createdAt: published.item.createdAt,
    });
    expect(back.item.updatedAt > published.item.updatedAt).toBe(true);
    expect((await callJson("GET", `/v1/${site.token}/collections/posts/items/kept`)).status).toBe(200);
    expect(await kinds(site, a.id)).toEqual(["create", "delete", "undelete"]);
    // Not in the trash any more; a second undo is a 404.
    expect((await callJson("POST", `/sites/${site.id}/trash/${a.id}/restore`, { auth: site.adminKey })).status).toBe(404);
    expect((await callJson("POST", `/sites/${site.id}/trash/it_nothing/restore`, { auth: site.adminKey })).status).toBe(404);
  });

  it("reads the trash from the index of deletes; an edit's revision goes into no index but its item's numbers", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    await expectStatus(callJson("PATCH", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey, body: { data: { title: "B" } } }), 200);
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const { plan, indexes } = await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      return {
        plan: sql
          .exec<{ detail: string }>(
            `EXPLAIN QUERY PLAN SELECT seq FROM item_revisions r WHERE ${TRASH_WHERE} ORDER BY at DESC, seq DESC LIMIT 20`,
            0,
          )
          .toArray()
          .map((r) => r.detail)
          .join("\n"),
        // Indexes an edit's revision is written into: a partial index only takes the rows its WHERE holds for.
        indexes: sql
          .exec<{ name: string; sql: string | null }>(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'item_revisions'",
          )
          .toArray()
          .filter((r) => !/WHERE kind = 'delete'/.test(r.sql ?? ""))
          .map((r) => r.name)
          .sort(),
      };
    });
    expect(plan).toMatch(/SEARCH r USING INDEX item_revisions_deleted \(at>\?\)/);
    expect(plan).not.toMatch(/SCAN r/);
    // item_revisions_live holds only the revisions that point at their item's values: the newest.
    expect(indexes).toEqual(["item_revisions_live", "sqlite_autoindex_item_revisions_1"]);
  });

  it("prunes by the plan's retention and the trash's 30 days, never an item's newest revision", async () => {
    const site = await newBlog("starter");
    const a = await addItem(site, "posts", { slug: "a", data: { title: "v0" } });
    for (let i = 1; i <= 54; i++) {
      await expectStatus(callJson("PATCH", `${itemsPath(site)}/${a.id}`, { auth: site.adminKey, body: { data: { title: `v${i}` } } }), 200);
    }
    const old = await addItem(site, "posts", { slug: "old", data: { title: "old" } });
    await expectStatus(callJson("PATCH", `${itemsPath(site)}/${old.id}`, { auth: site.adminKey, body: { data: { title: "old2" } } }), 200);
    const gone = await addItem(site, "posts", { slug: "gone", data: { title: "gone" } });
    await expectStatus(callJson("DELETE", `${itemsPath(site)}/${gone.id}`, { auth: site.adminKey }), 200);
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      const day = 86_400_000;
      // `old`'s two revisions are 100 days old; the delete of `gone` 31 days.
      sql.exec("UPDATE item_revisions SET at = at - ? WHERE item_id = ?", 100 * day, old.id);
      sql.exec("UPDATE item_revisions SET at = at - ? WHERE item_id = ?", 31 * day, gone.id);
      sql.exec("UPDATE jobs SET run_at = ? WHERE kind = 'revisions-prune'", Date.now() - 1);
      void state.storage.setAlarm(Date.now() - 1);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = await revisions(site, a.id, "?limit=100");
    expect(left.total).toBe(50);
    expect(left.revisions[0]!.number).toBe(55);
    expect(left.revisions.at(-1)!.number).toBe(6);
    // Older than 90 days: all but the newest.
    expect((await revisions(site, old.id)).revisions.map((r) => r.number)).toEqual([2]);
    const trash = await expectStatus(callJson<{ items: unknown[] }>("GET", `/sites/${site.id}/trash`, { auth: site.adminKey }), 200);
    expect(trash.items).toEqual([]);
    const rows = await runInDurableObject(
      stub,
      (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM item_revisions WHERE item_id = ?", gone.id).one().n,
    );
    expect(rows).toBe(0);
  });
});
