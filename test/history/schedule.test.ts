/**
 * Scheduled publishing: the one alarm publishes and unpublishes at the time with every
 * effect of doing it by hand (a cached list, the item, sitemap, feeds, search), exactly once,
 * also after the object restarts; and refuses schedules that cannot happen.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { settle, stubOf } from "./alarm";
import { ORIGIN, addItem, call, callJson, expectStatus, newBlog, type TestSite } from "../helpers";
import { listPage } from "../fixtures/blog-pages";
import { capture, pathOf, putPage, rendered } from "../ssr-helpers";
import { settleIndex } from "../search-helpers";

type Item = {
  id: string;
  status: string;
  publishedAt: string | null;
  schedule: { publishAt: string | null; unpublishAt: string | null; timeZone: string | null } | null;
};
const itemPath = (site: TestSite, id: string) => `/sites/${site.id}/collections/posts/items/${id}`;
const schedule = (site: TestSite, id: string, body: unknown) =>
  callJson<{ item: Item; error?: { code: string; details: { issues: { path: string }[] } } }>("PUT", `${itemPath(site, id)}/schedule`, {
    auth: site.adminKey,
    body,
  });

async function until<T>(what: string, f: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await f();
    if (v) return v;
    await scheduler.wait(100);
  }
  throw new Error(`never: ${what}`);
}

const kinds = async (site: TestSite, id: string) =>
  (
    await expectStatus(
      callJson<{ revisions: { kind: string; actor: { kind: string; label: string }; note: string | null }[] }>(
        "GET",
        `${itemPath(site, id)}/revisions`,
        { auth: site.adminKey },
      ),
      200,
    )
  ).revisions;

describe("scheduled publishing", () => {
  it("refuses schedules that cannot happen, with a 400 naming the field", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    const inOneHour = new Date(Date.now() + 3_600_000).toISOString();
    const cases: [unknown, string][] = [
      [{ publishAt: "2020-01-01T09:00:00+01:00" }, "publishAt"],
      [{ publishAt: "2030-01-01T09:00:00" }, "publishAt"],
      [{ publishAt: "2030-01-01T09:00+01:00" }, "publishAt"],
      [{ publishAt: new Date(Date.now() + 6 * 365 * 86_400_000).toISOString() }, "publishAt"],
      [{ publishAt: inOneHour, unpublishAt: inOneHour }, "unpublishAt"],
      [{ publishAt: inOneHour, unpublishAt: new Date(Date.now() + 60_000).toISOString() }, "unpublishAt"],
      [{ unpublishAt: inOneHour }, "unpublishAt"],
      [{ publishAt: inOneHour, timeZone: "Mars/Olympus" }, "timeZone"],
    ];
    for (const [body, path] of cases) {
      const r = await schedule(site, a.id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error?.details.issues[0]?.path, JSON.stringify(body)).toBe(path);
    }
    const ok = await schedule(site, a.id, { publishAt: "2030-01-01T09:00:00+01:00", timeZone: "Europe/Paris" });
    expect(ok.status).toBe(200);
    expect(ok.body.item.schedule).toEqual({ publishAt: "2030-01-01T08:00:00.000Z", unpublishAt: null, timeZone: "Europe/Paris" });
    expect((await kinds(site, a.id)).map((r) => r.kind)).toEqual(["schedule", "create"]);
  });

  it("publishes at the time with every effect of a manual publish, once", async () => {
    const site = await newBlog("seo_engine");
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    const base = pathOf(pageUrl);
    await expectStatus(capture(site, { pageUrl, publicUrl: `https://blog.example.com${base}`, collection: "posts" }), 201);
    await addItem(site, "posts", { slug: "live", data: { title: "Already live" }, publish: true });
    const a = await addItem(site, "posts", { slug: "on-time", data: { title: "Zebra crossings at dawn" } });
    await settle(site);
    await settleIndex(site);

    const listUrl = `/v1/${site.token}/collections/posts/items`;
    const slugs = async () => ((await (await call("GET", listUrl)).json()) as { items: { slug: string }[] }).items.map((i) => i.slug);
    const doc = async (name: string) => (await rendered(site, `${base}${name}`)).text();
    const searchSlugs = async () =>
      (
        (await (await call("GET", `/v1/${site.token}/search?q=${encodeURIComponent("zebra crossings at dawn")}`)).json()) as {
          results: { item: { slug: string } }[];
        }
      ).results.map((r) => r.item.slug);
    expect(await slugs()).toEqual(["live"]);
    expect((await call("GET", listUrl)).headers.get("x-cache")).toBe("HIT");
    expect(await doc("sitemap.xml")).not.toContain("on-time");
    expect(await doc("rss.xml")).not.toContain("on-time");
    expect(await doc("feed.json")).not.toContain("on-time");
    expect(await searchSlugs()).not.toContain("on-time");

    const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    const r = await schedule(site, a.id, { publishAt: at.toISOString().replace(".000Z", "+00:00") });
    expect(r.status).toBe(200);
    // Due: the object's alarm is set to the time; run it as the runtime would.
    await until("due", async () => Date.now() >= at.getTime());
    await settle(site);
    const item = await expectStatus(callJson<{ item: Item }>("GET", itemPath(site, a.id), { auth: site.adminKey }), 200);
    expect(item.item).toMatchObject({ status: "published", publishedAt: at.toISOString(), schedule: null });
    // The cached list follows (the front Worker's memo of the cache version lives SITE_META_TTL_MS).
    await until("on the cached list", async () => (await slugs()).includes("on-time"));
    expect((await call("GET", `${listUrl}/on-time`)).status).toBe(200);
    expect(await doc("sitemap.xml")).toContain(`https://blog.example.com${base}on-time`);
    expect(await doc("rss.xml")).toContain("on-time");
    expect(await doc("feed.json")).toContain("on-time");
    await settleIndex(site);
    expect(await searchSlugs()).toContain("on-time");
    // Once: running the alarm's work again changes nothing.
    await runInDurableObject(
      stubOf(site),
      (_i, state) =>
        void state.storage.sql.exec(
          "INSERT OR REPLACE INTO jobs (kind, key, run_at, attempts) VALUES ('item-schedule', 'next', ?, 0)",
          Date.now() - 1,
        ),
    );
    await settle(site);
    const revs = await kinds(site, a.id);
    expect(revs.filter((x) => x.kind === "scheduled_publish")).toHaveLength(1);
    expect(revs[0]).toMatchObject({ kind: "scheduled_publish", actor: { kind: "schedule", label: "schedule set by site admin key" } });
  });

  it("unpublishes at the time, and survives a restart of the object before it is due", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "leaving", data: { title: "Leaving" }, publish: true });
    const listUrl = `/v1/${site.token}/collections/posts/items`;
    const slugs = async () => ((await (await call("GET", listUrl)).json()) as { items: { slug: string }[] }).items.map((i) => i.slug);
    expect(await slugs()).toEqual(["leaving"]);
    const at = new Date(Date.now() + 1500);
    expect((await schedule(site, a.id, { unpublishAt: at.toISOString(), timeZone: "America/New_York" })).status).toBe(200);
    await evictDurableObject(stubOf(site));
    await until("due", async () => Date.now() >= at.getTime());
    await settle(site);
    await until("gone from the cached list", async () => !(await slugs()).includes("leaving"));
    expect((await call("GET", `${listUrl}/leaving`)).status).toBe(404);
    expect((await kinds(site, a.id)).map((r) => r.kind)).toEqual(["scheduled_unpublish", "schedule", "create"]);
  });

  it("a manual publish cancels the scheduled publish; a manual unpublish cancels the schedule unless kept", async () => {
    const site = await newBlog();
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    const p = new Date(Date.now() + 3_600_000).toISOString();
    const u = new Date(Date.now() + 7_200_000).toISOString();
    await expectStatus(schedule(site, a.id, { publishAt: p, unpublishAt: u }), 200);
    const published = await expectStatus(callJson<{ item: Item }>("POST", `${itemPath(site, a.id)}/publish`, { auth: site.adminKey }), 200);
    expect(published.item.schedule).toEqual({ publishAt: null, unpublishAt: u, timeZone: null });
    const kept = await expectStatus(
      callJson<{ item: Item }>("POST", `${itemPath(site, a.id)}/unpublish?keepSchedule=true`, { auth: site.adminKey }),
      200,
    );
    expect(kept.item.schedule).toEqual({ publishAt: null, unpublishAt: u, timeZone: null });
    await expectStatus(callJson("POST", `${itemPath(site, a.id)}/publish`, { auth: site.adminKey }), 200);
    const cancelled = await expectStatus(
      callJson<{ item: Item }>("POST", `${itemPath(site, a.id)}/unpublish`, { auth: site.adminKey }),
      200,
    );
    expect(cancelled.item.schedule).toBeNull();
    const jobs = await runInDurableObject(
      stubOf(site),
      (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM jobs WHERE kind = 'item-schedule'").one().n,
    );
    expect(jobs).toBe(0);
  });
});
