import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { OPERATOR, call, callJson, newSite } from "../helpers";
import { activeOn, onHost, renderedBlog, uniqueHost } from "../hostname-helpers";
import { capturedBlog, pathOf, publishedPost, rendered } from "../ssr-helpers";
import { pageRequest, pageResponse } from "../../src/edge/forward";

const nosniff = (res: Response) => res.headers.get("x-content-type-options");

describe("response headers on every answer", () => {
  it("X-Content-Type-Options: nosniff on JSON, errors, rendered pages, feeds, sitemaps, preview and docs", async () => {
    const { site, pageUrl } = await capturedBlog([{ slug: "hello", data: { title: "Hello" } }]);
    const blog = pathOf(pageUrl);
    await runDurableObjectAlarm(env.SITE.get(env.SITE.idFromName(site.id)));
    const answers: [string, Response][] = [
      ["root JSON", await call("GET", "/")],
      ["content list", await call("GET", `/v1/${site.token}/collections/posts/items`)],
      ["content list, cached", await call("GET", `/v1/${site.token}/collections/posts/items`)],
      ["error", await call("GET", "/v1/pk_aaaaaaaaaaaaaaaa_aaaaaaaaaaaaaaaaaaaaaaaa/collections/posts/items")],
      ["no such endpoint", await call("GET", "/nowhere")],
      ["rendered list", await rendered(site, blog)],
      ["rendered list, cached", await rendered(site, blog)],
      ["rendered item", await rendered(site, `${blog}hello`)],
      ["sitemap", await rendered(site, "/sitemap.xml")],
      ["feed", await rendered(site, "/rss.xml")],
      ["preview", await call("GET", `/sites/${site.id}/ssr/preview`, { auth: site.adminKey })],
      ["docs", await call("GET", "/docs")],
      ["openapi", await call("GET", "/openapi.json")],
      ["CORS preflight", await call("OPTIONS", `/v1/${site.token}/search`)],
      ["HEAD", await call("HEAD", "/")],
    ];
    const missing = answers.filter(([, res]) => nosniff(res) !== "nosniff").map(([what, res]) => `${what} (${res.status})`);
    expect(missing).toEqual([]);
  });

  it("Strict-Transport-Security on the service's own hosts over https, not over http and not on a customer's hostname", async () => {
    const https = await call("GET", "/");
    expect(https.headers.get("strict-transport-security")).toMatch(/^max-age=\d{7,}/);
    const http = await exports.default.fetch(new Request("http://api.test/"));
    expect(http.headers.get("strict-transport-security")).toBeNull();
    const site = await renderedBlog();
    const hostname = uniqueHost();
    await activeOn(site, hostname);
    const page = await onHost(hostname, "/");
    expect(page.status).toBe(200);
    expect(nosniff(page)).toBe("nosniff");
    expect(page.headers.get("strict-transport-security")).toBeNull();
  });

  it("Vary names x-service-token wherever the same URL answers differently with it", async () => {
    const { site, pageUrl } = await capturedBlog();
    const page = await rendered(site, pathOf(pageUrl));
    const api = await call("GET", pathOf(pageUrl));
    expect(page.status).toBe(200);
    expect(api.status).toBe(404);
    for (const res of [page, api, await call("GET", `/v1/${site.token}/collections/posts/items`)]) {
      expect(res.headers.get("vary")?.toLowerCase()).toContain("x-service-token");
    }
  });

  it("rendered pages neither pass on nor set the dashboard's cookie", async () => {
    const { site, pageUrl } = await capturedBlog([{ slug: "hello", data: { title: "Hello" } }]);
    await publishedPost(site, "two", { title: "Two" });
    const signIn = await call("POST", "/sessions", { body: { key: site.adminKey } });
    expect(signIn.status).toBe(201);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(cookie).toMatch(/^__Host-oc_session=/);
    const withCookie = await rendered(site, `${pathOf(pageUrl)}two`, { cookie });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get("set-cookie")).toBeNull();
    expect(await withCookie.text()).not.toContain(cookie.split("=")[1]!);
    // The session is still the dashboard's: a page request did not use it up or change it.
    const current = await callJson("GET", "/sessions/current", { headers: { cookie } });
    expect(current.status).toBe(200);
  });

  it("the request the site object renders from carries no cookie, and a cookie it sets is not passed on", async () => {
    // The two steps every rendered page goes through (src/ssr/routes.ts, custom-host.ts),
    // run here in workerd on what the visitor's browser would send and what an upstream could answer.
    const visitor = new Request("https://api.test/blog/two?page=2", {
      headers: { cookie: "__Host-oc_session=ss_secret_value; other=1", "x-service-token": "pk_x", accept: "text/html" },
    });
    const toSite = pageRequest(visitor, { "x-test-extra": "1" });
    expect(toSite.headers.get("cookie")).toBeNull();
    expect([...toSite.headers.keys()].join(" ")).not.toContain("cookie");
    expect(toSite.headers.get("accept")).toBe("text/html");
    expect(new URL(toSite.url).pathname).toBe("/blog/two");
    const upstream = new Response("<p>page</p>", {
      headers: { "content-type": "text/html", "set-cookie": "__Host-oc_session=stolen; Path=/; Secure" },
    });
    const out = pageResponse(upstream);
    expect(out.headers.get("set-cookie")).toBeNull();
    expect(out.headers.get("content-type")).toBe("text/html");
    expect(await out.text()).toBe("<p>page</p>");
  });

  it("/docs allows only its own scripts and its one inline script, by hash", async () => {
    const res = await call("GET", "/docs");
    const csp = res.headers.get("content-security-policy") ?? "";
    const html = await res.text();
    const inline = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? "";
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(inline));
    const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toContain("unsafe-inline' 'sha");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it("newSite still works (operator path carries the headers too)", async () => {
    const site = await newSite();
    const res = await call("GET", `/sites/${site.id}`, { auth: OPERATOR });
    expect(nosniff(res)).toBe("nosniff");
  });
});
