/**
 * The contract test: every operation of openapi.json is called through the real
 * front Worker and site objects, with its success and each documented error, and
 * every answer is held to the document (test/contract/document.ts). An answer the
 * document does not describe fails; so does a documented answer no call produced.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterAll, describe, expect, inject, it } from "vitest";
import { listPage } from "./fixtures/blog-pages";
import { type CallOptions, type TestSite, ORIGIN, OPERATOR, addItem, call, callJson, newBlog, newSite } from "./helpers";
import { settleIndex } from "./search-helpers";
import { proveOwnership, view } from "./hostname-helpers";
import { capture as putCapture, publishedPost, putPage, signedHeaders } from "./ssr-helpers";
import { OPERATIONS, checkAnswer, documentedAnswers, exampleProblems } from "./contract/document";
import { linkIn, mailTo, uniqueEmail } from "./helpers/mail";
import { fragmentToken, PASSWORD } from "./helpers/accounts";
import { signToken } from "../src/accounts/tokens";
import { SoftAuthenticator } from "./helpers/soft-authenticator";
import { mediaFile } from "./fixtures/media-files";
import { SERVICE_TOKEN_HEADER } from "../src/contract/headers";
import { accountStub } from "../src/stubs";
import { IMPORT_LIMITS } from "../src/contract/imports";
import { until as importUntil } from "./import/helpers";

const seen = new Set<string>();

/** Calls `operationId` and holds the answer to the document; returns it for the test's own checks. */
async function hit(operationId: string, method: string, path: string, opts: CallOptions = {}) {
  const res = await call(method, path, opts);
  const headers = res.headers;
  const { answer, problems, body } = await checkAnswer(operationId, method, path, res);
  expect(problems, `${method} ${path} → ${answer}`).toEqual([]);
  seen.add(answer);
  return { status: res.status, body: body as Record<string, unknown>, headers };
}

/** `hit` on another of the service's hosts (an IP address, where passkeys cannot work). */
async function hitOn(base: string, operationId: string, method: string, path: string, headers: Record<string, string>) {
  const res = await exports.default.fetch(new Request(`${base}${path}`, { method, headers }));
  const { answer, problems } = await checkAnswer(operationId, method, path, res);
  expect(problems, `${method} ${base}${path} → ${answer}`).toEqual([]);
  seen.add(answer);
  return res.status;
}

/** As `hit`, for a request `call` cannot make (a file's bytes, a form, a stalled body). */
async function hitRequest(operationId: string, request: Request) {
  const res = await exports.default.fetch(request);
  const headers = res.headers;
  const { answer, problems, body } = await checkAnswer(operationId, request.method, request.url, res);
  expect(problems, `${request.method} ${request.url} → ${answer}`).toEqual([]);
  seen.add(answer);
  return { status: res.status, body: body as Record<string, unknown>, headers };
}

const UNKNOWN_SITE = "aaaaaaaaaaaaaaaa";
const UNKNOWN_TOKEN = `pk_${UNKNOWN_SITE}_aaaaaaaaaaaaaaaaaaaaaaaa`;
const big = () => JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) });

/** Answers other projects produce (they need another deployment), by the file that checks them. */
const ELSEWHERE: Record<string, string> = {
  "search 502 embedding_failed": "test/search-model-down.test.ts (model-down project)",
  "putCustomHostname 501 not_configured": "test/unconfigured/custom-hostname-not-configured.test.ts",
  "getCustomHostname 501 not_configured": "test/unconfigured/custom-hostname-not-configured.test.ts",
  "getCustomHostnameStatus 501 not_configured": "test/unconfigured/custom-hostname-not-configured.test.ts",
  "deleteCustomHostname 501 not_configured": "test/unconfigured/custom-hostname-not-configured.test.ts",
  "putCustomHostname 502 bad_gateway": "test/saas/custom-hostname-cloudflare.test.ts (workers-saas project)",
  // A membership push that fails (the Account unreachable): the outbox path, not producible through the front Worker here.
  "acceptInvitation 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "updateMember 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "removeMember 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "transferOwnership 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "deleteWorkspace 502 bad_gateway": "actors/workspace.ts #destroySites (not exercised: needs a site object that fails)",
  "createApiKey 409 conflict": "actors/workspace/api-keys.ts MAX_API_KEYS (100 keys; not exercised)",
  "createWorkspace 409 conflict": "src/routes/dashboard.ts MAX_MEMBERSHIPS (50 workspaces per account; not exercised)",
  "putItemSchedule 409 conflict": "actors/site/history/schedule.ts MAX_SCHEDULED (1,000 scheduled items per site; not exercised)",
};

interface Fixture {
  blog: TestSite;
  starter: TestSite;
  seo: TestSite;
  itemId: string;
  workspaceId: string;
}
let fx: Fixture;

async function fixture(): Promise<Fixture> {
  if (fx) return fx;
  const blog = await newBlog("pro");
  const starter = await newBlog("starter");
  const seo = await newBlog("seo_engine");
  const item = await addItem(blog, "posts", { slug: "hello", publish: true, data: { title: "Puppy training for beginners" } });
  await addItem(blog, "posts", { slug: "second", publish: true, data: { title: "Teaching a young dog to sit" } });
  await addItem(starter, "posts", { slug: "hello", publish: true, data: { title: "Hello" } });
  const ws = await call("POST", "/workspaces", { auth: OPERATOR, body: { name: "Contract", plan: "pro" } });
  const { workspace } = (await ws.json()) as { workspace: { id: string } };
  fx = { blog, starter, seo, itemId: item.id, workspaceId: workspace.id };
  return fx;
}

/** A path of `template` with real values (a `/workspaces/{id}` id is the workspace's). */
function fill(template: string, site: TestSite, f: Fixture, siteId = site.id): string {
  const values: Record<string, string> = {
    token: site.token,
    siteId,
    slug: "posts",
    itemSlug: "hello",
    id: template.startsWith("/workspaces") ? f.workspaceId : f.itemId,
    secret: "0".repeat(48),
    asset: "swagger-ui.css",
    path: "blog/",
  };
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? k);
}

