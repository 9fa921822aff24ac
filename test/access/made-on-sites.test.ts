/**
 * What an Administrator made on a site does not outlive their right to make it: the admin key they
 * rotated (and so were shown), the webhook endpoints they registered (themselves or with their API
 * key), the share links they made. Removed, demoted and leaving, through the front Worker with real
 * accounts; the old key, its session, the link and the receiver are tried as the person who left
 * would try them. Scheduled changes they set stay.
 */
import { describe, expect, inject, it } from "vitest";
import { env, exports } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { call, callJson, expectStatus, OPERATOR, ORIGIN } from "../helpers";
import { cookieOf, PASSWORD, signUp } from "../helpers/accounts";
import { uniqueEmail } from "../helpers/mail";

const RECEIVER = inject("webhookReceiver");
const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });
type Person = Awaited<ReturnType<typeof signUp>>;
interface Revoked {
  invitations: string[];
  apiKeys: string[];
  adminKeys: string[];
  webhooks: string[];
  previewLinks: string[];
}
interface Endpoint {
  id: string;
  state: string;
  disabledReason: string | null;
  disabledMaker: string | null;
}

let people = 0;
const newPerson = (label: string) => signUp(uniqueEmail(label), PASSWORD, { "cf-connecting-ip": `198.51.100.${100 + ++people}` });

