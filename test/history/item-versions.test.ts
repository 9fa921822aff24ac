/**
 * An item's version (`revision`, its newest revision's number) and `If-Match`: a change made
 * against an older version is refused with 412 and stores nothing, whichever write it is and
 * whoever moved the item on (another tab, a publish, the schedule). Without the header a change
 * goes ahead as it always did.
 */
import { describe, expect, it } from "vitest";
import { callJson, expectStatus, newBlog, type TestSite } from "../helpers";

interface Item {
  id: string;
  revision: number;
  status: string;
  data: { title?: string };
  pendingChanges: unknown;
}
interface Refusal {
  error: { code: string; message: string; details: { revision: number } };
}

const itemPath = (site: TestSite, id: string, rest = "") => `/sites/${site.id}/collections/posts/items/${id}${rest}`;

function send(site: TestSite, method: string, path: string, ifMatch: string | null, body?: unknown) {
  return callJson<{ item: Item } & Refusal>(method, path, {
    auth: site.adminKey,
    body,
    headers: ifMatch === null ? {} : { "if-match": ifMatch },
  });
}

async function current(site: TestSite, id: string): Promise<Item> {
  return (await expectStatus(callJson<{ item: Item }>("GET", itemPath(site, id), { auth: site.adminKey }), 200)).item;
}

describe("an item's version and If-Match", () => {
  it("counts up with every change, and a change against an older version is refused with 412 and stores nothing", async () => {
    const site = await newBlog("pro");
    const created = await expectStatus(
      callJson<{ item: Item }>("POST", `/sites/${site.id}/collections/posts/items`, {
        auth: site.adminKey,
        body: { slug: "story", data: { title: "First" } },
      }),
      201,
    );
    const id = created.item.id;
    expect(created.item.revision).toBe(1);

    // Tab A and tab B both opened revision 1; A saves first.
    const a = await send(site, "PATCH", itemPath(site, id), '"r1"', { data: { title: "From tab A" } });
    expect(a.status).toBe(200);
    expect(a.body.item.revision).toBe(2);
    const b = await send(site, "PATCH", itemPath(site, id), '"r1"', { data: { title: "From tab B" } });
    expect(b.status).toBe(412);
    expect(b.body.error.code).toBe("precondition_failed");
    expect(b.body.error.details.revision).toBe(2);
    expect(b.body.error.message).toMatch(/changed since you opened it.*Reload/);
    expect((await current(site, id)).data.title).toBe("From tab A");

    // The item is published elsewhere (by hand here; the schedule does the same): a screen that
    // still shows the draft cannot save over it, publish, delete, or keep pending changes.
    expect((await send(site, "POST", itemPath(site, id, "/publish"), null)).status).toBe(200);
    const live = await current(site, id);
    expect(live.revision).toBe(3);
    for (const [method, rest, body] of [
      ["PATCH", "", { data: { title: "Stale save" } }],
      ["PUT", "/pending", { data: { title: "Stale pending" } }],
      ["POST", "/unpublish", undefined],
      ["PUT", "/schedule", { unpublishAt: new Date(Date.now() + 86_400_000).toISOString() }],
      ["DELETE", "", undefined],
    ] as const) {
      const r = await send(site, method, itemPath(site, id, rest), '"r2"', body);
      expect(r.status, `${method} ${rest}`).toBe(412);
    }
    const after = await current(site, id);
    expect(after).toMatchObject({ revision: 3, status: "published", data: { title: "From tab A" }, pendingChanges: null });

    // The current version, a list of tags that holds it, a weak tag or `*` go ahead.
    const ok = await send(site, "PUT", itemPath(site, id, "/pending"), '"r1", W/"r3"', { data: { title: "Next" } });
    expect(ok.status).toBe(200);
    expect(ok.body.item.revision).toBe(4);
    expect((await send(site, "DELETE", itemPath(site, id, "/pending"), "*")).status).toBe(200);
    // Without the header a change goes ahead as before.
    expect((await send(site, "PATCH", itemPath(site, id), null, { data: { title: "No header" } })).status).toBe(200);

    // Lists carry each item's version too.
    const list = await expectStatus(
      callJson<{ items: Item[] }>("GET", `/sites/${site.id}/collections/posts/items`, { auth: site.adminKey }),
      200,
    );
    expect(list.items.map((i) => [i.id, i.revision])).toEqual([[id, 6]]);
  });
});
