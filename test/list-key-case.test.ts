import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newSite } from "./helpers";

describe("list keys written in another case", () => {
  it("find the one field that matches ignoring case, as widget attributes (lower-cased by HTML) need", async () => {
    const site = await newSite("pro");
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/jobs`, {
        auth: site.adminKey,
        body: { name: "Jobs", fields: [{ key: "salaryMax", type: "number", indexed: true }] },
      }),
      201,
    );
    for (const [slug, salaryMax] of [
      ["a", 10],
      ["b", 30],
      ["c", 20],
    ] as const)
      await addItem(site, "jobs", { slug, publish: true, data: { salaryMax } });
    const { body } = await callJson<{ items: { slug: string }[] }>(
      "GET",
      `/v1/${site.token}/collections/jobs/items?filter[salarymax][gte]=15&sort=-salarymax`,
    );
    expect(body.items.map((i) => i.slug)).toEqual(["b", "c"]);
  });
});
