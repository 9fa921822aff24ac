/**
 * Share links ("Preview links"): a link shows the item's current draft (pending changes
 * of a published item) to a browser with no session; it expires, can be revoked, allows a number
 * of opens, can need a password; it is never cached, never on a customer hostname or through the
 * proxy, and every failure is one identical 404 page. The token never reaches a log line, nor a
 * URL: links are `/p/#<token>`, and the page at `/p/` posts the token in a form body.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ORIGIN, addItem, call, callJson, expectStatus, newBlog, type TestSite } from "../helpers";
import { stubOf } from "./alarm";
import { listPage } from "../fixtures/blog-pages";
import { capture, pathOf, putPage, rendered } from "../ssr-helpers";
import { activeOn, onHost, uniqueHost } from "../hostname-helpers";

type Link = { id: string; opens: number; state: string; maxOpens: number | null; hasPassword: boolean; expiresAt: string };
const NAV = { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate", "sec-fetch-site": "none" };
const linksOf = (site: TestSite, itemId: string) => `/sites/${site.id}/collections/posts/items/${itemId}/preview-links`;

async function share(site: TestSite, itemId: string, body: Record<string, unknown> = {}): Promise<{ link: Link; url: string }> {
  return expectStatus(callJson<{ link: Link; url: string }>("POST", linksOf(site, itemId), { auth: site.adminKey, body }), 201);
}

const FORM = { ...NAV, "content-type": "application/x-www-form-urlencoded" };

/** The token of a link `/p/#<token>`. */
const tokenOf = (url: string) => new URL(url).hash.slice(1);

/**
 * A browser opening the link from the address bar (no session, no cookie unless given). A link
 * `/p/#<token>` loads the page at `/p/` (the fragment is never sent), whose script posts the token
 * with `fields` to `/p/open`; a link made with the token in its path is fetched as it is.
 */
async function open(url: string, headers: Record<string, string> = {}, fields: Record<string, string> = {}): Promise<Response> {
  const u = new URL(url);
  if (!u.hash) return exports.default.fetch(new Request(url, { headers: { ...NAV, ...headers }, redirect: "manual" }));
  const page = await exports.default.fetch(new Request(`${u.origin}${u.pathname}`, { headers: NAV }));
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('action="/p/open"');
  return exports.default.fetch(
    new Request(`${u.origin}/p/open`, {
      method: "POST",
      body: new URLSearchParams({ token: u.hash.slice(1), ...fields }).toString(),
      headers: { ...FORM, ...headers },
      redirect: "manual",
    }),
  );
}

async function listed(site: TestSite, itemId: string): Promise<Link[]> {
  return (await expectStatus(callJson<{ links: Link[] }>("GET", linksOf(site, itemId), { auth: site.adminKey }), 200)).links;
}

/** Status, headers that matter and body of a response, to compare two answers byte for byte. */
async function shape(res: Response) {
  const headers = Object.fromEntries(
    ["content-type", "cache-control", "x-robots-tag", "referrer-policy", "content-security-policy", "set-cookie"].map((h) => [
      h,
      res.headers.get(h),
    ]),
  );
  return { status: res.status, headers, body: await res.text() };
}

