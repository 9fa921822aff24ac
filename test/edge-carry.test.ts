import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, type TestSite, addItem, call, callJson, expectStatus, newSite } from "./helpers";
import { capture, putPage, rendered } from "./ssr-helpers";

/**
 * Answers that show one item and nothing else are carried across versions that changed other
 * items only, with no site object read (docs/caching.md, "Carried across a version"); everything
 * else is read again as before, and the changed item's own answers are never carried.
 */

/** The `notes` collection, with no reference fields, and `extra` fields after its own. */
const putNotes = (site: TestSite, extra: Record<string, unknown>[] = []) =>
  callJson("PUT", `/sites/${site.id}/collections/notes`, {
    auth: site.adminKey,
    body: {
      name: "Notes",
      fields: [{ key: "title", type: "text", indexed: true, required: true }, { key: "date", type: "date", indexed: true }, ...extra],
    },
  });

/** A site whose `notes` have no reference fields, with a captured page listing them at /blog/. */
async function notesSite() {
  const site = await newSite("seo_engine");
  await expectStatus(putNotes(site), 201);
  const pageUrl = await putPage(`<!doctype html><html><head><title>Notes</title></head><body>
    <div data-oc-list="notes" data-oc-sort="-date" data-oc-limit="10"><article><a data-oc-link data-oc-field="title"></a></article></div>
    <script src="${ORIGIN}/embed.js" data-oc-token="${site.token}" defer></script></body></html>`);
  await expectStatus(capture(site, { pageUrl, collection: "notes" }), 201);
  return { site, base: new URL(pageUrl).pathname, stub: env.SITE.get(env.SITE.idFromName(site.id)) };
}

const note = (site: TestSite, slug: string, title: string) =>
  addItem(site, "notes", { slug, publish: true, data: { title, date: "2026-01-01" } });
const patch = (site: TestSite, id: string, title: string) =>
  expectStatus(
    callJson("PATCH", `/sites/${site.id}/collections/notes/items/${id}`, { auth: site.adminKey, body: { data: { title } } }),
    200,
  );

/** Reads `read()` until this isolate's memory holds it (a copy is kept after the answer is sent). */
async function held(read: () => Promise<Response>): Promise<{ body: string; etag: string | null }> {
  for (let i = 0; i < 100; i++) {
    const r = await read();
    const body = await r.text();
    if (r.headers.get("x-cache") === "HIT") return { body, etag: r.headers.get("etag") };
    await scheduler.wait(10);
  }
  throw new Error("never held");
}

describe("single-item answers carried across versions that changed other items", () => {
  it("the API's item: another item's edit costs it no read; its own edit, unpublish and a collection change do", async () => {
    const { site, stub } = await notesSite();
    const a = await note(site, "a", "A");
    const b = await note(site, "b", "B");
    const url = (slug: string) => `/v1/${site.token}/collections/notes/items/${slug}`;
    const before = await held(() => call("GET", url("a")));
    await held(() => call("GET", url("b")));

    await patch(site, b.id, "B2");
    let reads = (await stub.stats()).publicReads;
    const carried = await call("GET", url("a"));
    expect(carried.headers.get("x-cache")).toBe("HIT");
    expect(await carried.text()).toBe(before.body);
    expect(carried.headers.get("etag")).toBe(before.etag);
    // Nothing of ours reaches the client.
    expect([...carried.headers.keys()].filter((k) => k.startsWith("x-oc-"))).toEqual([]);
    expect((await stub.stats()).publicReads - reads).toBe(0);
    // The edited item is read again and shows the edit at once.
    const edited = await callJson<{ item: { data: { title: string } } }>("GET", url("b"));
    expect(edited.body.item.data.title).toBe("B2");
    expect(edited.res.headers.get("x-cache")).toBe("MISS");
    expect([...edited.res.headers.keys()].filter((k) => k.startsWith("x-oc-"))).toEqual([]);
    expect((await stub.stats()).publicReads - reads).toBe(1);

    // Its own change is never carried: an unpublished item is gone at once for its writer's isolate.
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/notes/items/${a.id}/unpublish`, { auth: site.adminKey }), 200);
    expect((await call("GET", url("a"))).status).toBe(404);

    // A change that is not one item's (here the collection's fields) carries nothing.
    await held(() => call("GET", url("b")));
    await expectStatus(putNotes(site, [{ key: "mood", type: "text" }]), 200);
    reads = (await stub.stats()).publicReads;
    expect((await call("GET", url("b"))).headers.get("x-cache")).toBe("MISS");
    expect((await stub.stats()).publicReads - reads).toBe(1);
  });

  it("a change made elsewhere: this isolate learns what it changed with the new version and carries the rest", async () => {
    const { site, stub } = await notesSite();
    await note(site, "a", "A");
    const b = await note(site, "b", "B");
    const url = (slug: string) => `/v1/${site.token}/collections/notes/items/${slug}`;
    const before = await held(() => call("GET", url("a")));
    // To the site object directly, as through another isolate: learnt when the memo expires (1 s in the tests).
    const res = await stub.fetch(`${ORIGIN}/sites/${site.id}/collections/notes/items/${b.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${site.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ data: { title: "B2" } }),
    });
    expect(res.status).toBe(200);
    await scheduler.wait(1050);
    const reads = (await stub.stats()).publicReads;
    const carried = await call("GET", url("a"));
    expect(carried.headers.get("x-cache")).toBe("HIT");
    expect(await carried.text()).toBe(before.body);
    expect((await stub.stats()).publicReads - reads).toBe(0);
    // The changed item: the previous version within the bound, then the new one.
    let title = "";
    for (let i = 0; i < 100 && title !== "B2"; i++) {
      title = (await callJson<{ item: { data: { title: string } } }>("GET", url("b"))).body.item.data.title;
      if (title !== "B2") await scheduler.wait(20);
    }
    expect(title).toBe("B2");
  });

  it("a rendered item page that shows its item alone is carried; a list page and the edited item's page are not", async () => {
    const { site, base, stub } = await notesSite();
    await note(site, "a", "A");
    const b = await note(site, "b", "B");
    const a1 = await held(() => rendered(site, `${base}a`));
    const b1 = await held(() => rendered(site, `${base}b`));
    const list1 = await held(() => rendered(site, base));

    await patch(site, b.id, "B2");
    const { publicReads, unchangedReads } = await stub.stats();
    const carried = await rendered(site, `${base}a`);
    expect(carried.headers.get("x-cache")).toBe("HIT");
    expect(await carried.text()).toBe(a1.body);
    expect(carried.headers.get("etag")).toBe(a1.etag);
    expect([...carried.headers.keys()].filter((k) => k.startsWith("x-oc-"))).toEqual([]);
    expect((await stub.stats()).publicReads - publicReads).toBe(0);

    const page = await rendered(site, `${base}b`);
    const html = await page.text();
    expect(html).toContain("B2");
    expect(html).not.toBe(b1.body);
    const list = await rendered(site, base);
    expect(await list.text()).toContain("B2");
    expect(list.headers.get("etag")).not.toBe(list1.etag);
    const after = await stub.stats();
    expect(after.publicReads - publicReads).toBe(2);
    expect(after.unchangedReads - unchangedReads).toBe(0);
  });
});

