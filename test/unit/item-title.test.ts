import { describe, expect, it } from "vitest";
import type { Field } from "../../src/contract/fields";
import { itemTitleOf, seoDefaultsOf, titleFieldOf } from "../../src/contract/item-title";
import { embeddingText } from "../../actors/site/search/embed-text";
import { seoFields } from "../../actors/site/seo/fields";
import type { Collection } from "../../actors/site/storage/rows";

const collection = (fields: Field[]): Collection =>
  ({ id: "co_1", slug: "people", name: "People", fields, createdAt: "", updatedAt: "" }) as Collection;

describe("one rule for an item's title and the SEO default fields (src/contract/item-title.ts)", () => {
  const nameThenTitle: Field[] = [
    { key: "name", type: "text" },
    { key: "title", type: "text" },
    { key: "bio", type: "richText" },
    { key: "photo", type: "image" },
  ];

  it("takes title, then name, then headline (any case), then the first text field", () => {
    expect(titleFieldOf(nameThenTitle)?.key).toBe("title");
    expect(
      titleFieldOf([
        { key: "label", type: "text" },
        { key: "Headline", type: "text" },
      ])?.key,
    ).toBe("Headline");
    expect(
      titleFieldOf([
        { key: "label", type: "text" },
        { key: "name", type: "richText" },
      ])?.key,
    ).toBe("label");
    expect(titleFieldOf([{ key: "count", type: "number" }])).toBeNull();
  });

  it("names an item by that field's value, and by nothing when the value is empty", () => {
    expect(itemTitleOf(nameThenTitle, { name: "Ada", title: "Countess" })).toBe("Countess");
    expect(itemTitleOf(nameThenTitle, { name: "Ada", title: "  " })).toBeNull();
    expect(itemTitleOf(nameThenTitle, { name: "Ada" })).toBeNull();
  });

  it("is the rule the SEO tags and the search text use", () => {
    const c = collection(nameThenTitle);
    expect(seoFields(c, {}).title?.key).toBe(seoDefaultsOf(nameThenTitle).titleField);
    expect(embeddingText(c, { name: "Ada", title: "Countess" }, 200)).toBe("Countess");
    expect(seoDefaultsOf(nameThenTitle)).toEqual({ titleField: "title", descriptionField: "bio", imageField: "photo", authorField: null });
  });
});
