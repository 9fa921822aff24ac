// The owner's redirects: an old path answers 301 (or 302) to a new path or another site, on
// rendered pages through the service's routing and through a custom hostname; chains answer one
// hop, a loop is refused, the sitemap leaves a redirected page out, and the CSV goes out and back.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, call, callJson, expectStatus, newBlog, type TestSite } from "../helpers";
import { listPage } from "../fixtures/blog-pages";
import { activeOn, onHost, renderedBlog, uniqueHost } from "../hostname-helpers";
import { capture, pathOf, publishedPost, putPage, rendered } from "../ssr-helpers";

interface Rule {
  id: string;
  from: string;
  to: string;
  status: number;
}

async function blog() {
  const site = await newBlog("seo_engine");
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
  const base = pathOf(pageUrl);
  await expectStatus(capture(site, { pageUrl, publicUrl: `https://blog.example.com${base}`, collection: "posts" }), 201);
  return { site, base };
}

const add = (site: TestSite, body: Record<string, unknown>) =>
  callJson<{ redirect: Rule; error?: { code: string; message: string } }>("POST", `/sites/${site.id}/ssr/redirects`, {
    auth: site.adminKey,
    body,
  });
const list = (site: TestSite, q = "") =>
  callJson<{ redirects: Rule[]; total: number; automatic: number }>("GET", `/sites/${site.id}/ssr/redirects${q}`, { auth: site.adminKey });
const settle = (site: TestSite) => runDurableObjectAlarm(env.SITE.get(env.SITE.idFromName(site.id)));

