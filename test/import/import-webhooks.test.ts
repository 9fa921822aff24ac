/**
 * An import's rows send the signed item events a dashboard write of them sends, through the same
 * outbox and delivery job, to a real local receiver; the receiver's Standard Webhooks library
 * verifies every one. A new item written in two steps (its references name a later row) is
 * announced once, whole; a waiting draft that cannot be finished is removed without an event.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { addItem, callJson, expectStatus, newSite, putCollection, type TestSite } from "../helpers";
import { importFile, importRefusing, stubOf } from "./helpers";

const RECEIVER = inject("webhookReceiver");
const EVENTS = ["item.created", "item.updated", "item.published", "item.unpublished", "item.deleted", "import.finished"];

interface Received {
  headers: Record<string, string>;
  body: string;
}
interface Event {
  type: string;
  data: { collection?: string; item?: { id: string; slug: string; status: string; publishedAt: string | null }; import?: unknown };
}

const box = () => `imp${crypto.randomUUID().slice(0, 8)}`;
const received = async (name: string): Promise<Received[]> => (await fetch(`${RECEIVER}/__received/${name}`)).json();

/** Posts whose `related` field names other posts (rows of one file may point at each other). */
async function postsSite(): Promise<TestSite> {
  const site = await newSite("starter");
  await putCollection(site, "posts", {
    name: "Posts",
    fields: [
      { key: "title", type: "text", required: true },
      { key: "related", type: "references", collection: "posts", name: "Related" },
    ],
  });
  return site;
}

async function subscribe(site: TestSite, name: string): Promise<string> {
  const body = await expectStatus(
    callJson<{ secret: string }>("POST", `/sites/${site.id}/webhooks`, {
      auth: site.adminKey,
      body: { url: `${RECEIVER}/hooks/${name}`, events: EVENTS, description: "import receiver" },
    }),
    201,
  );
  return body.secret;
}

/** Runs the site's alarm (its delivery job) until the receiver has `n` deliveries (bounded). */
async function deliveriesOf(site: TestSite, name: string, n: number): Promise<Received[]> {
  const end = Date.now() + 30_000;
  for (;;) {
    const got = await received(name);
    if (got.length >= n) return got;
    if (Date.now() > end) throw new Error(`${got.length} of ${n} deliveries: ${got.map((r) => r.body.slice(0, 120)).join(" | ")}`);
    if (!(await runDurableObjectAlarm(stubOf(site)))) await scheduler.wait(50);
  }
}

/** Each delivery verified by the receiver's library; the events of each item in the order received. */
function verified(secret: string, got: Received[]): { events: Event[]; byItem: Map<string, string[]> } {
  const wh = new Webhook(secret);
  const events = got.map((r) => wh.verify(r.body, r.headers) as Event);
  expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(got.length);
  const byItem = new Map<string, string[]>();
  for (const e of events) if (e.data.item) byItem.set(e.data.item.slug, [...(byItem.get(e.data.item.slug) ?? []), e.type]);
  return { events, byItem };
}

describe("import: webhooks for every row", () => {
  it("sends each row's item events, signed, as a dashboard write would, then import.finished", async () => {
    const site = await postsSite();
    await addItem(site, "posts", { slug: "was-draft", data: { title: "Was draft" } });
    await addItem(site, "posts", { slug: "renamed", data: { title: "Before" } });
    await addItem(site, "posts", { slug: "same", data: { title: "Same" }, publish: true });
    const name = box();
    const secret = await subscribe(site, name);

    const csv = [
      "Name,Slug,Draft,Related",
      // Names a row further down: written as a draft first, announced once linked.
      "Alpha,alpha,false,beta",
      "Beta,beta,false,",
      "Gamma,gamma,true,",
      "Was draft,was-draft,false,",
      "After,renamed,true,",
      "Same,same,false,",
      "Broken,broken,false,nowhere",
    ].join("\n");
    const end = await importFile(site, "posts", csv);
    expect(end.state).toBe("done");
    expect(end.done).toEqual({ created: 3, updated: 2, skipped: 1, failed: 1 });

    // alpha 2, beta 2, gamma 1, was-draft 1 or 2, renamed 1, import.finished 1.
    const got = await deliveriesOf(site, name, 8);
    // Nothing more comes: every due delivery was sent by now.
    await runDurableObjectAlarm(stubOf(site));
    const all = await received(name);
    const { events, byItem } = verified(secret, all);
    expect(Object.fromEntries(byItem)).toEqual({
      alpha: ["item.created", "item.published"],
      beta: ["item.created", "item.published"],
      gamma: ["item.created"],
      "was-draft": byItem.get("was-draft")!.length === 2 ? ["item.updated", "item.published"] : ["item.published"],
      renamed: ["item.updated"],
    });
    expect(got.length).toBeGreaterThanOrEqual(8);
    // The linked item is announced whole: published, as a dashboard create-and-publish says it.
    const alpha = events.filter((e) => e.data.item?.slug === "alpha");
    expect(alpha.map((e) => [e.data.collection, e.data.item!.status])).toEqual([
      ["posts", "published"],
      ["posts", "published"],
    ]);
    expect(alpha[0]!.data.item!.publishedAt).not.toBeNull();
    const finished = events.filter((e) => e.type === "import.finished");
    expect(finished).toHaveLength(1);
    expect(finished[0]!.data.import).toMatchObject({ id: end.id, state: "done", created: 3, updated: 2, skipped: 1, failed: 1 });
  });

  it("a waiting draft whose target fails is removed without an event: receivers hear only of items the import made", async () => {
    const site = await postsSite();
    const name = box();
    const secret = await subscribe(site, name);
    const csv = ["Name,Slug,Draft,Related", "Waits,waits,false,target", "Target,target,false,", "Plain,plain,false,"].join("\n");
    // Something the dry run could not foresee: the database refuses the target's item.
    const end = await importRefusing(site, "posts", csv, "target");
    expect(end.done).toEqual({ created: 1, updated: 0, skipped: 0, failed: 2 });
    const items = await expectStatus(
      callJson<{ items: { slug: string }[] }>("GET", `/sites/${site.id}/collections/posts/items`, { auth: site.adminKey }),
      200,
    );
    expect(items.items.map((i) => i.slug)).toEqual(["plain"]);

    await deliveriesOf(site, name, 3);
    await runDurableObjectAlarm(stubOf(site));
    const { events, byItem } = verified(secret, await received(name));
    // The draft "waits" existed only inside the import: no created, no deleted.
    expect(Object.fromEntries(byItem)).toEqual({ plain: ["item.created", "item.published"] });
    expect(events.map((e) => e.type).sort()).toEqual(["import.finished", "item.created", "item.published"]);
  });
});
