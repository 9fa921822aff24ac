/**
 * Deleting a workspace removes its sites' vectors from production's shared vector index
 * (Vectorize through src/search/vector-index.ts, here against test/fixtures/vectorize-model.mjs),
 * and leaves every other site's vectors where they are.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { callJson, expectStatus, newSite, OPERATOR, type TestSite } from "../helpers";
import { settleIndex } from "../search-helpers";
import { workspaceWithTwoSites } from "../access/workspace-fixture";

/** How many vectors the shared index holds in a site's namespace (a query sees at most 100). */
async function vectorsOf(siteId: string): Promise<number> {
  const index = env.VECTORIZE!;
  const probe = new Array<number>(384).fill(0).map((_, i) => (i % 7) / 7);
  const { matches } = await index.query(probe, { topK: 100, namespace: siteId, returnValues: false, returnMetadata: "none" });
  return matches.filter((m) => m.id.startsWith(`${siteId}:`)).length;
}

async function publish(site: { id: string; adminKey: string }, titles: string[]): Promise<void> {
  for (const [i, title] of titles.entries())
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/posts/items`, {
        auth: site.adminKey,
        body: { slug: `p${i}`, data: { title }, publish: true },
      }),
      201,
    );
}

const asTestSite = (s: { id: string; adminKey: string }, workspaceId: string): TestSite => ({ ...s, workspaceId, token: "" });

describe("deleting a workspace and the vector index", () => {
  it("removes every vector of its sites, and only theirs", async () => {
    const doomed = await workspaceWithTwoSites("Vectors");
    await publish(doomed.a, ["Dogs are loyal companions", "How to bake sourdough bread", "Tax returns for freelancers"]);
    await publish(doomed.b, ["Mountain hiking in autumn", "Caring for a puppy"]);
    // Another workspace's site, in the same shared index.
    const other = await newSite("pro", "Neighbour");
    await expectStatus(
      callJson("PUT", `/sites/${other.id}/collections/posts`, { auth: other.adminKey, body: { fields: [{ key: "title", type: "text" }] } }),
      201,
    );
    await publish(other, ["Dogs and their owners", "Sourdough starter basics"]);
    for (const s of [asTestSite(doomed.a, doomed.workspaceId), asTestSite(doomed.b, doomed.workspaceId), other]) await settleIndex(s);
    expect([await vectorsOf(doomed.a.id), await vectorsOf(doomed.b.id), await vectorsOf(other.id)]).toEqual([3, 2, 2]);

    await expectStatus(callJson("DELETE", `/workspaces/${doomed.workspaceId}`, { auth: OPERATOR, body: { confirm: "Vectors" } }), 200);

    expect([await vectorsOf(doomed.a.id), await vectorsOf(doomed.b.id)]).toEqual([0, 0]);
    expect(await vectorsOf(other.id)).toBe(2);
    // The neighbour's search still answers from its vectors.
    const found = await expectStatus(
      callJson<{ results: { item: { slug: string } }[] }>("GET", `/v1/${other.token}/search?q=${encodeURIComponent("dog owners")}`),
      200,
    );
    expect(found.results.map((r) => r.item.slug)).toContain("p0");
  });
});
