/**
 * The role table, operation by operation: every site operation of src/access/operations.ts
 * against every role, through the real site object with the principal header the front Worker
 * sends. Allowed means the permission check let it through (the answer is not 403 `forbidden`;
 * it may still be a 404 or a plan's refusal); refused means 403 `forbidden` naming the permission.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS, type AccessEntry } from "../../src/access/operations";
import { ROLE_PERMISSIONS, ROLES } from "../../src/access/roles";
import { callJson, expectStatus, newSite, OPERATOR, type TestSite } from "../helpers";
import { asMember, siteCall } from "./principals";

const SITE_OPS = ACCESS.filter((e) => e.path === "/sites/{siteId}" || e.path.startsWith("/sites/{siteId}/"));

let n = 0;
const unique = () => `x${++n}${Math.random().toString(36).slice(2, 8)}`;

/** A request that would succeed (or fail for a reason other than permission) for each site operation. */
function requestFor(e: AccessEntry, item: string): { method: string; path: string; body?: unknown } {
  const it = `/collections/posts/items/${item}`;
  const specs: Record<string, { path: string; body?: unknown }> = {
    getSite: { path: "" },
    updateSite: { path: "", body: { name: "Renamed" } },
    getSiteStats: { path: "/stats" },
    rotateAdminKey: { path: "/admin-key" },
    getSearchStatus: { path: "/search" },
    retrySearchIndexing: { path: "/search/retry" },
    listCollections: { path: "/collections" },
    getCollection: { path: "/collections/posts" },
    putCollection: { path: `/collections/${unique()}`, body: { fields: [{ key: "title", type: "text" }] } },
    deleteCollection: { path: `/collections/${unique()}` },
    listDashboardItems: { path: "/collections/posts/items" },
    getDashboardItem: { path: it },
    createItem: { path: "/collections/posts/items", body: { slug: unique(), data: { title: "T" } } },
    createItems: { path: "/collections/posts/items:batch", body: { items: [{ slug: unique(), data: { title: "T" } }] } },
    updateItem: { path: it, body: { data: { title: "Changed" } } },
    deleteItem: { path: it },
    publishItem: { path: `${it}/publish` },
    publishItems: { path: "/collections/posts/items:publish", body: { ids: [item] } },
    unpublishItem: { path: `${it}/unpublish` },
    listMedia: { path: "/media" },
    createMedia: { path: "/media", body: { url: "https://images.example/a.jpg" } },
    updateMedia: { path: "/media/md_none", body: { alt: "x" } },
    uploadMedia: { path: "/media/files" },
    deleteMedia: { path: "/media/md_none" },
    replaceMedia: { path: "/media/md_none/file" },
    copyMedia: { path: "/media/md_none/copy" },
    getCapture: { path: "/ssr/capture" },
    getCaptureStatus: { path: "/ssr/capture/status" },
    putCapture: { path: "/ssr/capture", body: {} },
    deleteCapture: { path: "/ssr/capture" },
    refreshCapture: { path: "/ssr/refresh" },
    rotateWebhookSecret: { path: "/ssr/webhook-secret" },
    getProxyKey: { path: "/ssr/proxy-key" },
    getRichResults: { path: "/ssr/rich-results" },
    putRichResults: { path: "/ssr/rich-results", body: { type: "Article" } },
    previewPage: { path: "/ssr/preview" },
    // Redirects: a rule id nobody made answers 404 once the role may change it.
    listRedirects: { path: "/ssr/redirects" },
    createRedirect: { path: "/ssr/redirects", body: { from: `/${unique()}`, to: "/elsewhere" } },
    updateRedirect: { path: "/ssr/redirects/rd_none", body: { from: "/a", to: "/b" } },
    deleteRedirect: { path: "/ssr/redirects/rd_none" },
    exportRedirects: { path: "/ssr/redirects.csv" },
    importRedirects: { path: "/ssr/redirects/import", body: "from,to\r\n" },
    listItemRevisions: { path: `${it}/revisions` },
    getItemRevision: { path: `${it}/revisions/rv_1` },
    restoreItemRevision: { path: `${it}/revisions/rv_1/restore` },
    putItemSchedule: { path: `${it}/schedule`, body: {} },
    savePendingChanges: { path: `${it}/pending`, body: { data: { title: "Pending" } } },
    discardPendingChanges: { path: `${it}/pending` },
    deleteItemSchedule: { path: `${it}/schedule` },
    listUpcomingChanges: { path: "/schedule" },
    listTrash: { path: "/trash" },
    restoreDeletedItem: { path: `/trash/${item}/restore` },
    // Share links: a link id nobody made answers 404 once the role may revoke.
    createPreviewLink: { path: `${it}/preview-links`, body: {} },
    listPreviewLinks: { path: `${it}/preview-links` },
    revokePreviewLink: { path: `${it}/preview-links/pl_none` },
    getCustomHostname: { path: "/ssr/custom-hostname" },
    getCustomHostnameStatus: { path: "/ssr/custom-hostname/status" },
    putCustomHostname: { path: "/ssr/custom-hostname", body: { hostname: "www.example.com" } },
    deleteCustomHostname: { path: "/ssr/custom-hostname" },
    exportCollectionCsv: { path: "/collections/posts/export.csv" },
    exportSite: { path: "/export.json" },
    // Outbound webhooks: an endpoint id nobody made answers 404 once the role may ask.
    listWebhookEndpoints: { path: "/webhooks" },
    createWebhookEndpoint: { path: "/webhooks", body: { url: "ftp://refused.example/", events: ["item.created"] } },
    getWebhookEndpoint: { path: "/webhooks/whe_none" },
    updateWebhookEndpoint: { path: "/webhooks/whe_none", body: { description: "x" } },
    deleteWebhookEndpoint: { path: "/webhooks/whe_none" },
    rotateWebhookEndpointSecret: { path: "/webhooks/whe_none/rotate-secret", body: {} },
    sendWebhookTest: { path: "/webhooks/whe_none/test" },
    listWebhookDeliveries: { path: "/webhooks/whe_none/deliveries" },
    getWebhookDelivery: { path: "/webhooks/whe_none/deliveries/msg_none" },
    redeliverWebhook: { path: "/webhooks/whe_none/deliveries/msg_none/redeliver" },
    // Imports: uploads are parsed by the front Worker (the object answers 404 once the role may ask); an import id nobody made answers 404.
    createImport: { path: "/collections/posts/imports" },
    createSiteImport: { path: "/imports" },
    listImports: { path: "/imports" },
    getImport: { path: "/imports/imp_none" },
    setImportMapping: { path: "/imports/imp_none/mapping", body: { columns: [] } },
    startImport: { path: "/imports/imp_none/start" },
    cancelImport: { path: "/imports/imp_none/cancel" },
    listImportRows: { path: "/imports/imp_none/rows" },
    getImportReport: { path: "/imports/imp_none/report.csv" },
    deleteImport: { path: "/imports/imp_none" },
    getLocales: { path: "/locales" },
    putLocales: { path: "/locales", body: { primary: "en", secondary: [] } },
    listTranslations: { path: `${it}/locales` },
    putTranslation: { path: `${it}/locales/fr`, body: { slug: "bonjour", data: {} } },
    deleteTranslation: { path: `${it}/locales/fr` },
  };
  const spec = specs[e.id];
  if (!spec) throw new Error(`no request for ${e.id}: add one here`);
  return { method: e.method.toUpperCase(), ...spec };
}

