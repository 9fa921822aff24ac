// The overview's counts and every unfiltered total read the kept counts (table `item_counts`),
// not the items: they stay exact through creates, batches, publishes, unpublishes, deletes, a
// collection's removal and restores from the trash, and the overview's latest changes are read
// from each collection's newest rows only.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addItem, call, callJson, expectStatus, newBlog, type TestSite } from "./helpers";

type Stats = { stats: { published: number; drafts: number; recent: { slug: string; collection: string; pendingChanges: boolean }[] } };

const stub = (site: TestSite) => env.SITE.get(env.SITE.idFromName(site.id));
/** The kept counts beside a count of the items themselves, by collection slug and status. */
const bothCounts = (site: TestSite) =>
  runInDurableObject(stub(site), (_i, state) => {
    const sql = state.storage.sql;
    const of = (q: string) =>
      Object.fromEntries(
        sql
          .exec<{ k: string; n: number }>(q)
          .toArray()
          .filter((r) => r.n > 0)
          .map((r) => [r.k, r.n]),
      );
    return {
      kept: of("SELECT c.slug || '/' || k.status AS k, k.n FROM item_counts k JOIN collections c ON c.id = k.collection_id ORDER BY 1"),
      counted: of(
        "SELECT c.slug || '/' || i.status AS k, count(*) AS n FROM items i JOIN collections c ON c.id = i.collection_id GROUP BY 1 ORDER BY 1",
      ),
    };
  });

describe("kept item counts", () => {
  it("stay exact through every kind of change, and answer the overview and the totals", async () => {
    const site = await newBlog();
    const posts = `/sites/${site.id}/collections/posts/items`;
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    await addItem(site, "posts", { slug: "b", publish: true, data: { title: "B" } });
    await expectStatus(
      callJson("POST", `${posts}:batch`, {
        auth: site.adminKey,
        body: { items: [1, 2, 3].map((i) => ({ slug: `batch-${i}`, publish: i !== 2, data: { title: `Batch ${i}` } })) },
      }),
      201,
    );
    await addItem(site, "authors", { slug: "ada", publish: true, data: { name: "Ada" } });
    await expectStatus(call("POST", `${posts}/${a.id}/publish`, { auth: site.adminKey }), 200);
    const b = (
      await callJson<{ items: { id: string; slug: string }[] }>("GET", `${posts}?sort=slug`, { auth: site.adminKey })
    ).body.items.find((i) => i.slug === "b")!;
    await expectStatus(call("POST", `${posts}/${b.id}/unpublish`, { auth: site.adminKey }), 200);
    await expectStatus(call("DELETE", `${posts}/${a.id}`, { auth: site.adminKey }), 200);

    let counts = await bothCounts(site);
    expect(counts.kept).toEqual(counts.counted);
    expect(counts.kept).toEqual({ "authors/published": 1, "posts/draft": 2, "posts/published": 2 });
    const stats = await expectStatus(callJson<Stats>("GET", `/sites/${site.id}/stats`, { auth: site.adminKey }), 200);
    expect([stats.stats.published, stats.stats.drafts]).toEqual([3, 2]);
    // Newest change first, across collections: b's unpublish, then ada, then the batch.
    expect(stats.stats.recent.map((r) => r.slug)).toEqual(["b", "ada", "batch-3", "batch-2", "batch-1"]);

    const publicList = await callJson<{ total: number }>("GET", `/v1/${site.token}/collections/posts/items`);
    expect(publicList.body.total).toBe(2);
    const drafts = await callJson<{ total: number }>("GET", `${posts}?status=draft`, { auth: site.adminKey });
    expect(drafts.body.total).toBe(2);
    expect((await callJson<{ total: number }>("GET", posts, { auth: site.adminKey })).body.total).toBe(4);

    // Undo the delete; a collection that goes takes its items' counts with it.
    await expectStatus(call("POST", `/sites/${site.id}/trash/${a.id}/restore`, { auth: site.adminKey }), 200);
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/notes`, {
        auth: site.adminKey,
        body: { name: "Notes", fields: [{ key: "title", type: "text", required: true }] },
      }),
      201,
    );
    await addItem(site, "notes", { slug: "n", publish: true, data: { title: "N" } });
    expect((await bothCounts(site)).kept["notes/published"]).toBe(1);
    await expectStatus(call("DELETE", `/sites/${site.id}/collections/notes`, { auth: site.adminKey }), 200);
    counts = await bothCounts(site);
    expect(counts.kept).toEqual(counts.counted);
    expect(counts.kept).toEqual({ "authors/published": 1, "posts/draft": 2, "posts/published": 3 });
  });

  it("are filled from the items of a site that had none kept", async () => {
    const site = await newBlog();
    for (const slug of ["x", "y"]) await addItem(site, "posts", { slug, publish: slug === "x", data: { title: slug } });
    await runInDurableObject(stub(site), async (_i, state) => {
      const { MIGRATIONS_FOR_SCALE } = await import("../actors/site/storage/migrations-for-scale");
      state.storage.sql.exec("DELETE FROM item_counts");
      // Replaying the step (as a database whose marker is behind its schema would) fills them again.
      state.storage.sql.exec(MIGRATIONS_FOR_SCALE.find((m) => m.idMonotonicInc === 33)!.sql!);
    });
    const counts = await bothCounts(site);
    expect(counts.kept).toEqual({ "posts/draft": 1, "posts/published": 1 });
  });
});