/** An Owner's Pro workspace with one site, a `posts` collection and one draft the Owner wrote. */
async function workspace() {
  const owner = await newPerson("owner");
  const ws = (
    await expectStatus(
      callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Agency" } }),
      201,
    )
  ).workspace;
  await expectStatus(callJson("PATCH", `/workspaces/${ws.id}`, { auth: OPERATOR, body: { plan: "pro" } }), 200);
  const site = (
    await expectStatus(
      callJson<{ site: { id: string } }>("POST", "/sites", { ...as(owner.cookie), body: { name: "Blog", workspaceId: ws.id } }),
      201,
    )
  ).site;
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/collections/posts`, { ...as(owner.cookie), body: { fields: [{ key: "title", type: "text" }] } }),
    201,
  );
  const item = (
    await expectStatus(
      callJson<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, {
        ...as(owner.cookie),
        body: { slug: "launch", data: { title: "Launch" } },
      }),
      201,
    )
  ).item;
  return { owner, wsId: ws.id, siteId: site.id, itemId: item.id };
}

async function join(owner: Person, wsId: string, role: string): Promise<Person> {
  const { token } = await expectStatus(
    callJson<{ token: string }>("POST", `/workspaces/${wsId}/invitations`, { ...as(owner.cookie), body: { role } }),
    201,
  );
  const person = await newPerson(role);
  await expectStatus(callJson("POST", "/invitations/accept", { ...as(person.cookie), body: { token } }), 200);
  return person;
}

const box = () => `made${crypto.randomUUID().slice(0, 8)}`;
const addEndpoint = (siteId: string, auth: { auth: string } | ReturnType<typeof as>) =>
  expectStatus(
    callJson<{ endpoint: Endpoint }>("POST", `/sites/${siteId}/webhooks`, {
      ...auth,
      body: { url: `${RECEIVER}/hooks/${box()}`, events: ["item.published", "item.updated"] },
    }),
    201,
  ).then((r) => r.endpoint);

/** What an Administrator leaves behind on the site: the admin key and its session, two endpoints, a share link, a schedule. */
async function leaveBehind(admin: Person, wsId: string, siteId: string, itemId: string) {
  const { adminKey } = await expectStatus(callJson<{ adminKey: string }>("POST", `/sites/${siteId}/admin-key`, as(admin.cookie)), 200);
  const keySession = await call("POST", "/sessions", { body: { key: adminKey }, headers: { origin: ORIGIN } });
  expect(keySession.status).toBe(201);
  const apiKey = (
    await expectStatus(
      callJson<{ apiKey: { id: string; key: string } }>("POST", `/workspaces/${wsId}/api-keys`, {
        ...as(admin.cookie),
        body: { name: "deploy", scope: "full" },
      }),
      201,
    )
  ).apiKey;
  const endpoint = await addEndpoint(siteId, as(admin.cookie));
  const byKey = await addEndpoint(siteId, { auth: apiKey.key });
  const share = await expectStatus(
    callJson<{ link: { id: string }; url: string }>("POST", `/sites/${siteId}/collections/posts/items/${itemId}/preview-links`, {
      ...as(admin.cookie),
      body: { label: "for the client" },
    }),
    201,
  );
  await expectStatus(
    callJson("PUT", `/sites/${siteId}/collections/posts/items/${itemId}/schedule`, {
      ...as(admin.cookie),
      body: { publishAt: "2030-01-01T09:00:00+00:00" },
    }),
    200,
  );
  // All of it works while its maker is an Administrator.
  await expectStatus(callJson("GET", `/sites/${siteId}/collections`, { auth: adminKey }), 200);
  expect((await open(share.url)).status).toBe(200);
  return { adminKey, keyCookie: cookieOf(keySession), apiKey, endpoint, byKey, share };
}

/** A browser opening a share link: `/p/#<token>` posts its token to `/p/open` (docs/share-links.md). */
const open = (url: string) => {
  const u = new URL(url);
  const nav = { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate", "sec-fetch-site": "none" };
  if (!u.hash) return exports.default.fetch(new Request(url, { headers: nav, redirect: "manual" }));
  return exports.default.fetch(
    new Request(`${u.origin}/p/open`, {
      method: "POST",
      body: new URLSearchParams({ token: u.hash.slice(1) }).toString(),
      headers: { ...nav, "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    }),
  );
};

const endpoints = async (owner: Person, siteId: string) =>
  (await expectStatus(callJson<{ endpoints: Endpoint[] }>("GET", `/sites/${siteId}/webhooks`, as(owner.cookie)), 200)).endpoints;

const deliveriesOf = async (owner: Person, siteId: string, endpointId: string) =>
  (
    await expectStatus(
      callJson<{ deliveries: unknown[] }>("GET", `/sites/${siteId}/webhooks/${endpointId}/deliveries`, as(owner.cookie)),
      200,
    )
  ).deliveries;

async function siteRows(owner: Person, wsId: string) {
  const page = await expectStatus(
    callJson<{
      entries: { operation: string; actor: { label: string }; target: string; siteId: string | null; details: Record<string, unknown> }[];
    }>("GET", `/workspaces/${wsId}/audit?limit=200`, as(owner.cookie)),
    200,
  );
  return page.entries
    .filter((e) => e.details?.cause !== undefined && e.siteId !== null && e.operation !== "revokeApiKey")
    .map((e) => ({ operation: e.operation, by: e.actor.label, cause: e.details.cause, madeBy: e.details.madeBy }));
}

/** The old admin key and the session it signed in are refused, and the site still has a way in for the Owner. */
async function expectKeyReplaced(owner: Person, siteId: string, made: { adminKey: string; keyCookie: string }) {
  expect((await callJson("GET", `/sites/${siteId}/collections`, { auth: made.adminKey })).status).toBe(401);
  expect((await callJson("GET", `/sites/${siteId}/collections`, as(made.keyCookie))).status).toBe(401);
  const fresh = await expectStatus(callJson<{ adminKey: string }>("POST", `/sites/${siteId}/admin-key`, as(owner.cookie)), 200);
  await expectStatus(callJson("GET", `/sites/${siteId}/collections`, { auth: fresh.adminKey }), 200);
}

/** Paused endpoints queue nothing, whatever is published. */
async function expectPaused(owner: Person, siteId: string, itemId: string, ids: string[], maker: string) {
  const listed = (await endpoints(owner, siteId)).filter((e) => ids.includes(e.id));
  expect(listed).toHaveLength(ids.length);
  for (const e of listed) expect(e).toMatchObject({ state: "disabled", disabledReason: "maker", disabledMaker: maker });
  await expectStatus(
    callJson("PATCH", `/sites/${siteId}/collections/posts/items/${itemId}`, { ...as(owner.cookie), body: { data: { title: "Changed" } } }),
    200,
  );
  for (const id of ids) expect(await deliveriesOf(owner, siteId, id)).toEqual([]);
}

async function expectScheduleKept(owner: Person, siteId: string, itemId: string) {
  const upcoming = await expectStatus(
    callJson<{ changes: { item: { id: string } }[] }>("GET", `/sites/${siteId}/schedule`, as(owner.cookie)),
    200,
  );
  expect(JSON.stringify(upcoming)).toContain(itemId);
}

describe("what a member made on a site goes when their right to make it goes", () => {
  it("removed: the admin key they were shown is replaced, their endpoints paused, their share link revoked, before the answer", async () => {
    const { owner, wsId, siteId, itemId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const made = await leaveBehind(admin, wsId, siteId, itemId);

    const removed = await expectStatus(
      callJson<{ revoked: Revoked }>("DELETE", `/workspaces/${wsId}/members/${admin.account.id}`, as(owner.cookie)),
      200,
    );
    expect(removed.revoked).toMatchObject({ apiKeys: [made.apiKey.id], adminKeys: [siteId], previewLinks: [made.share.link.id] });
    expect(removed.revoked.webhooks.sort()).toEqual([made.endpoint.id, made.byKey.id].sort());

    await expectKeyReplaced(owner, siteId, made);
    expect((await open(made.share.url)).status).toBe(404);
    await expectPaused(owner, siteId, itemId, [made.endpoint.id, made.byKey.id], admin.email);
    await expectScheduleKept(owner, siteId, itemId);
    expect(await siteRows(owner, wsId)).toEqual(
      expect.arrayContaining([
        { operation: "rotateAdminKey", by: owner.email, cause: "removed", madeBy: admin.email },
        { operation: "updateWebhookEndpoint", by: owner.email, cause: "removed", madeBy: admin.email },
        { operation: "revokePreviewLink", by: owner.email, cause: "removed", madeBy: admin.email },
      ]),
    );
    expect((await siteRows(owner, wsId)).filter((r) => r.operation === "updateWebhookEndpoint")).toHaveLength(2);

    // The Owner resumes one: it is theirs from now on and delivers again.
    const resumed = await expectStatus(
      callJson<{ endpoint: Endpoint }>("PATCH", `/sites/${siteId}/webhooks/${made.endpoint.id}`, {
        ...as(owner.cookie),
        body: { enabled: true },
      }),
      200,
    );
    expect(resumed.endpoint).toMatchObject({ state: "enabled", disabledReason: null, disabledMaker: null });
    await expectStatus(
      callJson("PATCH", `/sites/${siteId}/collections/posts/items/${itemId}`, { ...as(owner.cookie), body: { data: { title: "Again" } } }),
      200,
    );
    expect(await deliveriesOf(owner, siteId, made.endpoint.id)).toHaveLength(1);
  });

  it("demoted to Editor: the key and endpoints go (no keys.manage, no site.settings); the share link stays until Viewer", async () => {
    const { owner, wsId, siteId, itemId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const made = await leaveBehind(admin, wsId, siteId, itemId);

    const editor = await expectStatus(
      callJson<{ revoked: Revoked }>("PATCH", `/workspaces/${wsId}/members/${admin.account.id}`, {
        ...as(owner.cookie),
        body: { role: "editor" },
      }),
      200,
    );
    expect(editor.revoked).toMatchObject({ adminKeys: [siteId], previewLinks: [] });
    expect(editor.revoked.webhooks.sort()).toEqual([made.endpoint.id, made.byKey.id].sort());
    await expectKeyReplaced(owner, siteId, made);
    await expectPaused(owner, siteId, itemId, [made.endpoint.id, made.byKey.id], admin.email);
    // An Editor may share any item: the link stands.
    expect((await open(made.share.url)).status).toBe(200);

    const viewer = await expectStatus(
      callJson<{ revoked: Revoked }>("PATCH", `/workspaces/${wsId}/members/${admin.account.id}`, {
        ...as(owner.cookie),
        body: { role: "viewer" },
      }),
      200,
    );
    expect(viewer.revoked).toMatchObject({ adminKeys: [], webhooks: [], previewLinks: [made.share.link.id] });
    expect((await open(made.share.url)).status).toBe(404);
    await expectScheduleKept(owner, siteId, itemId);
    expect((await siteRows(owner, wsId)).map((r) => r.cause)).toEqual(["role", "role", "role", "role"]);
  });

  it("left: leaving takes the key, the endpoints and the link along, recorded as theirs", async () => {
    const { owner, wsId, siteId, itemId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const made = await leaveBehind(admin, wsId, siteId, itemId);

    const left = await expectStatus(
      callJson<{ revoked: Revoked }>("DELETE", `/workspaces/${wsId}/members/${admin.account.id}`, as(admin.cookie)),
      200,
    );
    expect(left.revoked).toMatchObject({ adminKeys: [siteId], previewLinks: [made.share.link.id] });
    expect(left.revoked.webhooks).toHaveLength(2);
    await expectKeyReplaced(owner, siteId, made);
    expect((await open(made.share.url)).status).toBe(404);
    await expectPaused(owner, siteId, itemId, [made.endpoint.id, made.byKey.id], admin.email);
    await expectScheduleKept(owner, siteId, itemId);
    expect(await siteRows(owner, wsId)).toEqual(
      expect.arrayContaining([{ operation: "rotateAdminKey", by: admin.email, cause: "left", madeBy: admin.email }]),
    );
  });

  it("the key's holder is whoever was shown it last: a rotation with the key keeps them, the Owner's own rotation ends theirs", async () => {
    const { owner, wsId, siteId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const { adminKey } = await expectStatus(callJson<{ adminKey: string }>("POST", `/sites/${siteId}/admin-key`, as(admin.cookie)), 200);
    // Rotated with the key itself: the one who held the old key holds the new one.
    const chained = await expectStatus(callJson<{ adminKey: string }>("POST", `/sites/${siteId}/admin-key`, { auth: adminKey }), 200);
    const second = await join(owner, wsId, "administrator");
    await expectStatus(callJson("DELETE", `/workspaces/${wsId}/members/${second.account.id}`, as(owner.cookie)), 200);
    await expectStatus(callJson("GET", `/sites/${siteId}/collections`, { auth: chained.adminKey }), 200);

    const removed = await expectStatus(
      callJson<{ revoked: Revoked }>("DELETE", `/workspaces/${wsId}/members/${admin.account.id}`, as(owner.cookie)),
      200,
    );
    expect(removed.revoked.adminKeys).toEqual([siteId]);
    expect((await callJson("GET", `/sites/${siteId}/collections`, { auth: chained.adminKey })).status).toBe(401);

    // Shown to the Owner last: an Administrator who rotated it before leaves with nothing of it.
    const third = await join(owner, wsId, "administrator");
    await expectStatus(callJson("POST", `/sites/${siteId}/admin-key`, as(third.cookie)), 200);
    const ownerKey = await expectStatus(callJson<{ adminKey: string }>("POST", `/sites/${siteId}/admin-key`, as(owner.cookie)), 200);
    const gone = await expectStatus(
      callJson<{ revoked: Revoked }>("DELETE", `/workspaces/${wsId}/members/${third.account.id}`, as(owner.cookie)),
      200,
    );
    expect(gone.revoked.adminKeys).toEqual([]);
    await expectStatus(callJson("GET", `/sites/${siteId}/collections`, { auth: ownerKey.adminKey }), 200);
  });

  it("a site not reached: the change answers 502, and the workspace's alarm sends it again until the site has ended it", async () => {
    const { owner, wsId, siteId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const { adminKey } = await expectStatus(callJson<{ adminKey: string }>("POST", `/sites/${siteId}/admin-key`, as(admin.cookie)), 200);
    const site = env.SITE.get(env.SITE.idFromName(siteId));
    const ws = env.WORKSPACE.get(env.WORKSPACE.idFromName(wsId));
    // The site fails the sweep (a table it reads is away), as a site that cannot be reached would.
    await runInDurableObject(site, (_i, state) => void state.storage.sql.exec("ALTER TABLE preview_links RENAME TO preview_links_away"));
    const failed = await callJson<{ error: { code: string; message: string } }>(
      "DELETE",
      `/workspaces/${wsId}/members/${admin.account.id}`,
      as(owner.cookie),
    );
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toContain("the workspace tries again in 5 seconds");
    // Saved: they are no longer a member; until the site has the sweep, its key stands.
    expect((await callJson("GET", `/workspaces/${wsId}`, as(admin.cookie))).status).toBe(404);
    await expectStatus(callJson("GET", `/sites/${siteId}/collections`, { auth: adminKey }), 200);
    const owed = () =>
      runInDurableObject(ws, (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM site_sweeps").one().n);
    expect(await owed()).toBe(1);

    await runInDurableObject(site, (_i, state) => void state.storage.sql.exec("ALTER TABLE preview_links_away RENAME TO preview_links"));
    await runInDurableObject(ws, (_i, state) => {
      state.storage.sql.exec("UPDATE site_sweeps SET next_at = 0");
      return state.storage.setAlarm(Date.now() - 1);
    });
    await runDurableObjectAlarm(ws);
    expect(await owed()).toBe(0);
    expect((await callJson("GET", `/sites/${siteId}/collections`, { auth: adminKey })).status).toBe(401);
    expect(await siteRows(owner, wsId)).toEqual([{ operation: "rotateAdminKey", by: owner.email, cause: "removed", madeBy: admin.email }]);
  });

  it("a site an Administrator created showed them its first key: it is replaced when they go, recorded or not", async () => {
    const { owner, wsId } = await workspace();
    const admin = await join(owner, wsId, "administrator");
    const create = async (name: string) =>
      (
        await expectStatus(
          callJson<{ site: { id: string; adminKey: string } }>("POST", "/sites", {
            ...as(admin.cookie),
            body: { name, workspaceId: wsId },
          }),
          201,
        )
      ).site;
    const recorded = await create("Theirs");
    // A site from before the key's holder was recorded: the workspace's audit log says who created it.
    const older = await create("Older");
    await runInDurableObject(env.SITE.get(env.SITE.idFromName(older.id)), (_i, state) => {
      state.storage.sql.exec("UPDATE site SET admin_key_by = NULL");
    });
    for (const s of [recorded, older]) await expectStatus(callJson("GET", `/sites/${s.id}/collections`, { auth: s.adminKey }), 200);
    const removed = await expectStatus(
      callJson<{ revoked: Revoked }>("DELETE", `/workspaces/${wsId}/members/${admin.account.id}`, as(owner.cookie)),
      200,
    );
    expect(removed.revoked.adminKeys.sort()).toEqual([recorded.id, older.id].sort());
    for (const s of [recorded, older]) expect((await callJson("GET", `/sites/${s.id}/collections`, { auth: s.adminKey })).status).toBe(401);
  });
});
