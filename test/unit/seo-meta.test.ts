import { describe, expect, it } from "vitest";
import type { Field } from "../../src/contract/fields";
import { articleJsonLd, itemHead, resolveItemSeo } from "../../actors/site/seo/meta";
import { seoFields } from "../../actors/site/seo/fields";
import type { Collection } from "../../actors/site/storage/rows";

const collection = (fields: Field[]): Collection =>
  ({ id: "co_1", slug: "posts", name: "Posts", fields, createdAt: "", updatedAt: "" }) as Collection;

describe("SEO defaults and meta builders", () => {
  it("picks the title, description, body, image and author fields by name and type unless told", () => {
    const c = collection([
      { key: "name", type: "text" },
      { key: "title", type: "text" },
      { key: "summary", type: "text" },
      { key: "body", type: "richText" },
      { key: "cover", type: "image" },
    ]);
    const f = seoFields(c, {});
    expect([f.title?.key, f.description?.key, f.body?.key, f.image?.key, f.author]).toEqual(["title", "summary", "body", "cover", null]);
    expect(seoFields(c, { titleField: "name" }).title?.key).toBe("name");
  });

  it("escapes every value for where it goes and leaves out empty tags", () => {
    const c = collection([
      { key: "title", type: "text" },
      { key: "body", type: "richText" },
    ]);
    const seo = resolveItemSeo(
      {
        id: "it_1",
        slug: "hello",
        collection: "posts",
        publishedAt: "2024-05-01T00:00:00.000Z",
        updatedAt: "2024-05-02T00:00:00.000Z",
        data: { title: `"Quotes" & <tags>`, body: "<p>Body text</p>" },
      },
      seoFields(c, {}),
      {},
      { canonical: "https://x.test/blog/hello", home: "https://x.test/", siteName: "", list: null },
    );
    expect(seo.title).toBe(`"Quotes" & <tags>`);
    expect(seo.description).toBe("Body text");
    const head = itemHead(seo, articleJsonLd(seo));
    expect(head).toContain(`<title>"Quotes" &amp; &lt;tags&gt;</title>`);
    expect(head).toContain('content="&quot;Quotes&quot; &amp; &lt;tags&gt;"');
    expect(head).not.toContain("og:image");
    expect(head).not.toContain("<tags>");
  });
});
