/** The embed script's report that a widget rendered (`POST /v1/:token/seen`) and the stats the checklist reads. */
import { describe, expect, it } from "vitest";
import { call, callJson, newSite } from "./helpers";

interface Stats {
  stats: { widgetSeen: { at: string; page: string } | null };
}

const report = (token: string, body: string, headers: Record<string, string> = { "content-type": "text/plain;charset=UTF-8" }) =>
  call("POST", `/v1/${token}/seen`, { body, headers });

describe("a widget's report of the page it rendered on", () => {
  it("is kept as the page's origin and path, and shown in the site's stats", async () => {
    const site = await newSite("starter");
    const before = await callJson<Stats>("GET", `/sites/${site.id}/stats`, { auth: site.adminKey });
    expect(before.body.stats.widgetSeen).toBeNull();

    const res = await report(site.token, "https://shop.example/products/item.html?slug=oak-planter&email=a@b.example#x");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const { body } = await callJson<Stats>("GET", `/sites/${site.id}/stats`, { auth: site.adminKey });
    expect(body.stats.widgetSeen?.page).toBe("https://shop.example/products/item.html");
    expect(Date.now() - Date.parse(body.stats.widgetSeen!.at)).toBeLessThan(60_000);

    // A second report within the hour changes nothing stored.
    expect((await report(site.token, "https://shop.example/other")).status).toBe(204);
    const again = await callJson<Stats>("GET", `/sites/${site.id}/stats`, { auth: site.adminKey });
    expect(again.body.stats.widgetSeen).toEqual(body.stats.widgetSeen);
  });

  it("refuses what is no page address, an oversized body and an unknown token, in the error envelope", async () => {
    const site = await newSite("starter");
    for (const bad of ["", "not a url", "javascript:alert(1)", "file:///etc/passwd", `https://x.example/${"a".repeat(600)}`]) {
      const { status, body } = await callJson<{ error: { code: string } }>("POST", `/v1/${site.token}/seen`, {
        body: bad,
        headers: { "content-type": "text/plain" },
      });
      expect(status, bad).toBe(400);
      expect(body.error.code).toBe("bad_request");
    }
    const big = await callJson<{ error: { code: string } }>("POST", `/v1/${site.token}/seen`, {
      body: `https://x.example/${"a".repeat(3000)}`,
      headers: { "content-type": "text/plain" },
    });
    expect(big.status).toBe(413);
    const unknown = await callJson<{ error: { code: string } }>("POST", `/v1/pk_${"x".repeat(20)}_${"y".repeat(20)}/seen`, {
      body: "https://x.example/",
      headers: { "content-type": "text/plain" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    const stats = await callJson<Stats>("GET", `/sites/${site.id}/stats`, { auth: site.adminKey });
    expect(stats.body.stats.widgetSeen).toBeNull();
  });
});
