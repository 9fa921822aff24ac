/**
 * Pending changes of a published item: the public API, rendered pages, sitemap, feeds
 * and search keep showing the live version; the crawler preview shows the pending one; publishing
 * makes it live, discarding drops it, and restore on a published item goes through it.
 */
import { describe, expect, it } from "vitest";
import { settle } from "./alarm";
import { ORIGIN, addItem, call, callJson, expectStatus, newBlog, type TestSite } from "../helpers";
import { listPage } from "../fixtures/blog-pages";
import { capture, pathOf, putPage, rendered } from "../ssr-helpers";
import { settleIndex } from "../search-helpers";

type Item = {
  id: string;
  slug: string;
  status: string;
  data: { title?: string };
  pendingChanges: { slug: string; data: { title?: string } } | null;
};
const itemPath = (site: TestSite, id: string) => `/sites/${site.id}/collections/posts/items/${id}`;

async function until(what: string, f: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await f()) return;
    await scheduler.wait(100);
  }
  throw new Error(`never: ${what}`);
}

describe("pending changes", () => {
  it("are seen by the crawler preview only, until published", async () => {
    const site = await newBlog("seo_engine");
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    const base = pathOf(pageUrl);
    await expectStatus(capture(site, { pageUrl, publicUrl: `https://blog.example.com${base}`, collection: "posts" }), 201);
    const a = await addItem(site, "posts", { slug: "walrus", data: { title: "Walrus migration routes" }, publish: true });
    await settle(site);
    await settleIndex(site);
    const v1 = `/v1/${site.token}`;
    const publicTexts = async () => {
      const texts = [
        await (await call("GET", `${v1}/collections/posts/items`)).text(),
        await (await call("GET", `${v1}/collections/posts/items/walrus`)).text(),
        await (await call("GET", `${v1}/search?q=${encodeURIComponent("walrus migration routes")}`)).text(),
        await (await rendered(site, `${base}walrus`)).text(),
        await (await rendered(site, base)).text(),
        await (await rendered(site, `${base}sitemap.xml`)).text(),
        await (await rendered(site, `${base}rss.xml`)).text(),
        await (await rendered(site, `${base}feed.json`)).text(),
      ];
      return texts.join("\n");
    };
    const before = await publicTexts();
    expect(before).toContain("Walrus migration routes");

    const saved = await expectStatus(
      callJson<{ item: Item }>("PUT", `${itemPath(site, a.id)}/pending`, {
        auth: site.adminKey,
        body: { slug: "walrus-2", data: { title: "Secret pending headline" } },
      }),
      200,
    );
    expect(saved.item).toMatchObject({ slug: "walrus", status: "published", data: { title: "Walrus migration routes" } });
    expect(saved.item.pendingChanges).toMatchObject({ slug: "walrus-2", data: { title: "Secret pending headline" } });
    await settle(site);
    await settleIndex(site);
    const during = await publicTexts();
    expect(during).toContain("Walrus migration routes");
    expect(during).not.toContain("Secret pending");
    expect(during).not.toContain("walrus-2");
    expect((await call("GET", `${v1}/collections/posts/items/walrus-2`)).status).toBe(404);
    // The items table sees it; the crawler preview shows it.
    const list = await expectStatus(
      callJson<{ items: Item[] }>("GET", `/sites/${site.id}/collections/posts/items`, { auth: site.adminKey }),
      200,
    );
    expect(list.items[0]!.pendingChanges?.data.title).toBe("Secret pending headline");
    const preview = await call("GET", `/sites/${site.id}/ssr/preview?item=${a.id}`, { auth: site.adminKey });
    expect(await preview.text()).toContain("Secret pending headline");

    // Published: live everywhere, nothing pending.
    const published = await expectStatus(callJson<{ item: Item }>("POST", `${itemPath(site, a.id)}/publish`, { auth: site.adminKey }), 200);
    expect(published.item).toMatchObject({ slug: "walrus-2", data: { title: "Secret pending headline" }, pendingChanges: null });
    await settle(site);
    await until("public list follows", async () =>
      (await (await call("GET", `${v1}/collections/posts/items`)).text()).includes("Secret pending"),
    );
    expect(await (await rendered(site, `${base}sitemap.xml`)).text()).toContain("walrus-2");
    const revs = await expectStatus(
      callJson<{ revisions: { kind: string; note: string | null }[] }>("GET", `${itemPath(site, a.id)}/revisions`, { auth: site.adminKey }),
      200,
    );
    expect(revs.revisions.map((r) => r.kind)).toEqual(["publish", "pending", "create"]);
  });

  it("cannot be saved on a draft; can be discarded; a restore on a published item becomes pending", async () => {
    const site = await newBlog();
    const d = await addItem(site, "posts", { slug: "d", data: { title: "Draft" } });
    const r = await callJson<{ error: { code: string } }>("PUT", `${itemPath(site, d.id)}/pending`, {
      auth: site.adminKey,
      body: { data: { title: "x" } },
    });
    expect(r.status).toBe(409);

    const a = await addItem(site, "posts", { slug: "a", data: { title: "Version one" }, publish: true });
    await expectStatus(callJson("PATCH", itemPath(site, a.id), { auth: site.adminKey, body: { data: { title: "Version two" } } }), 200);
    await expectStatus(
      callJson("PUT", `${itemPath(site, a.id)}/pending`, { auth: site.adminKey, body: { data: { title: "Never mind" } } }),
      200,
    );
    const discarded = await expectStatus(
      callJson<{ item: Item }>("DELETE", `${itemPath(site, a.id)}/pending`, { auth: site.adminKey }),
      200,
    );
    expect(discarded.item.pendingChanges).toBeNull();
    expect((await callJson("DELETE", `${itemPath(site, a.id)}/pending`, { auth: site.adminKey })).status).toBe(404);

    const revs = await expectStatus(
      callJson<{ revisions: { id: string; kind: string; number: number }[] }>("GET", `${itemPath(site, a.id)}/revisions`, {
        auth: site.adminKey,
      }),
      200,
    );
    expect(revs.revisions.map((x) => x.kind)).toEqual(["discard", "pending", "edit", "create"]);
    const v1 = revs.revisions.find((x) => x.number === 1)!;
    const restored = await expectStatus(
      callJson<{ item: Item }>("POST", `${itemPath(site, a.id)}/revisions/${v1.id}/restore`, { auth: site.adminKey }),
      200,
    );
    expect(restored.item.data.title).toBe("Version two");
    expect(restored.item.pendingChanges?.data.title).toBe("Version one");
    // Restoring the live version itself drops the pending changes (as a restore), rather than
    // keeping "unpublished changes" identical to what is live; a second time changes nothing.
    const v2 = revs.revisions.find((x) => x.kind === "edit")!;
    for (const expected of [
      ["restore", "restore", "discard"],
      ["restore", "restore", "discard"],
    ]) {
      const again = await expectStatus(
        callJson<{ item: Item }>("POST", `${itemPath(site, a.id)}/revisions/${v2.id}/restore`, { auth: site.adminKey }),
        200,
      );
      expect(again.item.pendingChanges).toBeNull();
      const kinds = await expectStatus(
        callJson<{ revisions: { kind: string }[] }>("GET", `${itemPath(site, a.id)}/revisions`, { auth: site.adminKey }),
        200,
      );
      expect(kinds.revisions.slice(0, 3).map((x) => x.kind)).toEqual(expected);
    }
    await expectStatus(callJson("POST", `${itemPath(site, a.id)}/revisions/${v1.id}/restore`, { auth: site.adminKey }), 200);
    const pub = await (await call("GET", `/v1/${site.token}/collections/posts/items/a`)).json<{ item: { data: { title: string } } }>();
    expect(pub.item.data.title).toBe("Version two");

    // "Publish these changes at a time": the schedule applies the pending version.
    const at = new Date(Date.now() + 1200);
    await expectStatus(
      callJson("PUT", `${itemPath(site, a.id)}/schedule`, { auth: site.adminKey, body: { publishAt: at.toISOString() } }),
      200,
    );
    await until("due", async () => Date.now() >= at.getTime());
    await settle(site);
    const after = await expectStatus(callJson<{ item: Item }>("GET", itemPath(site, a.id), { auth: site.adminKey }), 200);
    expect(after.item).toMatchObject({ data: { title: "Version one" }, pendingChanges: null });
  });
});
