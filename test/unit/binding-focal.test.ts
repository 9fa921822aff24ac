import { describe, expect, it } from "vitest";
import { type Bindings, bindingOps, withStyle } from "../../src/shared/binding/rules";

const cover: Bindings = { field: "cover", attrs: [], link: false, ifPath: null, ifNotPath: null, format: null, empty: false };
const ctx = { base: "/blog/", schema: { posts: { cover: "image" } }, labels: {} };
const item = (focal: unknown) => ({
  id: "it_1",
  slug: "a",
  collection: "posts",
  publishedAt: "2026-01-01T00:00:00Z",
  data: { cover: { url: "https://x.test/a.jpg", srcset: "https://x.test/a.jpg 800w", alt: "A", focal } },
});

describe("a bound image's focal point", () => {
  it("becomes object-position, only from numbers in 0–1", () => {
    expect(bindingOps("img", cover, item({ x: 0.25, y: 0.8 }), ctx)).toContainEqual({
      op: "style",
      property: "object-position",
      value: "25% 80%",
    });
    for (const bad of [undefined, null, { x: 2, y: 0 }, { x: "0.5", y: 0.5 }, { x: 0.5 }, { x: "1;background:url(x)", y: 0 }])
      expect(bindingOps("img", cover, item(bad), ctx).some((o) => o.op === "style")).toBe(false);
  });

  it("keeps the template's other style declarations and replaces an earlier object-position", () => {
    expect(withStyle(null, "object-position", "10% 20%")).toBe("object-position: 10% 20%");
    expect(withStyle("width: 100%; Object-Position: center;", "object-position", "10% 20%")).toBe("width: 100%; object-position: 10% 20%");
  });
});