describe("the owner's redirects", () => {
  it("send an old path to a new one, another site or for now (302), the query passed on", async () => {
    const { site, base } = await blog();
    await publishedPost(site, "spring-menu", { title: "Spring menu" });
    await expectStatus(add(site, { from: `${base}menu-2025/`, to: `${base}spring-menu` }), 201);
    await expectStatus(add(site, { from: `${base}old-shop`, to: "https://shop.example.com/?ref=blog" }), 201);
    await expectStatus(add(site, { from: `${base}sale`, to: `${base}spring-menu`, status: 302 }), 201);

    // The trailing slash is one address with the bare path.
    for (const path of [`${base}menu-2025`, `${base}menu-2025/`]) {
      const page = await rendered(site, `${path}?utm_source=mail`);
      expect(page.status, path).toBe(301);
      expect(page.headers.get("location")).toBe(`${base}spring-menu?utm_source=mail`);
    }
    // A target with its own query keeps it and only it.
    const away = await rendered(site, `${base}old-shop?utm_source=mail`);
    expect(away.status).toBe(301);
    expect(away.headers.get("location")).toBe("https://shop.example.com/?ref=blog");
    const forNow = await rendered(site, `${base}sale`);
    expect(forNow.status).toBe(302);
    expect((await rendered(site, `${base}spring-menu`)).status).toBe(200);

    const { body } = await list(site);
    expect(body.redirects.map((r) => [r.from, r.to, r.status])).toEqual([
      [`${base}menu-2025`, `${base}spring-menu`, 301],
      [`${base}old-shop`, "https://shop.example.com/?ref=blog", 301],
      [`${base}sale`, `${base}spring-menu`, 302],
    ]);
    expect((await list(site, "?q=SHOP")).body.redirects.map((r) => r.from)).toEqual([`${base}old-shop`]);
  });

  it("write a target typed with any characters as a browser sends it, and refuse one that is no URL", async () => {
    const { site, base } = await blog();
    await expectStatus(add(site, { from: `${base}café`, to: `${base}menu-du-café?jour=lundi` }), 201);
    await expectStatus(add(site, { from: `${base}japon`, to: "https://例え.jp/ページ" }), 201);
    const cafe = await rendered(site, `${base}caf%C3%A9`);
    expect(cafe.status).toBe(301);
    expect(cafe.headers.get("location")).toBe(`${base}menu-du-caf%C3%A9?jour=lundi`);
    const japan = await rendered(site, `${base}japon`);
    expect(japan.headers.get("location")).toBe("https://xn--r8jz45g.jp/%E3%83%9A%E3%83%BC%E3%82%B8");
    const { body } = await list(site);
    expect(body.redirects.map((r) => r.from)).toEqual([`${base}caf%C3%A9`, `${base}japon`]);
    expect((await add(site, { from: `${base}x`, to: "https://[broken/" })).status).toBe(400);
  });

  it("answer a chain in one hop, through renamed items too, and refuse a loop", async () => {
    const { site, base } = await blog();
    const post = await publishedPost(site, "bread", { title: "Bread" });
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/posts/items/${post.id}`, { auth: site.adminKey, body: { slug: "sourdough" } }),
      200,
    );
    await expectStatus(add(site, { from: `${base}a`, to: `${base}b` }), 201);
    // b → the item's old slug, which leads to its current one: a answers that at once.
    const b = (await expectStatus(add(site, { from: `${base}b`, to: `${base}bread` }), 201)).redirect;
    for (const path of ["a", "b", "bread"]) {
      const page = await rendered(site, `${base}${path}`);
      expect(page.status, path).toBe(301);
      expect(page.headers.get("location"), path).toBe(`${base}sourdough`);
    }

    const loop = await add(site, { from: `${base}sourdough`, to: `${base}a` });
    expect(loop.status).toBe(400);
    expect(loop.body.error?.message).toContain(`${base}sourdough → ${base}a → ${base}b → ${base}bread → ${base}sourdough`);
    const self = await add(site, { from: `${base}c`, to: `${base}c/` });
    expect(self.status).toBe(400);
    // Changing a rule is checked the same way.
    const turned = await callJson("PUT", `/sites/${site.id}/ssr/redirects/${b.id}`, {
      auth: site.adminKey,
      body: { from: `${base}b`, to: `${base}a` },
    });
    expect(turned.status).toBe(400);
    expect((await rendered(site, `${base}sourdough`)).status).toBe(200);

    const twice = await add(site, { from: `${base}a/`, to: "https://example.com/" });
    expect(twice.status).toBe(409);
  });

  it("win over a page at their path, which leaves the sitemap; deleting the rule brings it back", async () => {
    const { site, base } = await blog();
    await publishedPost(site, "old-offer", { title: "Old offer" });
    await publishedPost(site, "new-offer", { title: "New offer" });
    const rule = (await expectStatus(add(site, { from: `${base}old-offer`, to: `${base}new-offer` }), 201)).redirect;
    expect((await rendered(site, `${base}old-offer`)).status).toBe(301);
    await settle(site);
    let sitemap = await (await rendered(site, `${base}sitemap.xml`)).text();
    expect(sitemap).toContain(`https://blog.example.com${base}new-offer</loc>`);
    expect(sitemap).not.toContain(`${base}old-offer<`);

    await expectStatus(callJson("DELETE", `/sites/${site.id}/ssr/redirects/${rule.id}`, { auth: site.adminKey }), 200);
    expect((await rendered(site, `${base}old-offer`)).status).toBe(200);
    await settle(site);
    sitemap = await (await rendered(site, `${base}sitemap.xml`)).text();
    expect(sitemap).toContain(`${base}old-offer</loc>`);
  });

  it("go out as CSV and come back unchanged; a bad line refuses the whole file", async () => {
    const { site, base } = await blog();
    await expectStatus(add(site, { from: `${base}x,"quoted"`, to: `${base}y` }), 201);
    await expectStatus(add(site, { from: "/outside", to: "https://example.com/a?b=1,2", status: 302 }), 201);
    const csv = await (await call("GET", `/sites/${site.id}/ssr/redirects.csv`, { auth: site.adminKey })).text();
    expect(csv.split("\r\n")[0]).toBe("from,to,status");
    const before = (await list(site)).body.redirects;
    for (const r of before) await expectStatus(callJson("DELETE", `/sites/${site.id}/ssr/redirects/${r.id}`, { auth: site.adminKey }), 200);

    const imported = await callJson("POST", `/sites/${site.id}/ssr/redirects/import`, {
      auth: site.adminKey,
      body: csv,
      headers: { "content-type": "text/csv" },
    });
    expect(imported.body).toEqual({ added: 2, updated: 0, unchanged: 0 });
    const after = (await list(site)).body.redirects;
    expect(after.map((r) => [r.from, r.to, r.status])).toEqual(before.map((r) => [r.from, r.to, r.status]));

    // Another service's export (Shopify's columns), one good line and two bad ones: nothing is written.
    const other = "Redirect from;Redirect to\r\n/summer;/blog/summer\r\nsummer-no-slash;/x\r\n/loop;/loop\r\n";
    const refused = await callJson<{ error: { message: string; details: { issues: { path: string }[] } } }>(
      "POST",
      `/sites/${site.id}/ssr/redirects/import`,
      { auth: site.adminKey, body: other, headers: { "content-type": "text/csv" } },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues.map((i) => i.path)).toEqual(["line 3"]);
    const loop = await callJson<{ error: { message: string } }>("POST", `/sites/${site.id}/ssr/redirects/import`, {
      auth: site.adminKey,
      body: "from,to\n/loop,/loop-2\n/loop-2,/loop\n",
      headers: { "content-type": "text/csv" },
    });
    expect(loop.status).toBe(400);
    expect(loop.body.error.message).toContain("loop");
    expect((await list(site)).body.total).toBe(2);
  });

  it("apply on a custom hostname, to any path of the host, and after an item's rename", async () => {
    const site = await renderedBlog();
    const host = uniqueHost();
    await activeOn(site, host);
    await expectStatus(add(site, { from: "/about-us.html", to: "/hello" }), 201);
    const page = await onHost(host, "/about-us.html");
    expect(page.status).toBe(301);
    expect(page.headers.get("location")).toBe("/hello");
    const items = await callJson<{ items: { id: string; slug: string }[] }>("GET", `/sites/${site.id}/collections/posts/items`, {
      auth: site.adminKey,
    });
    const hello = items.body.items.find((i) => i.slug === "hello")!;
    await expectStatus(
      callJson("PATCH", `/sites/${site.id}/collections/posts/items/${hello.id}`, { auth: site.adminKey, body: { slug: "hello-again" } }),
      200,
    );
    for (const path of ["/about-us.html", "/hello"]) {
      const moved = await onHost(host, path);
      expect(moved.status, path).toBe(301);
      expect(moved.headers.get("location"), path).toBe("/hello-again");
    }
    expect((await onHost(host, "/hello-again")).status).toBe(200);
  });

  it("are audited with the rule's path", async () => {
    const { site, base } = await blog();
    await expectStatus(add(site, { from: `${base}p`, to: `${base}q` }), 201);
    const rows = await runInDurableObject(env.SITE.get(env.SITE.idFromName(site.id)), (_i: unknown, state: DurableObjectState) =>
      state.storage.sql.exec<{ operation: string; target: string }>("SELECT operation, target FROM audit").toArray(),
    );
    expect(rows).toContainEqual({ operation: "createRedirect", target: `redirect ${base}p` });
  });
});
