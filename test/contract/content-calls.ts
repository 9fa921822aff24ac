/**
 * The contract test's calls of one area: the public content API, search,
 * workspaces and sites, collections and items, capture and custom hostnames. They run inside the
 * `describe` of test/contract.test.ts, whose `afterAll` checks that every documented answer was produced.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { listPage } from "../fixtures/blog-pages";
import { ORIGIN, OPERATOR, callJson, newBlog } from "../helpers";
import { settleIndex } from "../search-helpers";
import { proveOwnership, view } from "../hostname-helpers";
import { capture as putCapture, publishedPost, putPage, signedHeaders } from "../ssr-helpers";
import { UNKNOWN_SITE, UNKNOWN_TOKEN, big, fixture, hit } from "./hit";

/** Registers this area's tests inside the contract test's `describe`. */
export function contentCalls(): void {
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
    expect(Object.keys(((await hit("getItem", "GET", `${v1}/items/hello?fields=title`)).body.item as { data: object }).data)).toEqual([
      "title",
    ]);
    await hit("getItem", "GET", `${v1}/items/hello?fields=nope`);
    await hit("listItems", "GET", `${v1}/items?fields=title,nope`);
    await hit("getItem", "GET", `${v1}/items/hello`, { headers: { "if-none-match": one.headers.get("etag")! } });
    await hit("getItem", "GET", `${v1}/items/missing`);
    // A published item renamed: its old slug answers 301 to the new one.
    const renamed = await callJson<{ item: { id: string } }>("POST", `/sites/${blog.id}/collections/posts/items`, {
      auth: blog.adminKey,
      body: { slug: "contract-old-slug", publish: true, data: { title: "Renamed for the contract" } },
    });
    await callJson("PATCH", `/sites/${blog.id}/collections/posts/items/${renamed.body.item.id}`, {
      auth: blog.adminKey,
      body: { slug: "contract-new-slug" },
    });
    await hit("getItem", "GET", `${v1}/items/contract-old-slug`);

    const schema = await hit("getCollectionSchema", "GET", `${v1}/schema`);
    await hit("getCollectionSchema", "GET", `${v1}/schema`, { headers: { "if-none-match": schema.headers.get("etag")! } });
    await hit("getCollectionSchema", "GET", `/v1/${blog.token}/collections/nope/schema`);

    const text = { "content-type": "text/plain;charset=UTF-8" };
    await hit("reportWidgetSeen", "POST", `/v1/${blog.token}/seen`, { body: "https://blog.example/posts/", headers: text });
    await hit("reportWidgetSeen", "POST", `/v1/${blog.token}/seen`, { body: "not an address", headers: text });
    await hit("reportWidgetSeen", "POST", `/v1/${blog.token}/seen`, { body: `https://x.example/${"a".repeat(3000)}`, headers: text });
    await hit("reportWidgetSeen", "POST", `/v1/${UNKNOWN_TOKEN}/seen`, { body: "https://blog.example/", headers: text });
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
    await hit("publishItems", "POST", `${base}/collections/posts/items:publish`, { auth, body: { ids: [id] } });
    await hit("publishItems", "POST", `${base}/collections/posts/items:publish`, { auth, body: { ids: [id, "it_missing"] } });
    await hit("publishItems", "POST", `${base}/collections/posts/items:publish`, { auth, body: { ids: [] } });
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
    await hit("getRichResults", "GET", `${base}/rich-results`, { auth });
    await hit("putRichResults", "PUT", `${base}/rich-results`, { auth, body: { type: "Article" } });
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    await hit("putCapture", "PUT", `${base}/capture`, { auth, body: { pageUrl, collection: "posts" } });
    const again = await hit("putCapture", "PUT", `${base}/capture`, { auth, body: { pageUrl, collection: "posts" } });
    await hit("putCapture", "PUT", `${base}/capture`, { auth, body: { pageUrl, collection: "nope" } });
    await hit("putCapture", "PUT", `${base}/capture`, { auth, body: { pageUrl: await putPage("<p>no widget</p>"), collection: "posts" } });
    await hit("putCapture", "PUT", `/sites/${blog.id}/ssr/capture`, { auth: blog.adminKey, body: { pageUrl, collection: "posts" } });
    const captured = await hit("getCapture", "GET", `${base}/capture`, { auth });
    expect((await hit("getCaptureStatus", "GET", `${base}/capture/status`, { auth })).body).toEqual(captured.body);
    await hit("getRichResults", "GET", `${base}/rich-results`, { auth });
    await hit("putRichResults", "PUT", `${base}/rich-results`, { auth, body: { type: "BlogPosting" } });
    await hit("putRichResults", "PUT", `${base}/rich-results`, { auth, body: { type: "Product", fields: { "offers.price": "title" } } });
    await hit("putRichResults", "PUT", `/sites/${blog.id}/ssr/rich-results`, { auth: blog.adminKey, body: { type: "Article" } });
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
}
