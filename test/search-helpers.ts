import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { callJson, expectStatus, type TestSite } from "./helpers";

export const siteObject = (site: TestSite) => env.SITE.get(env.SITE.idFromName(site.id));

export async function queuedCount(site: TestSite): Promise<number> {
  return runInDurableObject(
    siteObject(site),
    (_i, state) =>
      state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM search_index WHERE state IN ('pending', 'removing')").one().n,
  );
}

/** Drives the site's alarm until the search index has caught up with every write. */
export async function settleIndex(site: TestSite): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await queuedCount(site)) === 0) return;
    // False when the alarm already fired on its own and is still running; then look again.
    if (!(await runDurableObjectAlarm(siteObject(site)))) await scheduler.wait(20);
  }
  throw new Error("search index did not settle");
}

/** A site with a `notes` collection of title + summary + rich text body, every item published. */
export async function siteWith(
  items: { slug: string; title: string; summary?: string; body?: string; collection?: string }[],
  plan: "starter" | "pro" | "seo_engine" = "pro",
): Promise<TestSite> {
  const { body } = await callJson<{ site: TestSite }>("POST", "/sites", {
    auth: "test-operator-token",
    body: { name: "Search test", plan },
  });
  const site = body.site;
  for (const slug of new Set(items.map((i) => i.collection ?? "notes"))) {
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/${slug}`, {
        auth: site.adminKey,
        body: {
          fields: [
            { key: "title", type: "text", indexed: true, required: true },
            { key: "summary", type: "text", indexed: true },
            { key: "body", type: "richText" },
          ],
        },
      }),
      201,
    );
  }
  for (const i of items) {
    const data: Record<string, string> = { title: i.title };
    if (i.summary) data.summary = i.summary;
    if (i.body) data.body = i.body;
    await expectStatus(
      callJson("POST", `/sites/${site.id}/collections/${i.collection ?? "notes"}/items`, {
        auth: site.adminKey,
        body: { slug: i.slug, data, publish: true },
      }),
      201,
    );
  }
  return site;
}

export interface SearchBody {
  results: { item: { slug: string; collection: string; data: Record<string, unknown> }; score: number }[];
}

export const slugsOf = (b: SearchBody) => b.results.map((r) => r.item.slug);

/** Cosine similarity, computed the plain way, as the truth an index's scores are checked against. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    d += x * b[i]!;
    na += x * x;
    nb += b[i]! * b[i]!;
  });
  return d / Math.sqrt(na * nb);
}
