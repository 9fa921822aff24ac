import { describe, expect, it } from "vitest";
import { ORIGIN, callJson, expectStatus, newBlog } from "./helpers";
import { listPage } from "./fixtures/blog-pages";
import { capture, pathOf, publishedPost, putPage, renderedHtml } from "./ssr-helpers";

/** Encodes text as windows-1252 (the test pages use only characters it holds). */
function windows1252(text: string): Uint8Array {
  const high: Record<string, number> = { "€": 0x80, "’": 0x92, "“": 0x93, "”": 0x94 };
  return Uint8Array.from([...text], (c) => {
    const code = high[c] ?? c.charCodeAt(0);
    if (code > 0xff) throw new Error(`not in windows-1252: ${c}`);
    return code;
  });
}

const CHARS = "Café “Crème” — l’été à 5 €";

async function blog() {
  const site = await newBlog("seo_engine");
  await publishedPost(site, "hello", { title: "Hello" });
  return site;
}

function page(site: { token: string }, head: string): string {
  return listPage({ service: ORIGIN, token: site.token, title: CHARS.replace("—", "-") }).replace('<meta charset="utf-8">', head);
}

describe("captured pages in other encodings", () => {
  it.each([
    ["<meta charset>", '<meta charset="windows-1252">', "text/html"],
    ["<meta http-equiv>", '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', "text/html"],
    ["the Content-Type header", "", "text/html; charset=windows-1252"],
    ["an ISO-8859-1 label (read as windows-1252, as browsers do)", '<meta charset="ISO-8859-1">', "text/html"],
  ])("decodes a windows-1252 page declared by %s and serves it as UTF-8 with a matching declaration", async (_how, head, type) => {
    const site = await blog();
    const pageUrl = await putPage(windows1252(page(site, head)), { type });
    const c = await capture(site, { pageUrl, collection: "posts" });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect((c.body.capture.page as { title: string }).title).toBe(CHARS.replace("—", "-"));
    const { status, html, res } = await renderedHtml(site, pathOf(pageUrl));
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html).toContain(`<title>${CHARS.replace("—", "-")}</title>`);
    expect(html).not.toMatch(/charset=["']?(?:windows-1252|iso-8859-1)/i);
    if (head) expect(html).toMatch(/<meta (?:charset="utf-8"|http-equiv="Content-Type" content="text\/html; charset=utf-8")>/);
  });
});

describe("slow pages during capture", () => {
  it("answers 422 capture_failed with reason timeout when the body arrives slower than the fetch timeout, and keeps the previous capture", async () => {
    const site = await blog();
    const good = await putPage(listPage({ service: ORIGIN, token: site.token, title: "Good page" }));
    await expectStatus(capture(site, { pageUrl: good, collection: "posts" }), 201);
    // The tests' fetch timeout is 4 s (SSR_FETCH_TIMEOUT_MS); this page sends its head, then the rest after 8 s.
    const slow = await putPage(listPage({ service: ORIGIN, token: site.token, title: "Slow page" }), { bodyDelayMs: 8000 });
    const r = await capture(site, { pageUrl: slow, collection: "posts" });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    const err = r.body as unknown as { error: { code: string; details: { reason: string } } };
    expect(err.error.code).toBe("capture_failed");
    expect(err.error.details.reason).toBe("timeout");
    const after = await callJson<{ capture: { pageUrl: string; page: { title: string } } }>("GET", `/sites/${site.id}/ssr/capture`, {
      auth: site.adminKey,
    });
    expect(after.body.capture.pageUrl).toBe(good);
    expect((await renderedHtml(site, pathOf(good))).html).toContain("<title>Good page</title>");
  });
});
