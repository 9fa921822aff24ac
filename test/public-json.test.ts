import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, addItem, call, callJson, expectStatus, newBlog, newSite, type TestSite } from "./helpers";
import { settle } from "./history/alarm";
import { ITEM_COLUMNS, PUBLIC_DATA_COLUMN } from "../actors/site/storage/items-table";
import { keepPublicData, publicDataJson } from "../actors/site/content/public-items";
import { readCollections } from "../actors/site/content/collections";

const stubOf = (siteId: string) => env.SITE.get(env.SITE.idFromName(siteId));
/** Each item's kept row (`public_json`, `media`) and the public JSON it reads as (`json`), in seq order. */
const storedJson = (siteId: string) =>
  runInDurableObject(stubOf(siteId), (_i, state) =>
    state.storage.sql
      .exec<{ public_json: string; media: string | null; json: string }>(
        `SELECT p.public_json, p.media, ${PUBLIC_DATA_COLUMN.replace(" AS public_data", "")} AS json
         FROM item_public p JOIN items ON items.seq = p.seq ORDER BY p.seq`,
      )
      .toArray(),
  );

describe("each item's public JSON is kept on write", () => {
  it("is stored with every write, follows schema changes, and answers match the presented items", async () => {
    const site = await newBlog();
    const ada = await addItem(site, "authors", { slug: "ada", data: { name: "Ada" }, publish: true });
    await addItem(site, "posts", {
      slug: "a",
      publish: true,
      data: { title: "A", notes: "n", cover: { url: "https://img.test/a.jpg", alt: "A", width: 800 }, author: ada.id },
    });
    const stored = await storedJson(site.id);
    expect(stored).toHaveLength(2);
    const post = JSON.parse(stored[1]!.json) as Record<string, unknown>;
    // Media expanded, references left as ids (they resolve when read).
    expect(post).toMatchObject({ title: "A", notes: "n", cover: { alt: "A", width: 800 }, author: ada.id });

    const list = await callJson<{ items: { data: Record<string, unknown> }[] }>("GET", `/v1/${site.token}/collections/posts/items`);
    expect(list.body.items[0]?.data.author).toMatchObject({ slug: "ada", data: { name: "Ada" } });
    const authors = await call("GET", `/v1/${site.token}/collections/authors/items/ada`);
    const single = (await authors.json()) as { item: Record<string, unknown> };
    expect(single.item).toMatchObject({ slug: "ada", collection: "authors", data: { name: "Ada" } });

    // Removing a field removes it from the stored JSON too.
    const fields = [
      { key: "title", type: "text", indexed: true, required: true },
      { key: "cover", type: "image" },
      { key: "author", type: "reference", collection: "authors", indexed: true },
    ];
    await expectStatus(callJson("PUT", `/sites/${site.id}/collections/posts`, { auth: site.adminKey, body: { fields } }), 200);
    expect(Object.keys(JSON.parse((await storedJson(site.id))[1]!.json) as object)).toEqual(["title", "cover", "author"]);
    const after = await callJson<{ item: { data: Record<string, unknown> } }>("GET", `/v1/${site.token}/collections/posts/items/a`);
    expect(after.body.item.data.notes).toBeUndefined();
  });

  it("keeps no second copy of an item whose public data is its stored data", async () => {
    const site = await newSite();
    const fields = [
      { key: "title", type: "text", required: true },
      { key: "body", type: "richText" },
    ];
    await expectStatus(callJson("PUT", `/sites/${site.id}/collections/notes`, { auth: site.adminKey, body: { fields } }), 201);
    const note = await addItem(site, "notes", { slug: "n", publish: true, data: { title: "One", body: "<p>First</p>" } });
    // '' stands for "the item's data as stored": the 5 KB of a long post are written once per save.
    expect((await storedJson(site.id)).map((r) => r.public_json)).toEqual([""]);
    const url = `/v1/${site.token}/collections/notes/items/n`;
    const read = async (q: string) => (await callJson<{ item: { data: unknown } }>("GET", `${url}?${q}`)).body.item.data;
    expect(await read("v=1")).toEqual({ title: "One", body: "<p>First</p>" });
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/notes/items/${note.id}`, {
        auth: site.adminKey,
        body: { data: { body: "<p>Second</p>" } },
      }),
      200,
    );
    expect((await storedJson(site.id)).map((r) => r.public_json)).toEqual([""]);
    expect(await read("v=2")).toEqual({ title: "One", body: "<p>Second</p>" });
    const list = await callJson<{ items: { data: unknown }[] }>("GET", `/v1/${site.token}/collections/notes/items`);
    expect(list.body.items.map((i) => i.data)).toEqual([{ title: "One", body: "<p>Second</p>" }]);
    // A media field makes the public JSON differ from the data (expanded to a MediaRef): kept whole.
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/notes`, {
        auth: site.adminKey,
        body: { fields: [...fields, { key: "cover", type: "image" }] },
      }),
      200,
    );
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/notes/items/${note.id}`, {
        auth: site.adminKey,
        body: { data: { cover: { url: "https://img.test/n.jpg", alt: "N" } } },
      }),
      200,
    );
    // A media field: only the expanded MediaRef is kept, laid over the stored data when read.
    const kept = (await storedJson(site.id))[0]!;
    expect(kept.public_json).toBe("");
    expect(Object.keys(JSON.parse(kept.media!) as object)).toEqual(["cover"]);
    expect(JSON.parse(kept.json)).toMatchObject({ title: "One", cover: { url: "https://img.test/n.jpg", alt: "N" } });
    expect(await read("v=3")).toMatchObject({ cover: { url: "https://img.test/n.jpg", alt: "N" } });
  });

  it("reads an item with media as the public JSON it replaces, byte for byte, and keeps a copy only when it must", async () => {
    const site = await newBlog();
    const fields = [
      { key: "title", type: "text", required: true },
      { key: "cover", type: "image" },
      { key: "body", type: "richText" },
      { key: "photos", type: "gallery" },
      { key: "price", type: "number" },
      { key: "site", type: "link" },
      { key: "live", type: "boolean" },
    ];
    await expectStatus(callJson("PUT", `/sites/${site.id}/collections/shop`, { auth: site.adminKey, body: { fields } }), 201);
    const odd = 'Quote " back \\ slash \u2028 line, tab\t, <script>é😀</script> \ud83d\ude00';
    await addItem(site, "shop", {
      slug: "a",
      publish: true,
      data: {
        title: odd,
        cover: { url: "https://img.test/a.jpg", alt: 'Ünïcode "alt"', width: 1200, height: 800 },
        body: "<p>Fine &amp; <strong>bold</strong></p>",
        photos: [{ url: "https://img.test/b.jpg", alt: "B" }, { url: "https://img.test/c.jpg" }],
        price: 0.1,
        site: "https://example.com/a?b=1&c=2",
        live: false,
      },
    });
    await addItem(site, "shop", { slug: "b", publish: true, data: { title: "Large", price: 1e21, photos: [] } });
    const rows = await storedJson(site.id);
    // Both kept as the data with their media over it (b's keys were sent out of field order: stored in it).
    expect(rows.map((r) => [r.public_json, Object.keys(JSON.parse(r.media ?? "{}") as object)])).toEqual([
      ["", ["cover", "photos"]],
      ["", ["photos"]],
    ]);
    const computed = await runInDurableObject(stubOf(site.id), (_i, state) => {
      const sql = state.storage.sql;
      const shop = readCollections(sql).find((c) => c.slug === "shop")!;
      return sql
        .exec<{ data: string }>("SELECT data FROM items WHERE collection_id = ? ORDER BY seq", shop.id)
        .toArray()
        .map((r) => publicDataJson(sql, shop, JSON.parse(r.data) as Record<string, unknown>));
    });
    expect(rows.map((r) => r.json)).toEqual(computed);

    // An image whose media entry is gone reads as null, which a merge patch would drop: kept whole.
    await runInDurableObject(stubOf(site.id), (_i, state) => {
      const sql = state.storage.sql;
      const shop = readCollections(sql).find((c) => c.slug === "shop")!;
      const item = sql.exec<{ seq: number; data: string }>("SELECT seq, data FROM items WHERE slug = 'a'").one();
      const data = JSON.parse(item.data) as Record<string, unknown>;
      data.cover = "md_gone";
      keepPublicData(sql, shop, item.seq, data);
    });
    const gone = (await storedJson(site.id))[0]!;
    expect(gone.media).toBeNull();
    expect(JSON.parse(gone.public_json)).toMatchObject({ cover: null, price: 0.1 });
  });

  it("rewrites copies kept in full before the media form once, on the alarm, with the same answers", async () => {
    const site = await newBlog();
    for (const slug of ["a", "b", "c"])
      await addItem(site, "posts", { slug, publish: true, data: { title: slug, cover: { url: `https://img.test/${slug}.jpg` } } });
    const url = `/v1/${site.token}/collections/posts/items`;
    const before = await (await call("GET", url)).text();
    // As a site from before: each item's public JSON a full copy, the one-time rewrite not yet done.
    await runInDurableObject(stubOf(site.id), (_i, state) => {
      state.storage.sql.exec(
        `UPDATE item_public SET public_json = (SELECT ${PUBLIC_DATA_COLUMN.replace(" AS public_data", "")} FROM items WHERE items.seq = item_public.seq), media = NULL`,
      );
      state.storage.kv.delete("publicJsonMediaForm");
    });
    expect((await storedJson(site.id)).every((r) => r.public_json.startsWith("{"))).toBe(true);
    await evictDurableObject(stubOf(site.id));
    expect(await (await call("GET", `${url}?during=rewrite`)).text()).toBe(before);
    await settle({ id: site.id } as TestSite);
    expect((await storedJson(site.id)).map((r) => [r.public_json, r.media !== null])).toEqual([
      ["", true],
      ["", true],
      ["", true],
    ]);
    expect(await (await call("GET", `${url}?after=rewrite`)).text()).toBe(before);
  });

  it("reads whole rows with every column of items but the search text", async () => {
    const site = await newSite();
    const columns = await runInDurableObject(stubOf(site.id), (_i, state) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM pragma_table_info('items')")
        .toArray()
        .map((c) => c.name),
    );
    // A column a migration adds must be named in ITEM_COLUMNS, or whole-row reads would drop it.
    expect(ITEM_COLUMNS.split(", ")).toEqual(columns.filter((c) => c !== "search_text"));
  });

  it("items stored before it existed get it when the object starts, with the same answers", async () => {
    const site = await newBlog();
    for (const slug of ["a", "b", "c"]) {
      await addItem(site, "posts", {
        slug,
        publish: true,
        data: { title: slug.toUpperCase(), cover: { url: `https://img.test/${slug}.jpg` } },
      });
    }
    const url = `/v1/${site.token}/collections/posts/items`;
    const before = await (await call("GET", url)).text();
    await runInDurableObject(stubOf(site.id), (_i, state) => state.storage.sql.exec("DELETE FROM item_public"));
    expect(await storedJson(site.id)).toHaveLength(0);
    await evictDurableObject(stubOf(site.id));
    expect(await storedJson(site.id)).toHaveLength(3);
    expect(await (await call("GET", `${url}?after=restart`)).text()).toBe(before);
  });
});