let site: TestSite;

/** A draft made by the operator: nobody's own item. */
async function othersItem(): Promise<string> {
  // The operator's token: the Owner rotates the site's admin key in the first test.
  const r = await callJson<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, {
    auth: OPERATOR,
    body: { slug: unique(), data: { title: "Theirs" } },
  });
  return (await expectStatus(Promise.resolve(r), 201)).item.id;
}

beforeAll(async () => {
  site = await newSite("pro");
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/collections/posts`, { auth: OPERATOR, body: { fields: [{ key: "title", type: "text" }] } }),
    201,
  );
});

function expectAllowed(r: { status: number; body: { error?: { code: string } } }, what: string) {
  expect(r.body.error?.code, `${what}: ${JSON.stringify(r.body)}`).not.toBe("forbidden");
  expect(r.status, what).not.toBe(401);
}

function expectRefused(
  r: { status: number; body: { error?: { code: string; details?: { permission?: string } } } },
  permission: string,
  what: string,
) {
  expect(r.status, what).toBe(403);
  expect(r.body.error?.code, what).toBe("forbidden");
  expect(r.body.error?.details?.permission, what).toBe(permission);
}

describe("every site operation × every role", () => {
  it("covers every site operation of the access table", () => {
    for (const e of SITE_OPS) expect(() => requestFor(e, "it_x")).not.toThrow();
    expect(SITE_OPS.length).toBeGreaterThan(25);
  });

  for (const role of ROLES) {
    it(`${role}: each operation on someone else's item is allowed exactly when the role has its permission`, async () => {
      const me = asMember(`ac_${role}${unique()}`, site.workspaceId, role);
      for (const e of SITE_OPS) {
        if (e.access.who !== "member") continue;
        const req = requestFor(e, await othersItem());
        const r = await siteCall(site.id, me, req.method, req.path, req.body);
        const what = `${role} ${e.id}`;
        if (ROLE_PERMISSIONS[role].has(e.access.permission)) expectAllowed(r, what);
        else expectRefused(r, e.access.own && !ROLE_PERMISSIONS[role].has(e.access.own) ? e.access.own : e.access.permission, what);
      }
    });

    it(`${role}: on their own draft, "own" permissions are enough`, async () => {
      const me = asMember(`ac_${role}${unique()}`, site.workspaceId, role);
      const created = await siteCall(site.id, me, "POST", "/collections/posts/items", { slug: unique(), data: { title: "Mine" } });
      if (!ROLE_PERMISSIONS[role].has("items.create")) {
        expectRefused(created, "items.create", role);
        return;
      }
      expect(created.status).toBe(201);
      const mine = (created.body.item as { id: string }).id;
      for (const e of SITE_OPS.filter((x) => x.access.who === "member" && x.access.own)) {
        if (e.access.who !== "member") continue;
        const ownPerm = e.access.own!;
        const req = requestFor(e, mine);
        if (e.id === "deleteItem") continue; // tried last, below
        const r = await siteCall(site.id, me, req.method, req.path, req.body);
        const what = `${role} ${e.id} own`;
        const perms = ROLE_PERMISSIONS[role];
        if (perms.has(e.access.permission) || perms.has(ownPerm)) expectAllowed(r, what);
        else expectRefused(r, ownPerm, what);
      }
      const del = await siteCall(site.id, me, "DELETE", `/collections/posts/items/${mine}`);
      expect(del.status, `${role} deletes own draft`).toBe(200);
    });
  }

  it("Contributor: creates a draft, cannot publish it, cannot create it published, cannot edit it once published", async () => {
    const me = asMember(`ac_c${unique()}`, site.workspaceId, "contributor");
    const created = await siteCall(site.id, me, "POST", "/collections/posts/items", { slug: unique(), data: { title: "Draft" } });
    expect(created.status).toBe(201);
    const id = (created.body.item as { id: string }).id;
    expectRefused(await siteCall(site.id, me, "POST", `/collections/posts/items/${id}/publish`), "items.publish.own", "publish");
    expectRefused(
      await siteCall(site.id, me, "POST", "/collections/posts/items", { slug: unique(), data: { title: "P" }, publish: true }),
      "items.publish.own",
      "create published",
    );
    // The owner publishes it; the contributor can no longer change it.
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${id}/publish`, { auth: OPERATOR }), 200);
    expectRefused(
      await siteCall(site.id, me, "PATCH", `/collections/posts/items/${id}`, { data: { title: "Sneaky" } }),
      "items.publish.own",
      "edit published",
    );
  });

  it("Author: publishes their own item, not someone else's", async () => {
    const me = asMember(`ac_a${unique()}`, site.workspaceId, "author");
    const created = await siteCall(site.id, me, "POST", "/collections/posts/items", {
      slug: unique(),
      data: { title: "Mine" },
      publish: true,
    });
    expect(created.status).toBe(201);
    expectRefused(
      await siteCall(site.id, me, "POST", `/collections/posts/items/${await othersItem()}/publish`),
      "items.publish.any",
      "other",
    );
  });

  it("a member restricted to other sites, or of another workspace, does not see the site (404)", async () => {
    for (const p of [
      asMember(`ac_r${unique()}`, site.workspaceId, "owner", ["othersiteid00000"]),
      asMember(`ac_w${unique()}`, "ws_aaaaaaaaaaaaaaaa", "owner"),
    ]) {
      const r = await siteCall(site.id, p, "GET", "");
      expect(r.status).toBe(404);
      expect(r.body.error?.code).toBe("not_found");
    }
    // Restricted to this site: the role holds here, minus workspace-wide permissions (keys).
    const restricted = asMember(`ac_s${unique()}`, site.workspaceId, "administrator", [site.id]);
    expect((await siteCall(site.id, restricted, "GET", "")).status).toBe(200);
    expectRefused(await siteCall(site.id, restricted, "POST", "/admin-key"), "keys.manage", "restricted admin");
  });

  it("an unknown operation is refused even for the Owner, and a malformed principal is unauthorised", async () => {
    const owner = asMember(`ac_o${unique()}`, site.workspaceId, "owner");
    expect((await siteCall(site.id, owner, "POST", "/collections/posts/items/x/archive")).status).toBe(404);
    const { env } = await import("cloudflare:workers");
    const res = await env.SITE.get(env.SITE.idFromName(site.id)).fetch(
      new Request(`https://api.test/sites/${site.id}`, { headers: { "x-oc-principal": '{"principal":{"kind":"account"}}' } }),
    );
    expect(res.status).toBe(401);
  });
});
