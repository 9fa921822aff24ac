import { describe, expect, it } from "vitest";
import { OPERATOR, ORIGIN, callJson, expectStatus, newBlog } from "./helpers";
import { listPage } from "./fixtures/blog-pages";
import { capture, capturedBlog, pathOf, putPage, renderedHtml } from "./ssr-helpers";

describe("capturing a page", () => {
  it("stores the page and reports configuration, webhook URL and next nightly refresh", async () => {
    const { site, pageUrl } = await capturedBlog();
    const { body } = await callJson<{ capture: Record<string, unknown> }>("GET", `/sites/${site.id}/ssr/capture`, { auth: site.adminKey });
    const c = body.capture;
    expect(c.pageUrl).toBe(pageUrl);
    expect(c.publicUrl).toBe(pageUrl);
    expect(c.basePath).toBe(pathOf(pageUrl));
    expect(c.collection).toBe("posts");
    expect(c.showsList).toBe(true);
    expect(c.webhookUrl).toBe(`${ORIGIN}/hooks/ssr/${site.id}`);
    expect(c.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(c.webhookLegacyUrl).toBe(false);
    expect(Date.parse(c.capturedAt as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(c.nextRefreshAt as string)).toBeGreaterThan(Date.now());
    expect(c.lastRefresh).toMatchObject({ ok: true, trigger: "capture" });
    expect(c.page).toMatchObject({ title: "Acme Blog & News", description: 'Stories from Acme "HQ"', widgets: [{ collection: "posts" }] });
  });

  it("shows the webhook secret only to callers who may change the capture; others get words, not codes", async () => {
    const { site } = await capturedBlog();
    const key = async (scope: "read" | "full") =>
      (
        await expectStatus(
          callJson<{ apiKey: { key: string } }>("POST", `/workspaces/${site.workspaceId}/api-keys`, {
            auth: OPERATOR,
            body: { name: `${scope} key`, scope },
          }),
          201,
        )
      ).apiKey.key;
    const seen = async (auth: string) =>
      (await expectStatus(callJson<{ capture: Record<string, unknown> }>("GET", `/sites/${site.id}/ssr/capture`, { auth }), 200)).capture;
    const reader = await key("read");
    const asReader = await seen(reader);
    // The secret signs the calls that refresh the template: a read-only caller sees the rest, not it.
    expect(asReader).not.toHaveProperty("webhookSecret");
    expect(asReader.webhookUrl).toBe(`${ORIGIN}/hooks/ssr/${site.id}`);
    expect(asReader.collection).toBe("posts");
    expect((await seen(await key("full"))).webhookSecret).toMatch(/^whsec_/);
    expect((await seen(site.adminKey)).webhookSecret).toMatch(/^whsec_/);
    // Its refusal to rotate the secret says what it cannot do in words; the code stays in details.
    const r = await callJson<{ error: { code: string; message: string; details: { permission: string } } }>(
      "POST",
      `/sites/${site.id}/ssr/webhook-secret`,
      { auth: reader },
    );
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe("A read-only API key cannot change the SEO Engine's settings. Use a key with full access.");
    expect(r.body.error.details.permission).toBe("seo.manage");
  });

  it("is refused below the SEO Engine plan with plan_required", async () => {
    for (const plan of ["starter", "pro"] as const) {
      const site = await newBlog(plan);
      const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
      const { status, body } = await capture(site, { pageUrl, collection: "posts" });
      expect(status).toBe(403);
      expect(body).toMatchObject({ error: { code: "plan_required", details: { requiredPlan: "seo_engine" } } });
    }
  });

  it("refuses pages that cannot serve as a template, with a clear 422, and keeps the previous capture", async () => {
    const { site, pageUrl } = await capturedBlog();
    const cases: [string, string, string][] = [
      ["unreachable", `${pathOf(pageUrl)}missing/`, "404"],
      ["not HTML", await putPage("{}", { type: "application/json" }), "not an HTML page"],
      [
        "no widget",
        await putPage(`<html><body><p>hi</p><script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script></body></html>`),
        'no data-oc-list="posts"',
      ],
      [
        "widget of another collection",
        await putPage(`<div data-oc-list="authors"><p>x</p></div><script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script>`),
        '(it has "authors")',
      ],
      [
        "no template element",
        await putPage(`<div data-oc-list="posts">text only</div><script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script>`),
        "no element child",
      ],
      ["no embed script", await putPage(`<div data-oc-list="posts"><p data-oc-field="title">x</p></div>`), "embed script"],
      [
        "another site's token",
        await putPage(listPage({ service: ORIGIN, token: "pk_aaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbb" })),
        "another site's token",
      ],
    ];
    for (const [label, url, message] of cases) {
      const target = url.startsWith("http") ? url : `${new URL(pageUrl).origin}${url}`;
      const { status, body } = await capture(site, { pageUrl: target, collection: "posts" });
      expect(status, label).toBe(422);
      expect(body, label).toMatchObject({ error: { code: "capture_failed" } });
      expect((body as unknown as { error: { message: string } }).error.message, label).toContain(message);
    }
    const { body } = await callJson<{ capture: { pageUrl: string } }>("GET", `/sites/${site.id}/ssr/capture`, { auth: site.adminKey });
    expect(body.capture.pageUrl).toBe(pageUrl);
    expect((await renderedHtml(site, pathOf(pageUrl))).status).toBe(200);
  });

  it("validates the request body", async () => {
    const site = await newBlog("seo_engine");
    const bad: [Record<string, unknown>, string][] = [
      [{ collection: "posts" }, "pageUrl"],
      [{ pageUrl: "ftp://example.com/", collection: "posts" }, "pageUrl"],
      [{ pageUrl: "https://example.com/", collection: "nope" }, "collection"],
      [{ pageUrl: "https://example.com/", collection: "posts", showsList: "yes" }, "showsList"],
      [{ pageUrl: "https://example.com/", collection: "posts", extra: 1 }, "extra"],
    ];
    for (const [body, mention] of bad) {
      const r = await capture(site, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.body)).toContain(mention);
    }
  });

  it("follows a bounded number of redirects and refuses non-http(s) URLs", async () => {
    const site = await newBlog("seo_engine");
    const target = await putPage(listPage({ service: ORIGIN, token: site.token }));
    const hop = await putPage("", { status: 302, location: target });
    await expectStatus(capture(site, { pageUrl: hop, collection: "posts" }), 201);
    let url = target;
    for (let i = 0; i < 6; i++) url = await putPage("", { status: 301, location: url });
    const { status, body } = await capture(site, { pageUrl: url, collection: "posts" });
    expect(status).toBe(422);
    expect(body).toMatchObject({ error: { details: { reason: "too_many_redirects" } } });
  });

  it("replaces the previous capture and keeps the webhook secret", async () => {
    const { site } = await capturedBlog();
    const first = await callJson<{ capture: { webhookUrl: string } }>("GET", `/sites/${site.id}/ssr/capture`, { auth: site.adminKey });
    const second = await putPage(listPage({ service: ORIGIN, token: site.token, title: "Second" }));
    const { status, body } = await capture(site, { pageUrl: second, collection: "posts", showsList: false });
    expect(status).toBe(200);
    expect(body.capture).toMatchObject({ pageUrl: second, showsList: false, webhookUrl: first.body.capture.webhookUrl });
  });

  it("accepts a page whose list widgets cannot render, and says which widget, which field and what to change", async () => {
    const site = await newBlog("seo_engine");
    const token = `<script src="${ORIGIN}/embed.js" data-oc-token="${site.token}"></script>`;
    const pageUrl = await putPage(
      `<div data-oc-list="posts" data-oc-sort="-notes" data-oc-filter-website="x"><p data-oc-field="title">x</p></div>` +
        `<div data-oc-list="tags"><p data-oc-field="name">x</p></div><div data-oc-list="posts" data-oc-sort="-dat"><p>x</p></div>${token}`,
    );
    const { status, body } = await capture(site, { pageUrl, collection: "posts" });
    expect(status).toBe(201);
    const warnings = body.capture.warnings as { widget: string; field?: string; message: string }[];
    expect(warnings.map((w) => [w.widget, w.field])).toEqual([
      ['data-oc-list="posts"', "notes"],
      ['data-oc-list="posts"', "website"],
      ['data-oc-list="tags"', undefined],
      ['data-oc-list="posts"', "dat"],
    ]);
    expect(warnings[0]!.message).toContain('sorts by "notes" (data-oc-sort="-notes")');
    expect(warnings[0]!.message).toContain('mark "notes" “can be sorted, filtered and searched”, or change the sort');
    expect(warnings[1]!.message).toContain('filters on "website" (data-oc-filter-website="x")');
    expect(warnings[2]!.message).toContain("names a collection this site does not have");
    expect(warnings[3]!.message).toContain('did you mean "date"?');
    // The list really is empty as rendered; a page that renders cleanly has no warnings.
    const good = await putPage(listPage({ service: ORIGIN, token: site.token }));
    const again = await capture(site, { pageUrl: good, collection: "posts" });
    expect(again.body.capture.warnings).toEqual([]);
  });

  it("needs the site's admin key", async () => {
    const { site } = await capturedBlog();
    const other = await newBlog("seo_engine");
    expect((await callJson("GET", `/sites/${site.id}/ssr/capture`)).status).toBe(401);
    expect((await callJson("GET", `/sites/${site.id}/ssr/capture`, { auth: other.adminKey })).status).toBe(404);
  });
});