describe("the site object's memo of answers", () => {
  it("answers a repeated identical miss from memory for the current version only", async () => {
    const site = await newBlog();
    const item = await addItem(site, "posts", { slug: "a", publish: true, data: { title: "One" } });
    const stub = stubOf(site.id);
    const url = `${ORIGIN}/v1/${site.token}/collections/posts/items/a`;
    const first = await (await stub.fetch(url)).text();
    expect(first).toContain('"One"');
    const memo = (await stub.stats()).memo.answers;
    // Change the stored JSON behind the object's back (no new version): a repeated URL is
    // answered from memory, a new one is built from what is stored.
    await runInDurableObject(stub, (_i, state) => state.storage.sql.exec(`UPDATE item_public SET public_json = '{"title":"Behind"}'`));
    expect(await (await stub.fetch(url)).text()).toBe(first);
    expect((await stub.stats()).memo.answers).toBe(memo);
    expect(await (await stub.fetch(`${url}?other=1`)).text()).toContain('"Behind"');
    // Answers are built again after a change.
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, { auth: site.adminKey, body: { data: { title: "Two" } } }),
      200,
    );
    expect(await (await stub.fetch(url)).text()).toContain('"Two"');
    expect((await stub.stats()).memo.answers).toBe(1);
    // The patch rewrote the stored JSON, so nothing of the tampered copy is left.
    expect(await (await stub.fetch(`${url}?other=1`)).text()).toContain('"Two"');
  });
});

