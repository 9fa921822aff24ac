// Publishing many items in one call (publishItems): each as publishItem publishes it, all or
// nothing, for 1,000 drafts at once; an Author publishes only their own.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newBlog, type TestSite } from "./helpers";
import { asMember, siteCall } from "./access/principals";

type Published = { ids: string[]; published: number; unchanged: number };
const publish = (site: TestSite, ids: unknown, collection = "posts") =>
  callJson<Published & { error?: { code: string; message: string; details?: { id?: string } } }>(
    "POST",
    `/sites/${site.id}/collections/${collection}/items:publish`,
    { auth: site.adminKey, body: { ids } },
  );
const publicSlugs = async (site: TestSite) =>
  (
    await expectStatus(callJson<{ items: { slug: string }[] }>("GET", `/v1/${site.token}/collections/posts/items?limit=100&sort=slug`), 200)
  ).items.map((i) => i.slug);
const audited = (site: TestSite) =>
  runInDurableObject(env.SITE.get(env.SITE.idFromName(site.id)), (_i: unknown, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ target: string }>("SELECT target FROM audit WHERE operation = 'publishItems' ORDER BY seq")
      .toArray()
      .map((r) => r.target),
  );

describe("publishItems", () => {
  it("publishes drafts, makes pending changes live, leaves a published item as it is, all in one call", async () => {
    const site = await newBlog("pro");
    const before = await publicSlugs(site);
    const a = await addItem(site, "posts", { slug: "bulk-a", data: { title: "A" } });
    const b = await addItem(site, "posts", { slug: "bulk-b", data: { title: "B" } });
    const live = await addItem(site, "posts", { slug: "bulk-live", data: { title: "Live" }, publish: true });
    const plain = await addItem(site, "posts", { slug: "bulk-plain", data: { title: "Plain" }, publish: true });
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts/items/${live.id}/pending`, {
        auth: site.adminKey,
        body: { data: { title: "Live, edited" } },
      }),
      200,
    );
    const r = await expectStatus(publish(site, [a.id, b.id, live.id, plain.id]), 200);
    expect(r).toEqual({ ids: [a.id, b.id, live.id, plain.id], published: 3, unchanged: 1 });
    expect(await publicSlugs(site)).toEqual([...before, "bulk-a", "bulk-b", "bulk-live", "bulk-plain"].sort());
    const shown = await expectStatus(
      callJson<{ item: { data: { title: string } } }>("GET", `/v1/${site.token}/collections/posts/items/bulk-live`),
      200,
    );
    expect(shown.item.data.title).toBe("Live, edited");
    // One audit row per item that changed.
    expect(await audited(site)).toEqual(["posts/bulk-a", "posts/bulk-b", "posts/bulk-live"]);
  });

  it("writes for each draft what publishing it alone writes: its item row, revisions and audit row", async () => {
    const site = await newBlog("pro");
    const alone = await addItem(site, "posts", { slug: "alone", data: { title: "Same" } });
    const bulk = await addItem(site, "posts", { slug: "bulk", data: { title: "Same" } });
    // A draft with no revision (an item older than history) and one with a scheduled publish
    // take the one-by-one path inside the same call.
    const old = await addItem(site, "posts", { slug: "older", data: { title: "Same" } });
    const due = await addItem(site, "posts", { slug: "due", data: { title: "Same" } });
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("DELETE FROM item_revisions WHERE item_id = ?", old.id);
    });
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts/items/${due.id}/schedule`, {
        auth: site.adminKey,
        body: { publishAt: new Date(Date.now() + 86_400_000).toISOString(), unpublishAt: null },
      }),
      200,
    );
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${alone.id}/publish`, { auth: site.adminKey }), 200);
    expect(await expectStatus(publish(site, [bulk.id, old.id, due.id]), 200)).toMatchObject({ published: 3 });

    type Revision = { number: number; kind: string; status: string; changed: string[]; actor: unknown; data: unknown };
    const revisions = async (id: string) =>
      (
        await expectStatus(
          callJson<{ revisions: Revision[] }>("GET", `/sites/${site.id}/collections/posts/items/${id}/revisions?limit=50`, {
            auth: site.adminKey,
          }),
          200,
        )
      ).revisions.map(({ number, kind, status, changed, actor }) => ({ number, kind, status, changed, actor }));
    const item = async (id: string) =>
      (
        await expectStatus(
          callJson<{ item: Record<string, unknown> }>("GET", `/sites/${site.id}/collections/posts/items/${id}`, { auth: site.adminKey }),
          200,
        )
      ).item;
    expect(await revisions(bulk.id)).toEqual(await revisions(alone.id));
    const [a, b] = [await item(alone.id), await item(bulk.id)];
    for (const key of ["status", "data", "revision", "createdBy", "schedule"]) expect(b[key], key).toEqual(a[key]);
    expect(b.publishedAt).toBe(b.updatedAt);
    // The item without history gets its baseline first; the scheduled one loses its publish time.
    expect((await revisions(old.id)).map((r) => r.kind)).toEqual(["publish", "baseline"]);
    expect((await item(due.id)).schedule).toBeNull();
    const audit = await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ operation: string; target: string; details: string; actor_kind: string }>(
          "SELECT operation, target, details, actor_kind FROM audit WHERE operation IN ('publishItem', 'publishItems') ORDER BY seq",
        )
        .toArray(),
    );
    expect(audit).toEqual([
      { operation: "publishItem", target: "posts/alone", details: JSON.stringify({ id: alone.id }), actor_kind: "siteKey" },
      { operation: "publishItems", target: "posts/bulk", details: JSON.stringify({ id: bulk.id }), actor_kind: "siteKey" },
      { operation: "publishItems", target: "posts/older", details: JSON.stringify({ id: old.id }), actor_kind: "siteKey" },
      { operation: "publishItems", target: "posts/due", details: JSON.stringify({ id: due.id }), actor_kind: "siteKey" },
    ]);
  });

  it("publishes nothing when an id is not an item of the collection, and refuses bad lists", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "stays-draft", data: { title: "A" } });
    const missing = await publish(site, [a.id, "it_nope"]);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "not_found", details: { id: "it_nope" } });
    expect(missing.body.error?.message).toContain('"it_nope"');
    expect(await publicSlugs(site)).not.toContain("stays-draft");
    // An item of another collection is not one of this collection's.
    const other = await publish(site, [a.id], "authors");
    expect(other.status).toBe(404);
    for (const ids of [[], [a.id, a.id], Array.from({ length: 1001 }, (_, i) => `it_${i}`), "it_one"]) {
      const bad = await publish(site, ids);
      expect(bad.status, JSON.stringify(ids).slice(0, 40)).toBe(400);
      expect(bad.body.error?.code).toBe("bad_request");
    }
    expect(await audited(site)).toEqual([]);
  });

  it("publishes 1,000 drafts in one call", async () => {
    const site = await newBlog("pro");
    const items = Array.from({ length: 1000 }, (_, i) => ({ slug: `many-${i}`, data: { title: `Many ${i}` } }));
    const created = await expectStatus(
      callJson<{ items: { id: string }[] }>("POST", `/sites/${site.id}/collections/posts/items:batch`, {
        auth: site.adminKey,
        body: { items },
      }),
      201,
    );
    const r = await expectStatus(
      publish(
        site,
        created.items.map((i) => i.id),
      ),
      200,
    );
    expect(r.published).toBe(1000);
    const list = await expectStatus(
      callJson<{ total: number }>("GET", `/v1/${site.token}/collections/posts/items?search=many&limit=1`),
      200,
    );
    expect(list.total).toBe(1000);
    const stats = await expectStatus(
      callJson<{ stats: { drafts: number } }>("GET", `/sites/${site.id}/stats`, { auth: site.adminKey }),
      200,
    );
    expect(stats.stats.drafts).toBe(0);
  });

  it("lets an Author publish their own items only, and then none of the list", async () => {
    const site = await newBlog("pro");
    const me = asMember("ac_author_bulk", site.workspaceId, "author");
    const mine = await siteCall(site.id, me, "POST", "/collections/posts/items", { slug: "mine", data: { title: "Mine" } });
    expect(mine.status).toBe(201);
    const myId = (mine.body.item as { id: string }).id;
    const others = await addItem(site, "posts", { slug: "theirs", data: { title: "Theirs" } });
    const refused = await siteCall(site.id, me, "POST", "/collections/posts/items:publish", { ids: [myId, others.id] });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.details?.permission).toBe("items.publish.any");
    // Asked of the object itself, as the role calls are (the front Worker's edge cache is not in the way).
    const status = async (id: string) =>
      ((await siteCall(site.id, me, "GET", `/collections/posts/items/${id}`)).body.item as { status: string }).status;
    expect(await status(myId)).toBe("draft");
    const ok = await siteCall(site.id, me, "POST", "/collections/posts/items:publish", { ids: [myId] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ published: 1, unchanged: 0 });
    expect(await status(myId)).toBe("published");
    expect(await status(others.id)).toBe("draft");
  });
});
