import { describe, expect, it } from "vitest";
import { callJson, expectStatus, OPERATOR } from "./helpers";
import { settleIndex, siteWith } from "./search-helpers";

describe("search plans", () => {
  it("refuses both endpoints below Pro with plan_required, and serves them right after an upgrade", async () => {
    const site = await siteWith([{ slug: "puppy", title: "Teaching a puppy to sit" }], "starter");
    const urls = [`/v1/${site.token}/search?q=puppy`, `/v1/${site.token}/collections/notes/items/puppy/related`];
    for (const url of urls) {
      const r = await callJson<{ error: { code: string; details: { feature: string } } }>("GET", url);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("plan_required");
      expect(r.body.error.details.feature).toBe("aiSearch");
      expect(r.res.headers.get("cache-control")).toBe("no-store");
    }
    // Below Pro nothing is embedded, and the dashboard shows no index state.
    const { body } = await callJson<{ items: { searchIndex: unknown }[] }>("GET", `/sites/${site.id}/collections/notes/items`, {
      auth: site.adminKey,
    });
    expect(body.items[0]!.searchIndex).toBeNull();

    await expectStatus(callJson("PATCH", `/workspaces/${site.workspaceId}`, { auth: OPERATOR, body: { plan: "pro" } }), 200);
    await settleIndex(site);
    const after = await callJson<{ results: { item: { slug: string } }[] }>("GET", urls[0]!);
    expect(after.status).toBe(200);
    expect(after.body.results.map((r) => r.item.slug)).toEqual(["puppy"]);
    expect((await callJson("GET", urls[1]!)).status).toBe(200);
  });
});
