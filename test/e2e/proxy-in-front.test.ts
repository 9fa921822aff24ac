/**
 * The customer's set-up, end to end: the reverse-proxy Worker in one workerd
 * process in front of the service in another, serving /blog/ and /blog/:slug
 * exactly as the service renders them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Miniflare } from "miniflare";
import { buildWorker, startProxy } from "../../scripts/workerd-host.mjs";
import { listPage } from "../fixtures/blog-pages";
import { type Site, addPosts, api, blogSite, putPage, service } from "../browser/harness";

let proxy: { mf: Miniflare; base: string };
let site: Site;
let base: string;

beforeAll(async () => {
  site = await blogSite();
  await addPosts(site);
  base = `/proxy-${site.id}/blog/`;
  const pageUrl = await putPage(base, listPage({ service: service(), token: site.token }));
  await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "posts" });
  const script = buildWorker(".wrangler/proxy-test-build", "proxy/wrangler.toml");
  proxy = await startProxy({ scriptPath: script, ssrUrl: service(), serviceToken: site.token });
});
afterAll(async () => {
  await proxy?.mf.dispose();
});

const direct = (path: string) => fetch(`${service()}${path}`, { headers: { "x-service-token": site.token }, redirect: "manual" });
const viaProxy = (path: string, init: RequestInit = {}) => fetch(`${proxy.base}${path}`, { redirect: "manual", ...init });

describe("the proxy Worker in front of the service (two workerd processes)", () => {
  it("serves the list page and an item page byte for byte as the service renders them", async () => {
    for (const path of [base, `${base}hello-world`, `${base}?page=1`]) {
      const [a, b] = await Promise.all([direct(path), viaProxy(path)]);
      expect(b.status, path).toBe(a.status);
      expect(b.headers.get("content-type")).toBe(a.headers.get("content-type"));
      expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
      const [ha, hb] = [await a.text(), await b.text()];
      expect(hb).toBe(ha);
    }
    expect(await (await viaProxy(`${base}hello-world`)).text()).toContain(`<title>Hello &amp; &lt;World&gt; "quoted"</title>`);
  });

  it("passes redirects and 404s through unchanged", async () => {
    const bare = await viaProxy(base.slice(0, -1));
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe(base);
    const missing = await viaProxy(`${base}no-such-post`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-robots-tag")).toBe("noindex");
  });

  it("sends a renamed post's old address and an owner's old path on, one hop each", async () => {
    const { items } = await api<{ items: { id: string; slug: string }[] }>(
      "GET",
      `/sites/${site.id}/collections/posts/items?limit=100`,
      site.adminKey,
    );
    const post = items.find((i) => i.slug === "hello-world")!;
    await api("PATCH", `/sites/${site.id}/collections/posts/items/${post.id}`, site.adminKey, { slug: "hello-again" });
    await api("POST", `/sites/${site.id}/ssr/redirects`, site.adminKey, { from: `${base}2024/hello`, to: `${base}hello-world` });
    for (const path of [`${base}hello-world?ref=x`, `${base}2024/hello?ref=x`]) {
      const moved = await viaProxy(path);
      expect(moved.status, path).toBe(301);
      expect(moved.headers.get("location"), path).toBe(`${base}hello-again?ref=x`);
    }
    expect((await viaProxy(`${base}hello-again`)).status).toBe(200);
    // Back as it was, for the other tests.
    await api("PATCH", `/sites/${site.id}/collections/posts/items/${post.id}`, site.adminKey, { slug: "hello-world" });
  });

  it("serves the sitemap and feed under the same path", async () => {
    const sitemap = await viaProxy(`${base}sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(await sitemap.text()).toContain("hello-world");
    expect((await viaProxy(`${base}rss.xml`)).headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
  });

  it("revalidates with the ETag through the proxy", async () => {
    const first = await viaProxy(base);
    await first.text();
    const again = await viaProxy(base, { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });
});