describe("list answers carried across edits of items they do not show", () => {
  it("an edit elsewhere costs a list no read; an edit of a shown item, of its sort key, or a publish reads it again", async () => {
    const { site, stub } = await notesSite();
    const ids: string[] = [];
    // Dates 1..8: sorted by -date, page 2 of limit 3 shows notes 5, 4, 3.
    for (let i = 1; i <= 8; i++)
      ids.push((await addItem(site, "notes", { slug: `n${i}`, publish: true, data: { title: `N${i}`, date: `2026-01-0${i}` } })).id);
    const items = `/v1/${site.token}/collections/notes/items`;
    const page2 = `${items}?sort=-date&limit=3&page=2`;
    const byTitle = `${items}?sort=title&limit=3&page=2`;
    const searched = `${items}?search=n&limit=3&page=2`;
    const readsOf = async () => (await stub.stats()).publicReads;
    const expectRead = async (url: string, state: "HIT" | "MISS", reads: number, body?: string) => {
      const before = await readsOf();
      const r = await call("GET", url);
      expect(r.headers.get("x-cache")).toBe(state);
      if (body !== undefined) expect(await r.text()).toBe(body);
      else await r.arrayBuffer();
      expect([...r.headers.keys()].filter((k) => k.startsWith("x-oc-"))).toEqual([]);
      expect((await readsOf()) - before).toBe(reads);
    };

    // The title of note 8 (page 1): page 2 by date neither shows it nor is ordered by its title.
    let held2 = await held(() => call("GET", page2));
    await held(() => call("GET", byTitle));
    await held(() => call("GET", searched));
    await patch(site, ids[7]!, "N8 edited");
    await expectRead(page2, "HIT", 0, held2.body);
    // Ordered by title, or searched: the edit may move an item onto the page; read again.
    await expectRead(byTitle, "MISS", 1);
    await expectRead(searched, "MISS", 1);

    // An edit of a note the page shows: read again, and the edit is there.
    held2 = await held(() => call("GET", page2));
    await patch(site, ids[3]!, "N4 edited");
    const shown = await callJson<{ items: { data: { title: string } }[] }>("GET", page2);
    expect(shown.res.headers.get("x-cache")).toBe("MISS");
    expect(shown.body.items.map((i) => i.data.title)).toEqual(["N5", "N4 edited", "N3"]);

    // An edit of the sort key of a note on another page: it may move onto this one.
    held2 = await held(() => call("GET", page2));
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/notes/items/${ids[7]}`, {
        auth: site.adminKey,
        body: { data: { date: "2025-01-01" } },
      }),
      200,
    );
    const moved = await callJson<{ items: { data: { title: string } }[] }>("GET", page2);
    expect(moved.res.headers.get("x-cache")).toBe("MISS");
    expect(moved.body.items.map((i) => i.data.title)).toEqual(["N4 edited", "N3", "N2"]);

    // A new published note joins the list: read again.
    held2 = await held(() => call("GET", page2));
    await addItem(site, "notes", { slug: "n9", publish: true, data: { title: "N9", date: "2026-01-09" } });
    const joined = await callJson<{ items: { data: { title: string } }[]; total: number }>("GET", page2);
    expect(joined.res.headers.get("x-cache")).toBe("MISS");
    expect(joined.body.total).toBe(9);
    expect(joined.body.items.map((i) => i.data.title)).toEqual(["N5", "N4 edited", "N3"]);
  });
});