describe("the API answers exactly as openapi.json describes", () => {
  it("describes the public content API", async () => {
    const { blog, starter } = await fixture();
    const v1 = `/v1/${blog.token}/collections/posts`;
    const list = await hit("listItems", "GET", `${v1}/items?sort=-publishedAt&filter[title][contains]=puppy&limit=5`);
    expect(list.body.total).toBe(1);
    await hit("listItems", "GET", `${v1}/items?sort=-publishedAt&filter[title][contains]=puppy&limit=5`, {
      headers: { "if-none-match": list.headers.get("etag")! },
    });
    await hit("listItems", "GET", `${v1}/items?filter[titel]=x`);
    await hit("listItems", "GET", `/v1/${starter.token}/collections/posts/items?search=hello`);
    await hit("listItems", "GET", `/v1/${UNKNOWN_TOKEN}/collections/posts/items`);

    const one = await hit("getItem", "GET", `${v1}/items/hello`);
    await hit("getItem", "GET", `${v1}/items/hello`, { headers: { "if-none-match": one.headers.get("etag")! } });
    await hit("getItem", "GET", `${v1}/items/missing`);

    const schema = await hit("getCollectionSchema", "GET", `${v1}/schema`);
    await hit("getCollectionSchema", "GET", `${v1}/schema`, { headers: { "if-none-match": schema.headers.get("etag")! } });
    await hit("getCollectionSchema", "GET", `/v1/${blog.token}/collections/nope/schema`);
  });

  it("describes semantic search and related items", async () => {
    const { blog, starter } = await fixture();
    await settleIndex(blog);
    const q = `/v1/${blog.token}/search?q=${encodeURIComponent("puppy training")}&collection=posts`;
    const found = await hit("search", "GET", q);
    expect((found.body.results as unknown[]).length).toBeGreaterThan(0);
    await hit("search", "GET", q, { headers: { "if-none-match": found.headers.get("etag")! } });
    await hit("search", "GET", `/v1/${blog.token}/search?q=%20`);
    await hit("search", "GET", `/v1/${starter.token}/search?q=dogs`);
    await hit("search", "GET", `/v1/${UNKNOWN_TOKEN}/search?q=dogs`);

    const related = `/v1/${blog.token}/collections/posts/items/hello/related`;
    const r = await hit("relatedItems", "GET", related);
    await hit("relatedItems", "GET", related, { headers: { "if-none-match": r.headers.get("etag")! } });
    await hit("relatedItems", "GET", `/v1/${starter.token}/collections/posts/items/hello/related`);
    await hit("relatedItems", "GET", `/v1/${blog.token}/collections/posts/items/missing/related`);
  });

  it("describes workspaces and sites (operator token)", async () => {
    const f = await fixture();
    const created = await hit("createWorkspace", "POST", "/workspaces", { auth: OPERATOR, body: { name: "W", plan: "starter" } });
    const wsId = (created.body.workspace as { id: string }).id;
    await hit("getWorkspace", "GET", `/workspaces/${wsId}`, { auth: OPERATOR });
    await hit("getWorkspace", "GET", `/workspaces/ws_aaaaaaaaaaaaaaaa`, { auth: OPERATOR });
    await hit("updateWorkspace", "PATCH", `/workspaces/${wsId}`, { auth: OPERATOR, body: { plan: "pro" } });
    await hit("updateWorkspace", "PATCH", `/workspaces/ws_aaaaaaaaaaaaaaaa`, { auth: OPERATOR, body: { plan: "pro" } });
    const site = await hit("createSite", "POST", "/sites", { auth: OPERATOR, body: { name: "S", workspaceId: wsId } });
    const siteId = (site.body.site as { id: string; adminKey: string }).id;
    await hit("createSite", "POST", "/sites", { auth: OPERATOR, body: { name: "S", workspaceId: "ws_aaaaaaaaaaaaaaaa" } });
    await hit("updateSite", "PATCH", `/sites/${siteId}`, { auth: OPERATOR, body: { name: "Renamed" } });
    await hit("updateSite", "PATCH", `/sites/${siteId}`, { auth: f.blog.adminKey, body: { name: "Renamed" } });
    await hit("updateSite", "PATCH", `/sites/${UNKNOWN_SITE}`, { auth: OPERATOR, body: { name: "Renamed" } });
  });

  it("describes collections, media and items (admin key)", async () => {
    const { blog } = await fixture();
    const auth = blog.adminKey;
    const base = `/sites/${blog.id}`;
    await hit("getSite", "GET", base, { auth });
    await hit("getSearchStatus", "GET", `${base}/search`, { auth });
    await hit("listCollections", "GET", `${base}/collections`, { auth });
    await hit("getCollection", "GET", `${base}/collections/posts`, { auth });
    await hit("getCollection", "GET", `${base}/collections/Not_A_Slug`, { auth });
    await hit("getCollection", "GET", `${base}/collections/nope`, { auth });

    const tags = { name: "Tags", fields: [{ key: "label", type: "text" }] };
    await hit("putCollection", "PUT", `${base}/collections/tags`, { auth, body: tags });
    await hit("putCollection", "PUT", `${base}/collections/tags`, { auth, body: tags });
    await hit("putCollection", "PUT", `${base}/collections/tags`, { auth, body: { fields: [{ key: "id", type: "text" }] } });
    await hit("createItem", "POST", `${base}/collections/tags/items`, { auth, body: { slug: "t", data: { label: "L" } } });
    await hit("putCollection", "PUT", `${base}/collections/tags`, { auth, body: { fields: [{ key: "label", type: "number" }] } });
    await hit("putCollection", "PUT", `${base}/collections/Bad_Slug`, { auth, body: tags });
    await hit("deleteCollection", "DELETE", `${base}/collections/authors`, { auth });
    await hit("deleteCollection", "DELETE", `${base}/collections/tags`, { auth });
    await hit("deleteCollection", "DELETE", `${base}/collections/tags`, { auth });
    await hit("deleteCollection", "DELETE", `${base}/collections/Bad_Slug`, { auth });

    await hit("createMedia", "POST", `${base}/media`, { auth, body: { url: "https://img.example.com/a.jpg", alt: "A", width: 800 } });

    const created = await hit("createItem", "POST", `${base}/collections/posts/items`, {
      auth,
      body: { slug: "draft-one", data: { title: "D" } },
    });
    const id = (created.body.item as { id: string }).id;
    await hit("createItem", "POST", `${base}/collections/posts/items`, { auth, body: { slug: "draft-one", data: { title: "D" } } });
    await hit("createItem", "POST", `${base}/collections/nope/items`, { auth, body: { slug: "x" } });
    await hit("createItems", "POST", `${base}/collections/posts/items:batch`, {
      auth,
      body: {
        items: [
          { slug: "b1", data: { title: "B1" } },
          { slug: "b2", data: { title: "B2" }, publish: true },
        ],
      },
    });
    await hit("createItems", "POST", `${base}/collections/posts/items:batch`, {
      auth,
      body: {
        items: [
          { slug: "b3", data: { title: "B" } },
          { slug: "b3", data: { title: "B" } },
        ],
      },
    });
    await hit("createItems", "POST", `${base}/collections/nope/items:batch`, { auth, body: { items: [{ slug: "x" }] } });

    await hit("listDashboardItems", "GET", `${base}/collections/posts/items?status=draft&limit=2`, { auth });
    await hit("listDashboardItems", "GET", `${base}/collections/posts/items?status=deleted`, { auth });
    await hit("listDashboardItems", "GET", `${base}/collections/nope/items`, { auth });
    const item = `${base}/collections/posts/items/${id}`;
    await hit("getDashboardItem", "GET", item, { auth });
    await hit("getDashboardItem", "GET", `${base}/collections/posts/items/it_missing`, { auth });
    await hit("getDashboardItem", "GET", `${base}/collections/Bad_Slug/items/${id}`, { auth });
    await hit("updateItem", "PATCH", item, { auth, body: { data: { summary: "S" } } });
    await hit("updateItem", "PATCH", item, { auth, body: { slug: "hello" } });
    await hit("updateItem", "PATCH", `${base}/collections/posts/items/it_missing`, { auth, body: { slug: "x" } });
    for (const action of ["publish", "unpublish"] as const) {
      await hit(`${action}Item`, "POST", `${item}/${action}`, { auth });
      await hit(`${action}Item`, "POST", `${base}/collections/posts/items/it_missing/${action}`, { auth });
      await hit(`${action}Item`, "POST", `${base}/collections/Bad_Slug/items/${id}/${action}`, { auth });
    }
    await hit("deleteItem", "DELETE", item, { auth });
    await hit("deleteItem", "DELETE", item, { auth });
    await hit("deleteItem", "DELETE", `${base}/collections/Bad_Slug/items/${id}`, { auth });
  });

  it("describes capture, refresh, the webhook and rendered pages", async () => {
    const { blog } = await fixture();
    const site = await newBlog("seo_engine");
    await publishedPost(site, "hello", { title: "Hello" });
    const auth = site.adminKey;
    const base = `/sites/${site.id}/ssr`;
    await hit("getCapture", "GET", `${base}/capture`, { auth });
    // The status read answers the same question without a 404: none yet is null.
    expect((await hit("getCaptureStatus", "GET", `${base}/capture/status`, { auth })).body).toEqual({ capture: null });
    await hit("refreshCapture", "POST", `${base}/refresh`, { auth });
    await hit("deleteCapture", "DELETE", `${base}/capture`, { auth });
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    await hit("putCapture", "PUT", `${base}/capture`, { auth, body: { pageUrl, collection: "posts" } });
    const again = await hit("putCapture", "PUT", `${base}/capture`, { auth, body: { pageUrl, collection: "posts" } });
    await hit("putCapture", "PUT", `${base}/capture`, { auth, body: { pageUrl, collection: "nope" } });
    await hit("putCapture", "PUT", `${base}/capture`, { auth, body: { pageUrl: await putPage("<p>no widget</p>"), collection: "posts" } });
    await hit("putCapture", "PUT", `/sites/${blog.id}/ssr/capture`, { auth: blog.adminKey, body: { pageUrl, collection: "posts" } });
    const captured = await hit("getCapture", "GET", `${base}/capture`, { auth });
    expect((await hit("getCaptureStatus", "GET", `${base}/capture/status`, { auth })).body).toEqual(captured.body);
    await hit("refreshCapture", "POST", `${base}/refresh`, { auth });
    await hit("refreshCapture", "POST", `/sites/${blog.id}/ssr/refresh`, { auth: blog.adminKey });
    const broken = await newBlog("seo_engine");
    const brokenPage = await putPage(listPage({ service: ORIGIN, token: broken.token }));
    await putCapture(broken, { pageUrl: brokenPage, collection: "posts" });
    await putPage("<p>the widget is gone</p>", { path: new URL(brokenPage).pathname });
    await hit("refreshCapture", "POST", `/sites/${broken.id}/ssr/refresh`, { auth: broken.adminKey });

    const hookView = again.body.capture as { webhookUrl: string; webhookSecret: string };
    const webhookUrl = new URL(hookView.webhookUrl).pathname;
    const publishBody = JSON.stringify({ triggerType: "site_publish" });
    const otherBody = JSON.stringify({ triggerType: "form_submission" });
    await hit("ssrWebhook", "POST", webhookUrl, { body: publishBody, headers: await signedHeaders(hookView.webhookSecret, publishBody) });
    await hit("ssrWebhook", "POST", webhookUrl, { body: otherBody, headers: await signedHeaders(hookView.webhookSecret, otherBody) });
    await hit("ssrWebhook", "POST", webhookUrl, { body: publishBody });
    await hit("ssrWebhook", "POST", `/hooks/ssr/${UNKNOWN_SITE}`, { body: publishBody });
    await hit("ssrWebhook", "POST", webhookUrl, { body: big() });
    // A hook made before the secret left the URL (existing captures keep the old form until a rotation).
    const signed = await newBlog("seo_engine");
    const signedPage = await putPage(listPage({ service: ORIGIN, token: signed.token }));
    await putCapture(signed, { pageUrl: signedPage, collection: "posts", webhookSigningSecret: "a-signing-secret" });
    const legacySite = await newBlog("seo_engine");
    const legacyPage = await putPage(listPage({ service: ORIGIN, token: legacySite.token }));
    await putCapture(legacySite, { pageUrl: legacyPage, collection: "posts" });
    for (const s of [signed, legacySite]) {
      const stub = env.SITE.get(env.SITE.idFromName(s.id));
      await runInDurableObject(stub, (_i, state) => void state.storage.sql.exec("UPDATE ssr_capture SET webhook_legacy_url = 1"));
      await evictDurableObject(stub);
    }
    const legacyView = await callJson<{ capture: { webhookUrl: string } }>("GET", `/sites/${legacySite.id}/ssr/capture`, {
      auth: legacySite.adminKey,
    });
    const legacyHook = new URL(legacyView.body.capture.webhookUrl).pathname;
    await hit("ssrWebhookLegacy", "POST", legacyHook, { body: { triggerType: "site_publish" } });
    await hit("ssrWebhookLegacy", "POST", legacyHook, { body: { triggerType: "form_submission" } });
    await hit("ssrWebhookLegacy", "POST", `${legacyHook.slice(0, -4)}ffff`, { body: { triggerType: "site_publish" } });
    await hit("ssrWebhookLegacy", "POST", legacyHook, { body: big() });
    const signedView = await callJson<{ capture: { webhookUrl: string } }>("GET", `/sites/${signed.id}/ssr/capture`, {
      auth: signed.adminKey,
    });
    const signedHook = new URL(signedView.body.capture.webhookUrl).pathname;
    await hit("ssrWebhookLegacy", "POST", signedHook, {
      body: { triggerType: "site_publish" },
      headers: { "x-hub-signature-256": "sha256=00" },
    });
    await hit("rotateWebhookSecret", "POST", `/sites/${legacySite.id}/ssr/webhook-secret`, { auth: legacySite.adminKey });
    await hit("rotateWebhookSecret", "POST", `/sites/${blog.id}/ssr/webhook-secret`, { auth: blog.adminKey });
    const bare = await newBlog("seo_engine");
    await hit("rotateWebhookSecret", "POST", `/sites/${bare.id}/ssr/webhook-secret`, { auth: bare.adminKey });
    await hit("getProxyKey", "GET", `/sites/${bare.id}/ssr/proxy-key`, { auth: bare.adminKey });

    const basePath = new URL(pageUrl).pathname;
    const page = await hit("renderedPage", "GET", basePath, { headers: { "x-service-token": site.token } });
    await hit("renderedPage", "GET", basePath, { headers: { "x-service-token": site.token, "if-none-match": page.headers.get("etag")! } });
    await hit("renderedPage", "GET", `${basePath}sitemap.xml`, { headers: { "x-service-token": site.token } });
    await hit("renderedPage", "GET", basePath.slice(0, -1), { headers: { "x-service-token": site.token } });
    await hit("renderedPage", "GET", `${basePath}missing`, { headers: { "x-service-token": site.token } });
    await hit("renderedPage", "GET", basePath, { headers: { "x-service-token": UNKNOWN_TOKEN } });
    await hit("renderedPage", "GET", basePath, { headers: { "x-service-token": blog.token } });
    await hit("deleteCapture", "DELETE", `${base}/capture`, { auth });
  });

  it("describes custom hostnames", async () => {
    const { blog } = await fixture();
    const site = await newBlog("seo_engine");
    const auth = site.adminKey;
    const base = `/sites/${site.id}/ssr/custom-hostname`;
    const hostname = `blog-${crypto.randomUUID().slice(0, 8)}.example.test`;
    await hit("getCustomHostname", "GET", base, { auth });
    expect((await hit("getCustomHostnameStatus", "GET", `${base}/status`, { auth })).body).toEqual({ customHostname: null });
    await hit("deleteCustomHostname", "DELETE", base, { auth });
    await hit("putCustomHostname", "POST", base, { auth, body: { hostname } });
    // Proven (its TXT record published), the hostname is this site's: other sites then get 409.
    await proveOwnership((await view(site)).body.customHostname);
    await hit("putCustomHostname", "POST", base, { auth, body: { hostname } });
    await hit("putCustomHostname", "POST", base, { auth, body: { hostname: "http://not a host/" } });
    await hit("putCustomHostname", "POST", `/sites/${blog.id}/ssr/custom-hostname`, { auth: blog.adminKey, body: { hostname } });
    const other = await newBlog("seo_engine");
    await hit("putCustomHostname", "POST", `/sites/${other.id}/ssr/custom-hostname`, { auth: other.adminKey, body: { hostname } });
    const registered = await hit("getCustomHostname", "GET", base, { auth });
    expect((await hit("getCustomHostnameStatus", "GET", `${base}/status`, { auth })).body).toEqual(registered.body);
    await hit("deleteCustomHostname", "DELETE", base, { auth });
  });

  it("describes sessions, the dashboard and its screens' calls", async () => {
    const f = await fixture();
    const fresh = await newBlog("pro");
    const auth = fresh.adminKey;
    const base = `/sites/${fresh.id}`;
    const client = { "cf-connecting-ip": `198.51.100.${Math.floor(Math.random() * 200)}` };
    const signedIn = await hit("signIn", "POST", "/sessions", { body: { key: auth }, headers: client });
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const current = await hit("getCurrentSession", "GET", "/sessions/current", { headers: { cookie } });
    await hit("getCurrentSession", "GET", "/sessions/current");
    expect((await hit("getSessionStatus", "GET", "/sessions/current/status", { headers: { cookie } })).body).toEqual(current.body);
    expect((await hit("getSessionStatus", "GET", "/sessions/current/status")).body).toEqual({ session: null });
    await hit("signIn", "POST", "/sessions", { body: { key: auth }, headers: { origin: "https://elsewhere.test" } });
    const wrong = auth.slice(0, -4) + "aaaa";
    for (let i = 0; i < 3; i++) await hit("signIn", "POST", "/sessions", { body: { key: wrong }, headers: client });
    await hit("signIn", "POST", "/sessions", { body: { key: auth }, headers: client });
    await hit("getDashboard", "GET", "/dashboard/");

    await hit("getSiteStats", "GET", `${base}/stats`, { headers: { cookie } });
    await hit("listDashboardItems", "GET", `${base}/collections/posts/items?sort=-title&search=puppy`, { auth });
    await hit("listDashboardItems", "GET", `${base}/collections/posts/items?sort=notes`, { auth });
    await addItem(fresh, "posts", { slug: "pic", data: { title: "Pic", cover: { url: "https://img.example.com/p.jpg" } } });
    const media = await hit("listMedia", "GET", `${base}/media`, { auth });
    const mediaId = (media.body.media as { mediaId: string }[])[0]!.mediaId;
    await hit("updateMedia", "PATCH", `${base}/media/${mediaId}`, { auth, body: { alt: "A picture" } });
    await hit("updateMedia", "PATCH", `${base}/media/md_missing`, { auth, body: { alt: "x" } });
    await hit("retrySearchIndexing", "POST", `${base}/search/retry`, { auth });

    const seo = await newBlog("seo_engine");
    await hit("previewPage", "GET", `/sites/${seo.id}/ssr/preview`, { auth: seo.adminKey });
    const draft = await addItem(seo, "posts", { slug: "draft", data: { title: "Draft" } });
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: seo.token }));
    await putCapture(seo, { pageUrl, collection: "posts" });
    await hit("previewPage", "GET", `/sites/${seo.id}/ssr/preview?item=${draft.id}`, { auth: seo.adminKey });
    await hit("previewPage", "GET", `/sites/${seo.id}/ssr/preview?item=it_missing`, { auth: seo.adminKey });
    await hit("previewPage", "GET", `/sites/${f.blog.id}/ssr/preview`, { auth: f.blog.adminKey });

    await hit("rotateAdminKey", "POST", `${base}/admin-key`, { headers: { cookie, origin: ORIGIN } });
    await hit("signOut", "DELETE", "/sessions/current", { headers: { cookie, origin: "https://elsewhere.test" } });
    await hit("signOut", "DELETE", "/sessions/current", { headers: { cookie } });
  });

  it("describes accounts: sign-up, sign-in, reset and the account's sessions", async () => {
    const email = uniqueEmail("contract");
    const own = { origin: ORIGIN };
    const elsewhere = { origin: "https://elsewhere.test" };
    await hit("signUp", "POST", "/accounts", { body: { email }, headers: own });
    await hit("signUp", "POST", "/accounts", { body: { email }, headers: elsewhere });
    const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
    await hit("verifySignUp", "POST", "/accounts/verify", { body: { token, password: "nine-char" }, headers: own });
    await hit("verifySignUp", "POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: elsewhere });
    const made = await hit("verifySignUp", "POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: own });
    await hit("verifySignUp", "POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: own });
    const cookie = made.headers.get("set-cookie")!.split(";")[0]!;
    await hit("getCurrentSession", "GET", "/sessions/current", { headers: { cookie } });
    const second = await hit("signIn", "POST", "/sessions", { body: { email, password: PASSWORD }, headers: own });
    await hit("signIn", "POST", "/sessions", { body: { email, password: "wrong horse battery" }, headers: own });
    const otherCookie = second.headers.get("set-cookie")!.split(";")[0]!;
    const listed = await hit("listAccountSessions", "GET", "/account/sessions", { headers: { cookie } });
    await hit("listAccountSessions", "GET", "/account/sessions");
    const other = (listed.body.sessions as { id: string; current: boolean }[]).find((x) => !x.current)!;
    await hit("endAccountSession", "DELETE", `/account/sessions/${other.id}`, { headers: { cookie, ...elsewhere } });
    await hit("endAccountSession", "DELETE", `/account/sessions/${other.id}`, { headers: { cookie: otherCookie, ...own } });
    await hit("endAccountSession", "DELETE", `/account/sessions/${other.id}`, { headers: { cookie, ...own } });
    await hit("endAccountSession", "DELETE", `/account/sessions/${other.id}`, { headers: own });
    await hit("requestPasswordReset", "POST", "/account/password-reset", { body: { email }, headers: own });
    await hit("requestPasswordReset", "POST", "/account/password-reset", { body: { email }, headers: elsewhere });
    const reset = fragmentToken(linkIn(await mailTo(email, /Reset your password/)), "reset");
    await hit("confirmPasswordReset", "POST", "/account/password-reset/confirm", {
      body: { token: reset, password: PASSWORD },
      headers: elsewhere,
    });
    await hit("confirmPasswordReset", "POST", "/account/password-reset/confirm", {
      body: { token: reset, password: PASSWORD },
      headers: own,
    });
    await hit("confirmPasswordReset", "POST", "/account/password-reset/confirm", {
      body: { token: reset, password: PASSWORD },
      headers: own,
    });
  });

  it("describes passkeys: sign-up with one, add, list, rename, remove, sign in", async () => {
    const own = { origin: ORIGIN };
    const elsewhere = { origin: "https://elsewhere.test" };
    const email = uniqueEmail("contract-pk");
    await call("POST", "/accounts", { body: { email }, headers: own });
    const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
    type Options = { challenge: string; user: { id: string } };
    await hit("passkeySignUpOptions", "POST", "/accounts/verify/passkey/options", { body: { token }, headers: elsewhere });
    await hit("passkeySignUpOptions", "POST", "/accounts/verify/passkey/options", { body: { token: "nope" }, headers: own });
    const signUpOpts = await hit("passkeySignUpOptions", "POST", "/accounts/verify/passkey/options", { body: { token }, headers: own });
    const phone = new SoftAuthenticator("api.test", ORIGIN);
    const response = await phone.register(signUpOpts.body.options as Options);
    await hit("passkeySignUp", "POST", "/accounts/verify/passkey", { body: { token, response }, headers: elsewhere });
    await hit("passkeySignUp", "POST", "/accounts/verify/passkey", { body: { token: "nope", response }, headers: own });
    const made = await hit("passkeySignUp", "POST", "/accounts/verify/passkey", {
      body: { token, response, passkeyName: "Phone" },
      headers: own,
    });
    await hit("passkeySignUp", "POST", "/accounts/verify/passkey", { body: { token, response }, headers: own });
    const cookie = made.headers.get("set-cookie")!.split(";")[0]!;

    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: own });
    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: { cookie, ...elsewhere } });
    const regOpts = await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: { cookie, ...own } });
    const key = new SoftAuthenticator("api.test", ORIGIN);
    const keyResponse = await key.register(regOpts.body.options as Options);
    await hit("addPasskey", "POST", "/account/passkeys", { body: { response: keyResponse }, headers: own });
    await hit("addPasskey", "POST", "/account/passkeys", { body: { response: keyResponse }, headers: { cookie, ...elsewhere } });
    await hit("addPasskey", "POST", "/account/passkeys", { body: { response: { id: "x" } }, headers: { cookie, ...own } });
    const added = await hit("addPasskey", "POST", "/account/passkeys", {
      body: { response: keyResponse, name: "Key" },
      headers: { cookie, ...own },
    });
    const again = await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: { cookie, ...own } });
    await hit("addPasskey", "POST", "/account/passkeys", {
      body: { response: await key.register(again.body.options as Options) },
      headers: { cookie, ...own },
    });
    const keyId = (added.body.passkey as { id: string }).id;

    const text = { "content-type": "text/plain" };
    await hit("addPasskey", "POST", "/account/passkeys", { body: "name=x", headers: { cookie, ...own, ...text } });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: "name=x", headers: { cookie, ...own, ...text } });
    const listed = await hit("listPasskeys", "GET", "/account/passkeys", { headers: { cookie } });
    await hit("listPasskeys", "GET", "/account/passkeys");
    const phoneId = (listed.body.passkeys as { id: string; name: string }[]).find((p) => p.name === "Phone")!.id;
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: { name: "Yubikey" }, headers: { cookie, ...own } });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: { name: "" }, headers: { cookie, ...own } });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: { name: "Yubikey" }, headers: { cookie, ...elsewhere } });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${keyId}`, { body: { name: "Yubikey" }, headers: own });
    await hit("renamePasskey", "PATCH", `/account/passkeys/${"a".repeat(22)}`, { body: { name: "Yubikey" }, headers: { cookie, ...own } });

    await hit("passkeySignInOptions", "POST", "/sessions/passkey/options", { headers: elsewhere });
    // Browsers refuse an IP address as a relying party: the answer says to open localhost.
    expect(
      await hitOn("http://127.0.0.1", "passkeySignInOptions", "POST", "/sessions/passkey/options", { origin: "http://127.0.0.1" }),
    ).toBe(400);
    const ipCookie = cookie.replace(/^__Host-/, "");
    expect(
      await hitOn("http://127.0.0.1", "passkeyRegistrationOptions", "POST", "/account/passkeys/options", {
        origin: "http://127.0.0.1",
        cookie: ipCookie,
      }),
    ).toBe(400);
    const signInOpts = await hit("passkeySignInOptions", "POST", "/sessions/passkey/options", { headers: own });
    const assertion = await phone.assert(signInOpts.body.options as { challenge: string });
    await hit("passkeySignIn", "POST", "/sessions/passkey", { body: { response: assertion }, headers: elsewhere });
    await hit("passkeySignIn", "POST", "/sessions/passkey", { body: { response: {} }, headers: own });
    await hit("passkeySignIn", "POST", "/sessions/passkey", { body: { response: assertion }, headers: own });
    await hit("passkeySignIn", "POST", "/sessions/passkey", { body: { response: assertion }, headers: own });

    await hit("removePasskey", "DELETE", `/account/passkeys/${keyId}`, { headers: { cookie, ...elsewhere } });
    await hit("removePasskey", "DELETE", `/account/passkeys/${keyId}`, { headers: own });
    await hit("removePasskey", "DELETE", `/account/passkeys/${keyId}`, { headers: { cookie, ...own } });
    await hit("removePasskey", "DELETE", `/account/passkeys/${keyId}`, { headers: { cookie, ...own } });
    await hit("removePasskey", "DELETE", `/account/passkeys/${phoneId}`, { headers: { cookie, ...own } });

    // Signed in long ago: adding a passkey asks for the password again (this account has none;
    // the throttle of wrong ones is test/accounts-recent-sign-in.test.ts's).
    const accountId = (made.body.session as { account: { id: string } }).account.id;
    await runInDurableObject(accountStub(env, accountId), (_i, state) => {
      state.storage.sql.exec("UPDATE sessions SET created_at = created_at - 3600000");
    });
    const late = { cookie, ...own, "cf-connecting-ip": "192.0.2.77" };
    expect((await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { headers: late })).status).toBe(403);
    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { body: { password: "guess" }, headers: late });
    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { body: { password: 1 }, headers: late });
    await hit("passkeyRegistrationOptions", "POST", "/account/passkeys/options", { body: "password=x", headers: { ...late, ...text } });
  });

  it("describes workspaces: self-serve, members, invitations, API keys and the audit log", async () => {
    const own = { origin: ORIGIN };
    const signUpAs = async (who: string) => {
      const email = uniqueEmail(who);
      await call("POST", "/accounts", { body: { email }, headers: own });
      const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
      const made = await call("POST", "/accounts/verify", { body: { token, password: PASSWORD }, headers: own });
      const body = (await made.json()) as { session: { account: { id: string } } };
      return { email, id: body.session.account.id, headers: { cookie: made.headers.get("set-cookie")!.split(";")[0]!, ...own } };
    };
    const owner = await signUpAs("owner");
    const ws = await hit("createWorkspace", "POST", "/workspaces", { body: { name: "Self-serve" }, headers: owner.headers });
    const wsId = (ws.body.workspace as { id: string }).id;
    await hit("createSite", "POST", "/sites", { body: { name: "One", workspaceId: wsId }, headers: owner.headers });
    await hit("createSite", "POST", "/sites", { body: { name: "Two", workspaceId: wsId }, headers: owner.headers });
    const W = `/workspaces/${wsId}`;
    const invited = await signUpAs("member");
    const inv = await hit("createInvitation", "POST", `${W}/invitations`, {
      body: { email: invited.email, role: "editor" },
      headers: owner.headers,
    });
    const shared = await hit("createInvitation", "POST", `${W}/invitations`, { body: { role: "viewer" }, headers: owner.headers });
    // The Free plan's 3 members, pending invitations included: the next is refused.
    await hit("createInvitation", "POST", `${W}/invitations`, { body: { role: "viewer" }, headers: owner.headers });
    await hit("revokeInvitation", "DELETE", `${W}/invitations/${(shared.body.invitation as { id: string }).id}`, {
      headers: owner.headers,
    });
    await hit("listInvitations", "GET", `${W}/invitations`, { headers: owner.headers });
    const token = inv.body.token as string;
    await hit("lookupInvitation", "POST", "/invitations/lookup", { body: { token }, headers: own });
    await hit("lookupInvitation", "POST", "/invitations/lookup", { body: { token }, headers: { origin: "https://elsewhere.test" } });
    await hit("lookupInvitation", "POST", "/invitations/lookup", {
      body: { token: `iv_${wsId.slice(3)}_${"a".repeat(40)}` },
      headers: own,
    });
    // The stop link of the invitation mail: used (here undone at once), from elsewhere, altered, expired.
    const mailed = await mailTo(invited.email, /invited to a workspace/);
    const stop = fragmentToken(/https?:\/\/\S+#\/stop-invitations\/\S+/.exec(mailed.text)![0], "stop-invitations");
    await hit("stopInvitationMail", "POST", "/invitations/stop-mail", { body: { token: stop, stop: false }, headers: own });
    await hit("stopInvitationMail", "POST", "/invitations/stop-mail", {
      body: { token: stop },
      headers: { origin: "https://elsewhere.test" },
    });
    await hit("stopInvitationMail", "POST", "/invitations/stop-mail", { body: { token: `x${stop.slice(1)}` }, headers: own });
    const lapsed = await signToken(env.AUTH_SECRET ?? "", "invitation-mail-stop", { a: invited.id }, Date.now() - 1000);
    await hit("stopInvitationMail", "POST", "/invitations/stop-mail", { body: { token: lapsed }, headers: own });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: { token }, headers: own });
    await hit("acceptInvitation", "POST", "/invitations/accept", {
      body: { token: `iv_${wsId.slice(3)}_${"a".repeat(40)}` },
      headers: invited.headers,
    });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: { token }, headers: invited.headers });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: { token }, headers: invited.headers });
    await hit("lookupInvitation", "POST", "/invitations/lookup", { body: { token }, headers: own });
    const other = await hit("createInvitation", "POST", `${W}/invitations`, {
      body: { email: uniqueEmail("x"), role: "viewer" },
      headers: owner.headers,
    });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: { token: other.body.token }, headers: invited.headers });
    await hit("acceptInvitation", "POST", "/invitations/accept", { body: "[]", headers: invited.headers });
    await hit("acceptInvitation", "POST", "/invitations/accept", {
      body: "t=x",
      headers: { ...invited.headers, "content-type": "text/plain" },
    });
    await hit("revokeInvitation", "DELETE", `${W}/invitations/${(other.body.invitation as { id: string }).id}`, { headers: owner.headers });
    await hit("revokeInvitation", "DELETE", `${W}/invitations/inv_none`, { headers: owner.headers });
    await hit("listMembers", "GET", `${W}/members`, { headers: owner.headers });
    await hit("updateMember", "PATCH", `${W}/members/${invited.id}`, { body: { role: "viewer" }, headers: owner.headers });
    await hit("updateMember", "PATCH", `${W}/members/${owner.id}`, { body: { role: "viewer" }, headers: owner.headers });
    await hit("updateMember", "PATCH", `${W}/members/ac_none`, { body: { role: "viewer" }, headers: owner.headers });
    await hit("listMembers", "GET", `${W}/members`, { headers: invited.headers });
    await hit("listInvitations", "GET", `${W}/invitations`, { headers: invited.headers });
    await hit("listApiKeys", "GET", `${W}/api-keys`, { headers: invited.headers });
    await hit("listAudit", "GET", `${W}/audit`, { headers: invited.headers });
    await hit("exportAudit", "GET", `${W}/audit.csv`, { headers: invited.headers });
    // Only the Owner hands the workspace over or deletes it; ownership goes there and back.
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: owner.id }, headers: invited.headers });
    await hit("deleteWorkspace", "DELETE", W, { body: { confirm: "Self-serve" }, headers: invited.headers });
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: "ac_none" }, headers: owner.headers });
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: owner.id }, headers: owner.headers });
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: invited.id }, headers: owner.headers });
    await hit("transferOwnership", "POST", `${W}/owner`, { body: { accountId: owner.id }, headers: invited.headers });
    await hit("removeMember", "DELETE", `${W}/members/${owner.id}`, { headers: owner.headers });
    await hit("removeMember", "DELETE", `${W}/members/${invited.id}`, { headers: owner.headers });
    await hit("removeMember", "DELETE", `${W}/members/${invited.id}`, { headers: owner.headers });
    const key = await hit("createApiKey", "POST", `${W}/api-keys`, { body: { name: "ci", scope: "read" }, headers: owner.headers });
    await hit("listApiKeys", "GET", `${W}/api-keys`, { headers: owner.headers });
    await hit("revokeApiKey", "DELETE", `${W}/api-keys/${(key.body.apiKey as { id: string }).id}`, { headers: owner.headers });
    await hit("revokeApiKey", "DELETE", `${W}/api-keys/key_none`, { headers: owner.headers });
    await hit("listAudit", "GET", `${W}/audit?limit=2`, { headers: owner.headers });
    await hit("listAudit", "GET", `${W}/audit?before=nonsense`, { headers: owner.headers });
    await hit("exportAudit", "GET", `${W}/audit.csv`, { headers: owner.headers });
    await hit("exportAudit", "GET", `${W}/audit.csv?from=2000-01-01`, { headers: owner.headers });
    await hit("deleteWorkspace", "DELETE", W, { body: { confirm: "self-serve" }, headers: owner.headers });
    await hit("deleteWorkspace", "DELETE", W, { body: { confirm: "Self-serve" }, headers: owner.headers });
    await hit("getWorkspace", "GET", W, { headers: owner.headers });
    for (const [id, method, path] of [
      ["deleteWorkspace", "DELETE", ""],
      ["transferOwnership", "POST", "/owner"],
      ["listMembers", "GET", "/members"],
      ["listInvitations", "GET", "/invitations"],
      ["revokeInvitation", "DELETE", "/invitations/inv_none"],
      ["listApiKeys", "GET", "/api-keys"],
      ["createApiKey", "POST", "/api-keys"],
      ["revokeApiKey", "DELETE", "/api-keys/key_none"],
      ["listAudit", "GET", "/audit"],
      ["exportAudit", "GET", "/audit.csv"],
      ["updateMember", "PATCH", "/members/ac_none"],
      ["removeMember", "DELETE", "/members/ac_none"],
      ["createInvitation", "POST", "/invitations"],
    ] as const)
      await hit(id, method, `/workspaces/ws_aaaaaaaaaaaaaaaa${path}`, {
        auth: OPERATOR,
        body:
          method === "POST" || method === "PATCH" ? (id === "createApiKey" ? { name: "n", scope: "read" } : { role: "viewer" }) : undefined,
      });
  });

  it("describes media uploads and stored files", async () => {
    const { blog } = await fixture();
    const files = `${ORIGIN}/sites/${blog.id}/media/files`;
    const raw = (bytes: Uint8Array | ReadableStream<Uint8Array>, name: string, length?: number) =>
      new Request(files, {
        method: "POST",
        headers: {
          authorization: `Bearer ${blog.adminKey}`,
          "x-file-name": name,
          ...(length !== undefined
            ? { "content-length": String(length) }
            : bytes instanceof Uint8Array
              ? { "content-length": String(bytes.byteLength) }
              : {}),
        },
        body: bytes,
      });
    const made = await hitRequest("uploadMedia", raw(mediaFile("photo.jpg"), "photo.jpg"));
    expect(made.status).toBe(201);
    await hitRequest("uploadMedia", raw(mediaFile("photo.jpg"), "again.jpg"));
    const form = new FormData();
    form.append("alt", "A clip");
    form.append("file", new File([mediaFile("clip.mp4")], "clip.mp4"));
    await hitRequest(
      "uploadMedia",
      new Request(files, { method: "POST", headers: { authorization: `Bearer ${blog.adminKey}` }, body: form }),
    );
    await hitRequest("uploadMedia", raw(new Uint8Array(0), "empty.jpg"));
    await hitRequest("uploadMedia", raw(mediaFile("bomb.png"), "bomb.png"));
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(mediaFile("small.jpg"));
        c.close();
      },
    });
    await hitRequest("uploadMedia", raw(chunked, "chunked.jpg"));
    // A body that stops arriving: cut after the idle limit (2 s here).
    const stalled = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(mediaFile("small.jpg").subarray(0, 2000));
        return new Promise(() => undefined);
      },
    });
    await hitRequest("uploadMedia", raw(stalled, "stalled.jpg", 5109));

    const media = made.body.media as { url: string; srcset: string };
    await hitRequest("getMediaFile", new Request(media.url, { headers: { accept: "image/webp" } }));
    const clip = (
      (await call("GET", `/sites/${blog.id}/media?limit=50`, { auth: blog.adminKey }).then((r) => r.json())) as {
        media: { url: string; type?: string }[];
      }
    ).media.find((m) => m.type === "video/mp4")!;
    const clipFile = await hitRequest("getMediaFile", new Request(clip.url));
    await hitRequest("getMediaFile", new Request(clip.url, { headers: { "if-none-match": clipFile.headers.get("etag")! } }));
    await hitRequest("getMediaFile", new Request(clip.url, { headers: { range: "bytes=0-9" } }));
    await hitRequest("getMediaFile", new Request(clip.url, { headers: { range: "bytes=999999-" } }));
    await hitRequest("getMediaFile", new Request(clip.url.replace(/\/[0-9a-f]{12}\//, "/000000000000/")));

    const w320 = media.srcset.split(", ")[0]!.split(" ")[0]!;
    const variant = await hitRequest("getMediaVariant", new Request(w320, { headers: { accept: "image/webp" } }));
    await hitRequest(
      "getMediaVariant",
      new Request(w320, { headers: { accept: "image/webp", "if-none-match": variant.headers.get("etag")! } }),
    );
    await hitRequest("getMediaVariant", new Request(w320.replace("/w/320/", "/w/321/")));
    // A PNG whose header is whole but whose pixels are cut off: stored (its size is known), but it cannot be resized.
    const png = mediaFile("photo.png");
    const broken = await hitRequest("uploadMedia", raw(png.slice(0, 200), "broken.png"));
    const brokenRef = broken.body.media as { srcset: string };
    await hitRequest(
      "getMediaVariant",
      new Request(brokenRef.srcset.split(", ")[0]!.split(" ")[0]!, { headers: { accept: "image/webp" } }),
    );

    // Delete: in use (409), detached (200), gone (404).
    const cover = (await hitRequest("uploadMedia", raw(mediaFile("photo.gif"), "cover.gif"))).body.media as { mediaId: string };
    await addItem(blog, "posts", { slug: "with-cover", data: { title: "With a cover", cover: cover.mediaId } });
    await hit("deleteMedia", "DELETE", `/sites/${blog.id}/media/${cover.mediaId}`, { auth: blog.adminKey });
    await hit("deleteMedia", "DELETE", `/sites/${blog.id}/media/${cover.mediaId}?detach=true`, { auth: blog.adminKey });
    await hit("deleteMedia", "DELETE", `/sites/${blog.id}/media/${cover.mediaId}`, { auth: blog.adminKey });

    // Replace: done (200), unknown id (404), the bytes of another entry (409), another kind (415), pixels (413), empty (400), no length (411), stalled (408).
    const put = (mediaId: string, bytes: Uint8Array | ReadableStream<Uint8Array>, length?: number) =>
      new Request(`${ORIGIN}/sites/${blog.id}/media/${mediaId}/file`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${blog.adminKey}`,
          "x-file-name": "new.png",
          ...(length !== undefined ? { "content-length": String(length) } : {}),
        },
        body: bytes,
      });
    const png2 = mediaFile("photo.png");
    const target = (await hitRequest("uploadMedia", raw(mediaFile("small.jpg"), "target.jpg"))).body.media as { mediaId: string };
    expect((await hitRequest("replaceMedia", put(target.mediaId, png2, png2.byteLength))).status).toBe(200);
    await hitRequest("replaceMedia", put("md_missing", png2, png2.byteLength));
    const jpg = mediaFile("photo.jpg");
    await hitRequest("replaceMedia", put(target.mediaId, jpg, jpg.byteLength));
    const mp4 = mediaFile("clip.mp4");
    await hitRequest("replaceMedia", put(target.mediaId, mp4, mp4.byteLength));
    const bomb = mediaFile("bomb.png");
    await hitRequest("replaceMedia", put(target.mediaId, bomb, bomb.byteLength));
    await hitRequest("replaceMedia", put(target.mediaId, new Uint8Array(0), 0));
    await hitRequest(
      "replaceMedia",
      put(
        target.mediaId,
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(png2);
            c.close();
          },
        }),
      ),
    );
    await hitRequest(
      "replaceMedia",
      put(
        target.mediaId,
        new ReadableStream<Uint8Array>({
          pull(c) {
            c.enqueue(png2.subarray(0, 2000));
            return new Promise(() => undefined);
          },
        }),
        png2.byteLength + 10,
      ),
    );
    await hit("updateMedia", "PATCH", `/sites/${blog.id}/media/${target.mediaId}`, {
      auth: blog.adminKey,
      body: { focal: { x: 0.5, y: 0.1 } },
    });

    // Copy into library: stored (200), not a file (415), too many pixels (413), empty (400), the host failing (502), unknown (404).
    const copyOf = async (url: string) => {
      const made = await call("POST", `/sites/${blog.id}/media`, { auth: blog.adminKey, body: { url } });
      const id = ((await made.json()) as { media: { mediaId: string } }).media.mediaId;
      return hit("copyMedia", "POST", `/sites/${blog.id}/media/${id}/copy`, { auth: blog.adminKey });
    };
    expect((await copyOf(await putPage(mediaFile("small.jpg"), { type: "image/jpeg" }))).status).toBe(200);
    await copyOf(await putPage("<!doctype html><p>a page</p>", { type: "text/html" }));
    await copyOf(await putPage(mediaFile("bomb.png"), { type: "image/png" }));
    await copyOf(await putPage(new Uint8Array(0), { type: "image/png" }));
    await copyOf(await putPage("gone", { status: 404 }));
    await hit("copyMedia", "POST", `/sites/${blog.id}/media/md_missing/copy`, { auth: blog.adminKey });

    const onHost = (url: string, headers: Record<string, string> = {}) =>
      new Request(`${ORIGIN}${new URL(url).pathname.replace(/^\/m\/[^/]+\//, "/_media/")}`, {
        headers: { [SERVICE_TOKEN_HEADER]: blog.token, ...headers },
      });
    const hosted = await hitRequest("getHostMediaFile", onHost(clip.url));
    await hitRequest("getHostMediaFile", onHost(clip.url, { "if-none-match": hosted.headers.get("etag")! }));
    await hitRequest("getHostMediaFile", onHost(clip.url, { range: "bytes=-4" }));
    await hitRequest("getHostMediaFile", onHost(clip.url, { range: "bytes=999999-" }));
    await hitRequest("getHostMediaFile", onHost(clip.url.replace(/\/[0-9a-f]{12}\//, "/000000000000/")));
  });

  it("describes history, the trash and schedules", async () => {
    const site = await newBlog();
    const auth = site.adminKey;
    const base = `/sites/${site.id}`;
    const a = await addItem(site, "posts", { slug: "h1", data: { title: "One" } });
    const item = `${base}/collections/posts/items/${a.id}`;
    await hit("updateItem", "PATCH", item, { auth, body: { slug: "h2", data: { title: "Two" } } });
    const list = await hit("listItemRevisions", "GET", `${item}/revisions?limit=1`, { auth });
    expect(list.body.total).toBe(2);
    await hit("listItemRevisions", "GET", `${base}/collections/posts/items/it_missing/revisions`, { auth });
    const first = `${item}/revisions/${(((await hit("listItemRevisions", "GET", `${item}/revisions`, { auth })).body.revisions as { id: string }[]).at(-1) as { id: string }).id}`;
    await hit("getItemRevision", "GET", first, { auth });
    await hit("getItemRevision", "GET", `${item}/revisions/rv_0`, { auth });
    await hit("restoreItemRevision", "POST", `${first}/restore`, { auth });
    await hit("restoreItemRevision", "POST", `${item}/revisions/nope/restore`, { auth });
    await hit("updateItem", "PATCH", item, { auth, body: { slug: "h3" } });
    await addItem(site, "posts", { slug: "h1", data: { title: "Squatter" } });
    await hit("restoreItemRevision", "POST", `${first}/restore`, { auth });

    const live = await addItem(site, "posts", { slug: "live", data: { title: "Live" }, publish: true });
    const liveItem = `${base}/collections/posts/items/${live.id}`;
    await hit("savePendingChanges", "PUT", `${liveItem}/pending`, { auth, body: { data: { title: "Next" } } });
    await hit("savePendingChanges", "PUT", `${liveItem}/pending`, { auth, body: { slug: "h1" } });
    await hit("savePendingChanges", "PUT", `${base}/collections/posts/items/it_missing/pending`, { auth, body: {} });
    await hit("discardPendingChanges", "DELETE", `${liveItem}/pending`, { auth });
    await hit("discardPendingChanges", "DELETE", `${liveItem}/pending`, { auth });

    const soon = new Date(Date.now() + 3_600_000).toISOString();
    await hit("putItemSchedule", "PUT", `${item}/schedule`, { auth, body: { publishAt: soon, timeZone: "Europe/Paris" } });
    await hit("putItemSchedule", "PUT", `${item}/schedule`, { auth, body: { publishAt: "2001-01-01T00:00:00Z" } });
    await hit("putItemSchedule", "PUT", `${base}/collections/posts/items/it_missing/schedule`, { auth, body: {} });
    const upcoming = await hit("listUpcomingChanges", "GET", `${base}/schedule`, { auth });
    expect(upcoming.body.upcoming).toEqual([expect.objectContaining({ action: "publish", at: soon, timeZone: "Europe/Paris" })]);
    await hit("deleteItemSchedule", "DELETE", `${item}/schedule`, { auth });
    await hit("deleteItemSchedule", "DELETE", `${base}/collections/posts/items/it_missing/schedule`, { auth });

    await hit("deleteItem", "DELETE", item, { auth });
    const trash = await hit("listTrash", "GET", `${base}/trash`, { auth });
    expect(trash.body.total).toBe(1);
    await hit("restoreDeletedItem", "POST", `${base}/trash/${a.id}/restore`, { auth });
    await hit("restoreDeletedItem", "POST", `${base}/trash/${a.id}/restore`, { auth });
    await hit("deleteItem", "DELETE", item, { auth });
    await addItem(site, "posts", { slug: "h3", data: { title: "Taken" } });
    await hit("restoreDeletedItem", "POST", `${base}/trash/${a.id}/restore`, { auth });
  });

  it("describes share links", async () => {
    const site = await newBlog();
    const auth = site.adminKey;
    const a = await addItem(site, "posts", { slug: "draft", data: { title: "Draft" } });
    const links = `/sites/${site.id}/collections/posts/items/${a.id}/preview-links`;
    const created = await hit("createPreviewLink", "POST", links, { auth, body: { label: "Client", maxOpens: 5 } });
    expect(created.status).toBe(201);
    const url = new URL(created.body.url as string);
    await hit("createPreviewLink", "POST", links, { auth, body: { expiresIn: 60 } });
    await hit("createPreviewLink", "POST", `/sites/${site.id}/collections/posts/items/it_missing/preview-links`, { auth, body: {} });
    const locked = await hit("createPreviewLink", "POST", links, { auth, body: { password: "open sesame" } });
    for (let i = 0; i < 18; i++) await hit("createPreviewLink", "POST", links, { auth, body: {} });
    await hit("createPreviewLink", "POST", links, { auth, body: {} });
    await hit("listPreviewLinks", "GET", links, { auth });
    await hit("listPreviewLinks", "GET", `/sites/${site.id}/collections/posts/items/it_missing/preview-links`, { auth });

    const nav = { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" };
    // The link is /p/#<token>: the page at /p/ posts the token to /p/open.
    expect(url.pathname).toBe("/p/");
    const token = url.hash.slice(1);
    await hit("openShareLinkPage", "GET", "/p/", { headers: nav });
    const form = { ...nav, "content-type": "application/x-www-form-urlencoded" };
    const lockedToken = new URL(locked.body.url as string).hash.slice(1);
    await hit("openShareLink", "POST", "/p/open", { body: `token=${token}`, headers: form });
    await hit("openShareLink", "POST", "/p/open", { body: `token=${token}&format=json`, headers: form });
    await hit("openShareLink", "POST", "/p/open", { body: `token=pv_${site.id}_${"a".repeat(32)}`, headers: form });
    await hit("openShareLink", "POST", "/p/open", {
      body: `token=${token}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await hit("openShareLink", "POST", "/p/open", {
      body: `token=${lockedToken}&password=wrong`,
      headers: { ...form, "cf-connecting-ip": "192.0.2.77" },
    });
    for (let i = 0; i < 3; i++)
      await hit("openShareLink", "POST", "/p/open", {
        body: `token=${lockedToken}&password=wrong`,
        headers: { ...form, "cf-connecting-ip": "192.0.2.77" },
      });
    await hit("openShareLink", "POST", "/p/open", { body: big(), headers: form });
    // Links made before /p/#, with the token in the path.
    await hit("openPreviewLink", "GET", `/p/${token}`, { headers: nav });
    await hit("openPreviewLink", "GET", `/p/${token}?format=json`, { headers: nav });
    await hit("openPreviewLink", "GET", `/p/pv_${site.id}_${"a".repeat(32)}`, { headers: nav });
    const lockedPath = `/p/${lockedToken}`;
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=open%20sesame", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=wrong", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=wrong", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=wrong", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=wrong", headers: form });
    await hit("unlockPreviewLink", "POST", `/p/pv_${site.id}_${"a".repeat(32)}`, { body: "password=x", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, {
      body: "password=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

    const id = (created.body.link as { id: string }).id;
    await hit("revokePreviewLink", "DELETE", `${links}/${id}`, { auth });
    await hit("revokePreviewLink", "DELETE", `${links}/pl_missing`, { auth });
  });

  it("describes outbound webhooks and exports", async () => {
    const site = await newBlog("pro");
    const auth = site.adminKey;
    const B = `/sites/${site.id}/webhooks`;
    const url = `${inject("webhookReceiver")}/hooks/contract`;
    await hit("listWebhookEndpoints", "GET", B, { auth });
    const created = await hit("createWebhookEndpoint", "POST", B, { auth, body: { url, events: ["item.created"] } });
    const id = (created.body.endpoint as { id: string }).id;
    for (let i = 1; i < 10; i++)
      await hit("createWebhookEndpoint", "POST", B, { auth, body: { url: `${url}${i}`, events: ["item.deleted"] } });
    await hit("createWebhookEndpoint", "POST", B, { auth, body: { url, events: ["item.created"] } });
    const E = `${B}/${id}`;
    await hit("getWebhookEndpoint", "GET", E, { auth });
    await hit("updateWebhookEndpoint", "PATCH", E, { auth, body: { description: "Contract" } });
    await hit("updateWebhookEndpoint", "PATCH", E, { auth, body: { events: [] } });
    await hit("updateWebhookEndpoint", "PATCH", E, { auth, body: "name=x", headers: { "content-type": "text/plain" } });
    await hit("rotateWebhookEndpointSecret", "POST", `${E}/rotate-secret`, { auth, body: { overlapHours: 1 } });
    await hit("rotateWebhookEndpointSecret", "POST", `${E}/rotate-secret`, { auth, body: { overlapHours: 1000 } });
    await hit("rotateWebhookEndpointSecret", "POST", `${E}/rotate-secret`, { auth, body: "x", headers: { "content-type": "text/plain" } });
    const sent = await hit("sendWebhookTest", "POST", `${E}/test`, { auth });
    const eventId = (sent.body.delivery as { eventId: string }).eventId;
    await hit("listWebhookDeliveries", "GET", `${E}/deliveries`, { auth });
    await hit("listWebhookDeliveries", "GET", `${E}/deliveries?limit=0`, { auth });
    await hit("getWebhookDelivery", "GET", `${E}/deliveries/${eventId}`, { auth });
    await hit("redeliverWebhook", "POST", `${E}/deliveries/${eventId}/redeliver`, { auth });
    await hit("deleteWebhookEndpoint", "DELETE", E, { auth });
    await hit("exportCollectionCsv", "GET", `/sites/${site.id}/collections/posts/export.csv`, { auth });
    await hit("exportSite", "GET", `/sites/${site.id}/export.json`, { auth });
  });

  it("describes imports", async () => {
    const site = await newBlog("pro");
    const auth = site.adminKey;
    const post = (siteId: string, key: string, path: string, body: string | ReadableStream<Uint8Array>, type: string, length?: number) =>
      new Request(`${ORIGIN}/sites/${siteId}${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": type,
          ...(length !== undefined ? { "content-length": String(length) } : {}),
        },
        body,
      });
    const raw = (path: string, body: string | ReadableStream<Uint8Array>, type = "text/csv", length?: number) =>
      post(site.id, auth, path, body, type, length);
    // A body that stops arriving: cut after the idle limit (2 s here).
    const stalled = () =>
      new ReadableStream<Uint8Array>({
        pull(c) {
          c.enqueue(new TextEncoder().encode("Name,Slug\n"));
          return new Promise(() => undefined);
        },
      });
    const csv = "Name,Slug,Views\nHello,hello-import,3\nBad,bad-import,x\n";
    const made = await hitRequest("createImport", raw("/collections/posts/imports?name=a.csv", csv));
    expect(made.status).toBe(201);
    const id = (made.body.import as { id: string }).id;
    const mapping = (made.body.import as { mapping: unknown[] }).mapping;
    await hitRequest("createImport", raw("/collections/posts/imports", "Name,Slug\n"));
    await hitRequest("createImport", raw("/collections/nope/imports", csv));
    await hitRequest("createImport", raw("/collections/posts/imports", stalled(), "text/csv", 60 * 1024 * 1024));
    await hitRequest("createImport", raw("/collections/posts/imports", stalled(), "text/csv", 5000));
    const I = `/sites/${site.id}/imports`;
    await hit("listImports", "GET", I, { auth });
    await hit("getImport", "GET", `${I}/${id}`, { auth });
    await hit("getImport", "GET", `${I}/imp_nope`, { auth });
    await hit("startImport", "POST", `${I}/${id}/start`, { auth });
    await hit("startImport", "POST", `${I}/imp_nope/start`, { auth });
    await hit("setImportMapping", "PUT", `${I}/${id}/mapping`, { auth, body: { columns: [{ column: "Nope", use: "ignore" }] } });
    await hit("setImportMapping", "PUT", `${I}/imp_nope/mapping`, { auth, body: { columns: mapping } });
    await hit("setImportMapping", "PUT", `${I}/${id}/mapping`, { auth, body: "x", headers: { "content-type": "text/plain" } });
    await hit("setImportMapping", "PUT", `${I}/${id}/mapping`, { auth, body: { columns: mapping } });
    await importUntil(site, id, ["checked"]);
    await hit("listImportRows", "GET", `${I}/${id}/rows?outcome=error`, { auth });
    await hit("listImportRows", "GET", `${I}/${id}/rows?outcome=nope`, { auth });
    await hit("listImportRows", "GET", `${I}/imp_nope/rows`, { auth });
    await hit("startImport", "POST", `${I}/${id}/start`, { auth });
    await importUntil(site, id, ["done"]);
    await hit("setImportMapping", "PUT", `${I}/${id}/mapping`, { auth, body: { columns: mapping } });
    await hit("getImportReport", "GET", `${I}/${id}/report.csv`, { auth });
    await hit("getImportReport", "GET", `${I}/imp_nope/report.csv`, { auth });
    await hit("cancelImport", "POST", `${I}/${id}/cancel`, { auth });
    await hit("cancelImport", "POST", `${I}/imp_nope/cancel`, { auth });
    await hit("deleteImport", "DELETE", `${I}/${id}`, { auth });
    await hit("deleteImport", "DELETE", `${I}/${id}`, { auth });
    // A larger file's dry run is still running right after it starts: it cannot be deleted, only cancelled.
    const rows = Array.from({ length: 3000 }, (_, i) => `P ${i},p-${i},${i}`).join("\n");
    const big = await hitRequest("createImport", raw("/collections/posts/imports", `Name,Slug,Views\n${rows}\n`));
    const bigId = (big.body.import as { id: string; mapping: unknown[] }).id;
    await hit("setImportMapping", "PUT", `${I}/${bigId}/mapping`, {
      auth,
      body: { columns: (big.body.import as { mapping: unknown[] }).mapping },
    });
    await hit("deleteImport", "DELETE", `${I}/${bigId}`, { auth });
    await hit("cancelImport", "POST", `${I}/${bigId}/cancel`, { auth });
    // A site keeps at most IMPORT_LIMITS.keptImports imports at once: one more waits for a deletion.
    const kept = (await callJson<{ imports: unknown[] }>("GET", I, { auth })).body.imports.length;
    for (let n = kept; n < IMPORT_LIMITS.keptImports; n++)
      expect((await exports.default.fetch(raw(`/collections/posts/imports?name=f${n}.csv`, csv))).status).toBe(201);
    await hitRequest("createImport", raw("/collections/posts/imports?name=more.csv", csv));
    // A site export goes into an empty site only.
    const exported = await (await call("GET", `/sites/${site.id}/export.json`, { auth })).text();
    const empty = await newSite("pro");
    const into = (body: string | ReadableStream<Uint8Array>, length?: number) =>
      post(empty.id, empty.adminKey, "/imports?name=site.json", body, "application/json", length);
    await hitRequest("createSiteImport", into("{}\n"));
    await hitRequest("createSiteImport", into(stalled(), 60 * 1024 * 1024));
    await hitRequest("createSiteImport", into(stalled(), 5000));
    await hitRequest("createSiteImport", post(UNKNOWN_SITE, OPERATOR, "/imports", exported, "application/json"));
    expect((await hitRequest("createSiteImport", into(exported))).status).toBe(201);
    await hitRequest("createSiteImport", raw("/imports", exported, "application/json"));
  });

  it("describes the service's own documents", async () => {
    await hit("getServiceInfo", "GET", "/");
    const script = await hit("getEmbedScript", "GET", "/embed.js");
    await hit("getEmbedScript", "GET", "/embed.js", { headers: { "if-none-match": script.headers.get("etag")! } });
    const doc = await hit("getOpenApi", "GET", "/openapi.json");
    expect(doc.body.openapi).toBe("3.1.0");
    const docs = await hit("getApiReference", "GET", "/docs");
    expect(docs.headers.get("x-frame-options")).toBe("DENY");
    expect(docs.headers.get("content-security-policy")).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'.*frame-ancestors 'none'/);
    await hit("getApiReferenceAsset", "GET", "/docs/swagger-ui-bundle.js");
    await hit("getApiReferenceAsset", "GET", "/docs/nope.js");
  });

  it("describes the errors every authenticated call and every JSON body can cause", async () => {
    const f = await fixture();
    for (const op of OPERATIONS) {
      // Server rendering checks the plan before it reads a body; the fixture's item is the pro blog's.
      const site = op.path.includes("/ssr/") ? f.seo : f.blog;
      const security = (op.spec.security ?? []) as Record<string, unknown>[];
      const method = op.method.toUpperCase();
      const path = fill(op.path, site, f);
      const needsKey = security.some((s) => "siteKey" in s || "operator" in s);
      if (needsKey) {
        await hit(op.id, method, path, { auth: null });
        // A change made with a session cookie from another origin is refused before anything else.
        const cookie = `__Host-oc_session=ss_${site.id}_${"a".repeat(40)}`;
        if (method !== "GET") await hit(op.id, method, path, { auth: null, headers: { cookie, origin: "https://elsewhere.test" } });
        if (op.path.startsWith("/sites/{siteId}")) await hit(op.id, method, fill(op.path, site, f, UNKNOWN_SITE), { auth: OPERATOR });
      }
      // A change of an item sent against a version it never had (`If-Match`): 412, nothing changed.
      const params = (op.spec.parameters ?? []) as { name?: string; in?: string }[];
      if (params.some((p) => p.in === "header" && p.name === "if-match")) {
        const stale = await hit(op.id, method, path, {
          auth: OPERATOR,
          headers: { "if-match": '"r0"' },
          ...(op.spec.requestBody !== undefined ? { body: {} } : {}),
        });
        expect(stale.status, `${op.id} with a stale If-Match`).toBe(412);
      }
      const takesJson = op.spec.requestBody !== undefined && op.id !== "ssrWebhook" && op.id !== "ssrWebhookLegacy";
      if (takesJson) {
        await hit(op.id, method, path, { auth: OPERATOR, body: "[]" });
        await hit(op.id, method, path, { auth: OPERATOR, body: big() });
        await hit(op.id, method, path, { auth: OPERATOR, body: "name=x", headers: { "content-type": "text/plain" } });
      }
    }
  });

  it("shows examples (real answers) that match their schemas", () => {
    const { examples, problems } = exampleProblems();
    expect(examples).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  });

  afterAll(() => {
    // Runs after every test above: each documented answer was produced and checked.
    // 429 rate_limited is produced per policy, not per operation, in test/security/rate-limits.test.ts.
    const missing = documentedAnswers().filter(
      (a) => !seen.has(a) && !ELSEWHERE[a] && !(a.endsWith(" 429 rate_limited") && a !== "signIn 429 rate_limited"),
    );
    expect(missing).toEqual([]);
  });
});