let lines: string[] = [];
beforeEach(() => {
  lines = [];
  for (const level of ["log", "info", "warn", "error", "debug"] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
});
afterEach(() => vi.restoreAllMocks());

describe("share links", () => {
  it("show a draft to a browser with no session, never cached, never indexed, counted, and the token is never logged", async () => {
    const site = await newBlog("pro");
    await addItem(site, "authors", { slug: "ada-lovelace", data: { name: "Ada Lovelace" }, publish: true });
    const a = await addItem(site, "posts", {
      slug: "draft-one",
      data: {
        title: "Unreleased walrus story",
        body: "<p>Tusks <b>and</b> more</p>",
        date: "2024-05-01",
        views: 3,
        author: "ada-lovelace",
      },
    });
    const { url, link } = await share(site, a.id, { label: "Client" });
    expect(url).toMatch(new RegExp(`^${ORIGIN}/p/#pv_${site.id}_[a-z2-7]{32}$`));
    expect(link).toMatchObject({ opens: 0, state: "live", hasPassword: false, maxOpens: null });
    // Default expiry: 7 days.
    expect(Math.abs(Date.parse(link.expiresAt) - Date.now() - 7 * 86_400_000)).toBeLessThan(60_000);

    for (let i = 0; i < 2; i++) {
      const res = await open(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("x-robots-tag")).toBe("noindex");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      const html = await res.text();
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).toContain("Unreleased walrus story");
      expect(html).toContain("<p>Tusks <b>and</b> more</p>");
      // Values as a reader says them: a date in words, an unset switch as "No".
      expect(html).toContain("<dd>1 May 2024</dd>");
      expect(html).toMatch(/<dt>featured<\/dt><dd>No<\/dd>/);
      // A reference by the name of the item it points to.
      expect(html).toMatch(/<dt>author<\/dt><dd>Ada Lovelace<\/dd>/);
    }
    const json = await open(url, {}, { format: "json" });
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(json.headers.get("cache-control")).toBe("private, no-store");
    expect(((await json.json()) as { item: { slug: string; data: { title: string } } }).item).toMatchObject({
      slug: "draft-one",
      data: { title: "Unreleased walrus story" },
    });
    // Three opens counted: no cache answered any of them.
    expect((await listed(site, a.id))[0]).toMatchObject({ id: link.id, opens: 3 });
    // The public API still does not know the draft.
    expect((await call("GET", `/v1/${site.token}/collections/posts/items/draft-one`)).status).toBe(404);

    const token = tokenOf(url);
    expect(lines.some((l) => l.includes('"preview_opened"') && l.includes(link.id))).toBe(true);
    expect(lines.filter((l) => l.includes(token) || l.includes(token.slice(-32)))).toEqual([]);
    // Only the token's hash is stored.
    const stored = await runInDurableObject(stubOf(site), (_i, state) =>
      state.storage.sql.exec<{ token_hash: string }>("SELECT token_hash FROM preview_links").toArray(),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token.slice(-32));
  });

  it("keep the token out of every URL: the page at /p/ is the same for every link and posts the token in a body", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "hidden", data: { title: "Kept out of logs" } });
    const { url } = await share(site, a.id);
    const token = tokenOf(url);
    expect(new URL(url).pathname).toBe("/p/");
    expect(new URL(url).search).toBe("");
    // Browsers send the link's request without the fragment: `/p/`, whichever link it is.
    const page = await exports.default.fetch(new Request(`${ORIGIN}/p/`, { headers: NAV }));
    const html = await page.text();
    expect(html).not.toContain(token);
    expect(html).not.toContain("Kept out of logs");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    // One script, allowed by its hash alone; the form goes back to this service only.
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(csp).toContain("form-action 'self'");
    const script = /<script>([^<]+)<\/script>/.exec(html)?.[1];
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script));
    expect(csp).toContain(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
    expect(script).toContain("location.hash");
    expect(html).toContain('<form id="open" method="post" action="/p/open"><input type="hidden" name="token">');
    // Every link's page is this one.
    const other = await exports.default.fetch(new Request(`${ORIGIN}/p/#pv_${site.id}_${"d".repeat(32)}`, { headers: NAV }));
    expect(await other.text()).toBe(html);
    // The post it makes opens the preview; the token was in its body only.
    const opened = await open(url);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Kept out of logs");
    // A body too big for a token and a password is no share link's.
    const stuffed = await exports.default.fetch(
      new Request(`${ORIGIN}/p/open`, { method: "POST", body: `token=${token}&x=${"y".repeat(4096)}`, headers: FORM }),
    );
    expect(stuffed.status).toBe(404);
  });

  it("made with the token in the path (before /p/#) keep working: the page, its JSON and its password", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "older", data: { title: "An older link" } });
    const plain = await share(site, a.id);
    const older = `${ORIGIN}/p/${tokenOf(plain.url)}`;
    expect(await (await open(older)).text()).toContain("An older link");
    expect((await open(`${older}?format=json`)).headers.get("content-type")).toMatch(/^application\/json/);
    const locked = await share(site, a.id, { password: "correct horse" });
    const lockedPath = `/p/${tokenOf(locked.url)}`;
    const form = await (await open(`${ORIGIN}${lockedPath}`)).text();
    expect(form).toContain(`<form method="post" action="${lockedPath}">`);
    const right = await exports.default.fetch(
      new Request(`${ORIGIN}${lockedPath}`, { method: "POST", body: "password=correct%20horse", headers: FORM, redirect: "manual" }),
    );
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(lockedPath);
    const cookie = right.headers.get("set-cookie")!.split(";")[0]!;
    expect(await (await open(`${ORIGIN}${lockedPath}`, { cookie })).text()).toContain("An older link");
    // The cookie is the link's, whichever form of it is opened.
    expect(await (await open(locked.url, { cookie })).text()).toContain("An older link");
  });

  it("show every image of a gallery, in order, each with its alt text escaped", async () => {
    const site = await newBlog("pro");
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/products`, {
        auth: site.adminKey,
        body: { name: "Products", fields: [{ key: "photos", type: "gallery" }] },
      }),
      201,
    );
    const made = await expectStatus(
      callJson<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/products/items`, {
        auth: site.adminKey,
        body: {
          slug: "pot",
          data: {
            photos: [
              { url: "https://img.test/front.jpg", alt: 'Front <b>"&' },
              { url: "https://img.test/back.jpg", alt: "Back" },
            ],
          },
        },
      }),
      201,
    );
    const { url } = await expectStatus(
      callJson<{ link: Link; url: string }>("POST", `/sites/${site.id}/collections/products/items/${made.item.id}/preview-links`, {
        auth: site.adminKey,
        body: {},
      }),
      201,
    );
    const html = await (await open(url)).text();
    expect(html).toContain(
      '<img src="https://img.test/front.jpg" alt="Front &lt;b&gt;&quot;&amp;"> <img src="https://img.test/back.jpg" alt="Back">',
    );
  });

  it("show a published item's pending changes, and nothing public shows them", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "live", data: { title: "Live headline" }, publish: true });
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts/items/${a.id}/pending`, {
        auth: site.adminKey,
        body: { data: { title: "Pending headline" } },
      }),
      200,
    );
    const { url } = await share(site, a.id);
    const html = await (await open(url)).text();
    expect(html).toContain("Pending headline");
    expect(html).not.toContain("Live headline");
    // The page says what the reader is looking at: never "a draft" for a live item.
    expect(html).toContain("Preview of unpublished changes to a published item: visitors still see the published version.");
    expect(html).not.toContain("Preview of a draft");
    expect(await (await call("GET", `/v1/${site.token}/collections/posts/items/live`)).text()).toContain("Live headline");
    // Once the changes are published, the same link shows the published item, and says so.
    await expectStatus(callJson("POST", `/sites/${site.id}/collections/posts/items/${a.id}/publish`, { auth: site.adminKey }), 200);
    expect(await (await open(url)).text()).toContain("Preview of a published item: this is the version visitors see.");
  });

  it("answer one identical 404 page when wrong, expired, revoked, used up, of a deleted item or an unknown site", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A draft" } });
    const b = await addItem(site, "posts", { slug: "b", data: { title: "B draft" } });
    const expiring = await share(site, a.id, { expiresIn: 3600 });
    const revoked = await share(site, a.id);
    const limited = await share(site, a.id, { maxOpens: 2 });
    const ofDeleted = await share(site, b.id);

    // Expiry: the link's time is moved into the past (as if an hour went by).
    expect((await open(expiring.url)).status).toBe(200);
    await runInDurableObject(stubOf(site), (_i, state) => {
      state.storage.sql.exec("UPDATE preview_links SET expires_at = ? WHERE id = ?", Date.now() - 1, expiring.link.id);
    });
    expect((await open(revoked.url)).status).toBe(200);
    await expectStatus(callJson("DELETE", `${linksOf(site, a.id)}/${revoked.link.id}`, { auth: site.adminKey }), 200);
    expect((await open(limited.url)).status).toBe(200);
    expect((await open(limited.url)).status).toBe(200);
    await expectStatus(callJson("DELETE", `/sites/${site.id}/collections/posts/items/${b.id}`, { auth: site.adminKey }), 200);

    const wrong = `${ORIGIN}/p/pv_${site.id}_${"a".repeat(32)}`;
    const unknownSite = `${ORIGIN}/p/pv_${"b".repeat(16)}_${"a".repeat(32)}`;
    const answers = await Promise.all(
      [expiring.url, revoked.url, limited.url, ofDeleted.url, wrong, unknownSite, `${ORIGIN}/p/nonsense`].map(async (u) =>
        shape(await open(u)),
      ),
    );
    expect(answers[0]).toMatchObject({ status: 404, headers: { "cache-control": "private, no-store", "x-robots-tag": "noindex" } });
    expect(answers[0]!.body).toContain('<meta name="robots" content="noindex">');
    for (const other of answers.slice(1)) expect(other).toEqual(answers[0]);

    const states = Object.fromEntries((await listed(site, a.id)).map((l) => [l.id, l.state]));
    expect(states).toEqual({ [expiring.link.id]: "expired", [revoked.link.id]: "revoked", [limited.link.id]: "used up" });
    expect((await listed(site, a.id)).find((l) => l.id === limited.link.id)!.opens).toBe(2);
  });

  it("count only a browser's navigation: a chat app's link preview sees nothing and uses up nothing", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "once", data: { title: "Only once" } });
    const { url, link } = await share(site, a.id, { maxOpens: 1 });
    const slackbot = { "user-agent": "Slackbot-LinkExpanding 1.0" };
    // A program fetching the link gets the page at /p/: the token after # never reaches us.
    const bot = await exports.default.fetch(new Request(url, { headers: slackbot }));
    expect(bot.status).toBe(200);
    expect(bot.headers.get("cache-control")).toBe("private, no-store");
    const botText = await bot.text();
    expect(botText).not.toContain("Only once");
    // The same page for a wrong token: it says nothing about the link.
    const botWrong = await exports.default.fetch(new Request(`${ORIGIN}/p/#pv_${site.id}_${"c".repeat(32)}`, { headers: slackbot }));
    expect(await botWrong.text()).toBe(botText);
    // One that posts the token as the page would, but not as a browser's navigation, is asked to use a browser.
    const posted = await exports.default.fetch(
      new Request(`${ORIGIN}/p/open`, {
        method: "POST",
        body: `token=${tokenOf(url)}`,
        headers: { ...slackbot, "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(await posted.text()).toContain("Open this link in a web browser");
    // So does an older link with the token in its path.
    const older = await exports.default.fetch(new Request(`${ORIGIN}/p/${tokenOf(url)}`, { headers: slackbot }));
    expect(await older.text()).toContain("Open this link in a web browser");
    expect((await listed(site, a.id))[0]).toMatchObject({ id: link.id, opens: 0 });
    expect(await (await open(url)).text()).toContain("Only once");
    expect((await open(url)).status).toBe(404);
  });

  it("ask for a password by a form, remember it by a cookie, and throttle wrong ones", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "secret", data: { title: "Behind a password" } });
    const { url, link } = await share(site, a.id, { password: "correct horse" });
    expect(link.hasPassword).toBe(true);
    const form = await open(url);
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toContain('type="password"');
    expect(formHtml).not.toContain("Behind a password");
    // The form asks again at /p/open, the token in a hidden field: never in its address.
    expect(formHtml).toContain(`<form method="post" action="/p/open"><input type="hidden" name="token" value="${tokenOf(url)}">`);
    const post = (password: string, ip = "198.51.100.7") =>
      exports.default.fetch(
        new Request(`${ORIGIN}/p/open`, {
          method: "POST",
          body: new URLSearchParams({ token: tokenOf(url), password }).toString(),
          headers: { ...FORM, "cf-connecting-ip": ip },
          redirect: "manual",
        }),
      );
    const wrong = await post("wrong horse");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("Behind a password");
    // The right one: the preview is the answer (no address without the token to go back to), with the cookie.
    const right = await post("correct horse");
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("Behind a password");
    const cookie = right.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^oc_pv_${link.id}=[0-9a-f]{64}; Path=/p/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$`));
    expect(cookie).not.toContain("correct");
    const unlocked = await open(url, { cookie: cookie.split(";")[0]! });
    expect(await unlocked.text()).toContain("Behind a password");
    // A made-up cookie value is not a password.
    expect(await (await open(url, { cookie: `oc_pv_${link.id}=${"0".repeat(64)}` })).text()).not.toContain("Behind a password");
    // Only what showed the item counts (the forms and the wrong password do not).
    expect((await listed(site, a.id))[0]!.opens).toBe(2);

    // Another client guessing: three wrong tries, then a wait, even for the right password.
    for (let i = 0; i < 3; i++) expect((await post(`guess ${i}`, "198.51.100.8")).status).toBe(401);
    const throttled = await post("correct horse", "198.51.100.8");
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(throttled.headers.get("cache-control")).toBe("private, no-store");
  });

  it("render the draft in the captured template on the SEO Engine, and only on the service's own host", async () => {
    const site = await newBlog("seo_engine");
    const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
    const base = pathOf(pageUrl);
    await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
    await addItem(site, "posts", { slug: "hello", data: { title: "Hello, published" }, publish: true });
    const a = await addItem(site, "posts", { slug: "draft-seo", data: { title: "Templated draft headline" } });
    const { url } = await share(site, a.id);
    const res = await open(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe("sandbox; frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain("Templated draft headline");
    expect(html).toContain('<meta name="robots" content="noindex">');
    // The captured page's own markup is there (its widget was rendered).
    expect(html).toContain("data-oc-rendered");
    // A draft has no publication time: its head says nothing of one (not the word "null").
    expect(html).not.toContain("article:published_time");
    expect(html).not.toMatch(/content="null"|"datePublished":null/);

    // The path a link with its token in it has (links made before `/p/#`), and the form's own.
    const path = `/p/${tokenOf(url)}`;
    // Through the customer's reverse proxy: a page of the site, never the preview.
    const proxied = await rendered(site, path);
    expect(proxied.headers.get("x-robots-tag") === "noindex" && proxied.status === 200).toBe(false);
    expect(await proxied.text()).not.toContain("Templated draft headline");
    const underBase = await rendered(site, `${base}p/${path.slice(3)}`, NAV);
    expect(await underBase.text()).not.toContain("Templated draft headline");
    // On the site's custom hostname: the same.
    const host = uniqueHost("share");
    await activeOn(site, host);
    const onCustom = await onHost(host, path);
    expect(await onCustom.text()).not.toContain("Templated draft headline");
    const posted = await exports.default.fetch(
      new Request(`https://${host}/p/open`, { method: "POST", body: `token=${tokenOf(url)}`, headers: FORM }),
    );
    expect(await posted.text()).not.toContain("Templated draft headline");
    // The service's own host still serves it, and all of these were not counted.
    expect((await listed(site, a.id))[0]!.opens).toBe(1);
  });

  it("refuse bad input and too many live links with the error envelope", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "x", data: { title: "X" } });
    for (const body of [{ expiresIn: 60 }, { expiresIn: 31 * 86_400 }, { password: "short" }, { maxOpens: 0 }, { extra: 1 }]) {
      const r = await callJson<{ error: { code: string; details?: { issues?: { path: string; message: string }[] } } }>(
        "POST",
        linksOf(site, a.id),
        { auth: site.adminKey, body },
      );
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe("bad_request");
      // Said in words a person can act on, not the validator's own.
      if ("password" in body) expect(r.body.error.details?.issues).toEqual([{ path: "password", message: "use at least 8 characters" }]);
    }
    for (let i = 0; i < 20; i++) await share(site, a.id);
    const over = await callJson<{ error: { code: string; details: { limit: string } } }>("POST", linksOf(site, a.id), {
      auth: site.adminKey,
      body: {},
    });
    expect(over.status).toBe(409);
    expect(over.body.error.details.limit).toBe("previewLinks");
    // Revoking one makes room.
    const first = (await listed(site, a.id))[0]!;
    await expectStatus(callJson("DELETE", `${linksOf(site, a.id)}/${first.id}`, { auth: site.adminKey }), 200);
    await share(site, a.id);
  });

  it("show a link with a number of opens its JSON inline only, since following a JSON link would use an open", async () => {
    const site = await newBlog("pro");
    const a = await addItem(site, "posts", { slug: "once-json", data: { title: "Counted draft" } });
    const once = await share(site, a.id, { maxOpens: 1 });
    const html = await (await open(once.url)).text();
    expect(html).toContain(`"title": "Counted draft"`);
    expect(html).not.toContain("format=json");
    expect(html).toContain("the JSON is shown here only");
    // The one open is used by the page itself; the link is used up.
    expect((await listed(site, a.id))[0]).toMatchObject({ opens: 1, state: "used up" });
    // A link without a limit keeps the JSON link, which works.
    const open2 = await share(site, a.id);
    const page = await (await open(open2.url)).text();
    // Asked for by a form with the token hidden in it, as the page was: no URL carries it.
    expect(page).toContain(
      `<form method="post" action="/p/open"><input type="hidden" name="token" value="${tokenOf(open2.url)}"><input type="hidden" name="format" value="json">`,
    );
    const asJson = await open(open2.url, {}, { format: "json" });
    expect(asJson.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("are deleted site-wide by a daily job 30 days after they ended, whichever item they belong to", async () => {
    const site = await newBlog("starter");
    const a = await addItem(site, "posts", { slug: "a", data: { title: "A" } });
    const b = await addItem(site, "posts", { slug: "b", data: { title: "B" } });
    const live = await share(site, a.id);
    const longExpired = await share(site, a.id);
    const recentlyRevoked = await share(site, a.id);
    const longRevoked = await share(site, b.id);
    const longUsedUp = await share(site, b.id, { maxOpens: 1 });
    const recentlyUsedUp = await share(site, b.id, { maxOpens: 1 });
    expect((await open(longUsedUp.url)).status).toBe(200);
    expect((await open(recentlyUsedUp.url)).status).toBe(200);
    await expectStatus(callJson("DELETE", `${linksOf(site, a.id)}/${recentlyRevoked.link.id}`, { auth: site.adminKey }), 200);
    await expectStatus(callJson("DELETE", `${linksOf(site, b.id)}/${longRevoked.link.id}`, { auth: site.adminKey }), 200);
    const day = 86_400_000;
    await runInDurableObject(stubOf(site), (_i, state) => {
      const sql = state.storage.sql;
      // As if 31 days went by for three of them (nobody made a new link since).
      sql.exec("UPDATE preview_links SET expires_at = ? WHERE id = ?", Date.now() - 31 * day, longExpired.link.id);
      sql.exec("UPDATE preview_links SET revoked_at = ? WHERE id = ?", Date.now() - 31 * day, longRevoked.link.id);
      sql.exec("UPDATE preview_links SET last_opened_at = ? WHERE id = ?", Date.now() - 31 * day, longUsedUp.link.id);
      // The prune is armed with the site's other daily jobs; made due now.
      expect(sql.exec("SELECT count(*) AS n FROM jobs WHERE kind = 'preview-links-prune'").one().n).toBe(1);
      sql.exec("UPDATE jobs SET run_at = ? WHERE kind = 'preview-links-prune'", Date.now() - 1);
      void state.storage.setAlarm(Date.now() - 1);
    });
    expect(await runDurableObjectAlarm(stubOf(site))).toBe(true);
    const ids = (l: Link[]) => l.map((x) => x.id).sort();
    expect(ids(await listed(site, a.id))).toEqual([live.link.id, recentlyRevoked.link.id].sort());
    expect(ids(await listed(site, b.id))).toEqual([recentlyUsedUp.link.id]);
    // And again tomorrow.
    const next = await runInDurableObject(
      stubOf(site),
      (_i, state) => state.storage.sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'preview-links-prune'").one().run_at,
    );
    expect(next - Date.now()).toBeGreaterThan(day - 60_000);
  });
});
