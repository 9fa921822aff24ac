import { describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newSite } from "./helpers";

// For fields [name, title] the dashboard once named items by `name` while rendered pages took
// `title`: now the service decides once and sends its choice with every collection.
describe("the service names a collection's title field and SEO defaults, and uses them itself", () => {
  it("answers titleField and seoDefaults on every collection answer, and the overview names items by that field", async () => {
    const site = await newSite("pro");
    const auth = site.adminKey;
    const fields = [
      { key: "name", type: "text" },
      { key: "title", type: "text" },
      { key: "bio", type: "richText" },
      { key: "photo", type: "image" },
      { key: "byline", type: "text" },
    ];
    const put = await expectStatus(
      callJson<{ collection: { titleField: string | null; seoDefaults: Record<string, string | null> } }>(
        "PUT",
        `/sites/${site.id}/collections/people`,
        { auth, body: { name: "People", fields } },
      ),
      201,
    );
    const defaults = { titleField: "title", descriptionField: "bio", imageField: "photo", authorField: "byline" };
    expect(put.collection.titleField).toBe("title");
    expect(put.collection.seoDefaults).toEqual(defaults);
    const one = await expectStatus(
      callJson<{ collection: { titleField: string | null; seoDefaults: unknown } }>("GET", `/sites/${site.id}/collections/people`, {
        auth,
      }),
      200,
    );
    expect([one.collection.titleField, one.collection.seoDefaults]).toEqual(["title", defaults]);
    const all = await expectStatus(
      callJson<{ collections: { slug: string; titleField: string | null }[] }>("GET", `/sites/${site.id}/collections`, { auth }),
      200,
    );
    expect(all.collections.find((c) => c.slug === "people")?.titleField).toBe("title");

    await addItem(site, "people", { slug: "ada", data: { name: "Ada", title: "Countess of Lovelace" } });
    const stats = await expectStatus(
      callJson<{ stats: { recent: { slug: string; title: string | null }[] } }>("GET", `/sites/${site.id}/stats`, { auth }),
      200,
    );
    expect(stats.stats.recent.find((r) => r.slug === "ada")?.title).toBe("Countess of Lovelace");

    const untitled = await expectStatus(
      callJson<{ collection: { titleField: string | null; seoDefaults: Record<string, string | null> } }>(
        "PUT",
        `/sites/${site.id}/collections/counts`,
        { auth, body: { name: "Counts", fields: [{ key: "n", type: "number" }] } },
      ),
      201,
    );
    expect(untitled.collection.titleField).toBeNull();
    expect(untitled.collection.seoDefaults).toEqual({ titleField: null, descriptionField: null, imageField: null, authorField: null });
  });
});