describe("the site object's memo of items' JSON across versions", () => {
  it("keeps the items a change did not name, builds the named ones again, and drops all for a change that names none", async () => {
    // A collection without references (an item's references are resolved when read, never kept).
    const site = await newSite();
    const fields = [{ key: "title", type: "text", required: true }];
    await expectStatus(callJson("PUT", `/sites/${site.id}/collections/notes`, { auth: site.adminKey, body: { fields } }), 201);
    const a = await addItem(site, "notes", { slug: "a", publish: true, data: { title: "A1" } });
    await addItem(site, "notes", { slug: "b", publish: true, data: { title: "B1" } });
    const stub = stubOf(site.id);
    const list = (q: string) => stub.fetch(`${ORIGIN}/v1/${site.token}/collections/notes/items?${q}`).then((r) => r.text());
    const first = await list("limit=10");
    expect(first).toContain('"A1"');
    expect(first).toContain('"B1"');
    expect((await stub.stats()).memo.itemJson).toBe(2);
    // Tamper with B's stored JSON (no change recorded): a list of a new version built from the
    // memo still shows what B was, which proves B was not read again.
    await runInDurableObject(stub, (_i, state) =>
      state.storage.sql.exec(
        `UPDATE item_public SET public_json = '{"title":"B-behind"}' WHERE seq = (SELECT seq FROM items WHERE slug = 'b')`,
      ),
    );
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/notes/items/${a.id}`, { auth: site.adminKey, body: { data: { title: "A2" } } }),
      200,
    );
    const afterEdit = await list("limit=11");
    expect(afterEdit).toContain('"A2"');
    expect(afterEdit).not.toContain('"A1"');
    expect(afterEdit).toContain('"B1"');
    // Unpublishing A names it: it leaves the list; B is still served from the memo.
    await expectStatus(call("POST", `/sites/${site.id}/collections/notes/items/${a.id}/unpublish`, { auth: site.adminKey }), 200);
    const afterUnpublish = await list("limit=12");
    expect(afterUnpublish).not.toContain('"A2"');
    expect(afterUnpublish).toContain('"B1"');
    // A schema change names no items: everything is built again from what is stored.
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/notes`, {
        auth: site.adminKey,
        body: { fields: [...fields, { key: "extra", type: "text" }] },
      }),
      200,
    );
    expect(await list("limit=13")).toContain('"B1"');
    expect((await stub.stats()).memo.itemJson).toBe(1);
  });
});
