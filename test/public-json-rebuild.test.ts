/**
 * A change of the image resizing hosts on a site with many items: the PATCH does bounded work
 * (it rewrites no item's kept public JSON), every read shows the new srcset as soon as it
 * returns, and the site's alarm rewrites the kept copies a chunk per run (reads/public-rebuild.ts).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, expectStatus, newSite, type TestSite } from "./helpers";
import type { Site } from "../actors/site";

const POSTS = 450;
const CHUNK = 200;
const NOTES = 10;

interface Cover {
  srcset: string;
}
interface Item {
  slug: string;
  data: { cover?: Cover | null };
}

let site: TestSite;
const stub = () => env.SITE.get(env.SITE.idFromName(site.id));
const count = (state: DurableObjectState, query: string) => state.storage.sql.exec<{ n: number }>(query).one().n;
/** Kept public JSON that names a resized candidate (`/cdn-cgi/image/`). */
const RESIZED_KEPT = "SELECT count(*) AS n FROM item_public WHERE coalesce(media, public_json) LIKE '%/cdn-cgi/image/%'";
const REBUILD_JOBS = "SELECT count(*) AS n FROM jobs WHERE kind = 'public-json-rebuild'";
/** The PATCH as the front Worker forwards it (the site's admin key), straight to the object. */
const patchRequest = (hosts: string[], name?: string) =>
  new Request(`https://api.test/sites/${site.id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${site.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ imageResizingHosts: hosts, ...(name ? { name } : {}) }),
  });
const patchHosts = (hosts: string[], name?: string) =>
  expectStatus(
    callJson("PATCH", `/sites/${site.id}`, { auth: site.adminKey, body: { imageResizingHosts: hosts, ...(name ? { name } : {}) } }),
    200,
  );
const item = async (slug: string) =>
  (await expectStatus(callJson<{ item: Item }>("GET", `/v1/${site.token}/collections/posts/items/${slug}`), 200)).item;
const lastPage = async () =>
  (await expectStatus(callJson<{ items: Item[] }>("GET", `/v1/${site.token}/collections/posts/items?page=5&limit=100`), 200)).items;
/** Lets the alarm (it also fires on its own) run until no rebuild job is left. */
async function drain(): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if ((await runInDurableObject(stub(), (_i, state) => count(state, REBUILD_JOBS))) === 0) return;
    if (!(await runDurableObjectAlarm(stub()))) await scheduler.wait(20);
  }
  throw new Error("the rebuild did not finish");
}

/** A collection of the site, and its items published in one batch. */
async function collectionWith(
  slug: string,
  fields: { key: string; type: string }[],
  items: { slug: string; data: Record<string, unknown> }[],
) {
  const write = (method: string, path: string, body: unknown) =>
    expectStatus(callJson(method, `/sites/${site.id}/collections/${path}`, { auth: site.adminKey, body }), 201);
  await write("PUT", slug, { name: slug, fields });
  await write("POST", `${slug}/items:batch`, { items: items.map((it) => ({ ...it, publish: true })) });
}

beforeAll(async () => {
  site = await newSite("pro");
  // A collection without media first (its items come first in `seq` order and are never rewritten).
  const notes = Array.from({ length: NOTES }, (_, i) => ({ slug: `note-${i}`, data: { title: `Note ${i}` } }));
  await collectionWith("notes", [{ key: "title", type: "text" }], notes);
  const posts = Array.from({ length: POSTS }, (_, i) => ({
    slug: `post-${i}`,
    data: { title: `Post ${i}`, cover: { url: `https://img.test/p${i}.jpg`, alt: "", width: 1000 } },
  }));
  await collectionWith(
    "posts",
    [
      { key: "title", type: "text" },
      { key: "cover", type: "image" },
    ],
    posts,
  );
  // Whatever the writes queued (search indexing, documents) is done before the hosts change.
  for (let i = 0; i < 20 && (await runDurableObjectAlarm(stub())); i++);
}, 60_000);

describe("PATCH imageResizingHosts on a site with many items", () => {
  it("rewrites nothing in the request, shows the new srcset at once, and rebuilds on the alarm a chunk per run", async () => {
    // Inside the object, with no I/O between the steps, so the alarm (which also fires on its own) cannot slip in.
    const steps = await runInDurableObject(stub(), async (instance: Site, state) => {
      const before = count(state, RESIZED_KEPT);
      const response = await instance.fetch(patchRequest(["img.test"]));
      const afterPatch = count(state, RESIZED_KEPT);
      const jobs = count(state, REBUILD_JOBS);
      await instance.alarm();
      return { status: response.status, before, afterPatch, jobs, afterOneRun: count(state, RESIZED_KEPT) };
    });
    // The request itself rewrote no kept JSON: the work is a queued job, and one alarm run does one
    // chunk (the notes in it are skipped: their JSON does not depend on the hosts).
    expect(steps).toEqual({ status: 200, before: 0, afterPatch: 0, jobs: 1, afterOneRun: CHUNK - NOTES });
    // Reads show the new hosts at once, the first and the last item alike, in lists and single items.
    const resized = "https://img.test/cdn-cgi/image/width=320,format=auto/p449.jpg 320w";
    expect((await item("post-449")).data.cover?.srcset.startsWith(resized)).toBe(true);
    expect((await item("post-0")).data.cover?.srcset).toContain("/cdn-cgi/image/");
    const during = await lastPage();
    expect(during.length).toBe(POSTS - 400);
    for (const it of during) expect(it.data.cover?.srcset, it.slug).toContain("/cdn-cgi/image/");
    await drain();
    expect(await runInDurableObject(stub(), (_i, state) => count(state, RESIZED_KEPT))).toBe(POSTS);
    // The kept copies are the bytes the reads computed meanwhile: a fresh version (a rename) answers the same.
    await patchHosts(["img.test"], "Renamed");
    expect(await lastPage()).toEqual(during);
  });

  it("starts over when the hosts change again mid-rebuild: items already rewritten are not trusted", async () => {
    const srcsets = await runInDurableObject(stub(), async (instance: Site, state) => {
      await instance.fetch(patchRequest(["other.test"]));
      await instance.alarm();
      // post-0 was rewritten by this rebuild's first chunk, without a resized candidate.
      const kept = count(state, RESIZED_KEPT);
      await instance.fetch(patchRequest(["img.test"]));
      const read = async (slug: string) =>
        (
          (await (await instance.fetch(new Request(`https://api.test/v1/${site.token}/collections/posts/items/${slug}`))).json()) as {
            item: Item;
          }
        ).item.data.cover?.srcset;
      return { kept, first: await read("post-0"), later: await read("post-300") };
    });
    expect(srcsets.kept).toBe(POSTS - (CHUNK - NOTES));
    // Its kept copy is out of date again after the second change, and the read does not use it.
    expect(srcsets.first).toContain("/cdn-cgi/image/");
    expect(srcsets.later).toContain("/cdn-cgi/image/");
    await drain();
    expect(await runInDurableObject(stub(), (_i, state) => count(state, RESIZED_KEPT))).toBe(POSTS);
    expect((await item("post-0")).data.cover?.srcset).toContain("/cdn-cgi/image/");
  });
});
