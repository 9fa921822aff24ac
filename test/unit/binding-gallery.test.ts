import { describe, expect, it } from "vitest";
import { type Bindings, bindingOps } from "../../src/shared/binding/rules";
import { lookup, withGalleryImage } from "../../src/shared/binding/values";

const bound = (field: string, attrs: [string, string][] = []): Bindings => ({
  field,
  attrs,
  link: false,
  ifPath: null,
  ifNotPath: null,
  format: null,
  empty: false,
});
const ctx = { base: "/shop/", schema: { products: { photos: "gallery", name: "text" } }, labels: {} };
const front = { url: "https://x.test/front.jpg", alt: "Front <b>&" };
const back = { url: "https://x.test/back.jpg", alt: "Back" };
const item = (photos: unknown) => ({
  id: "it_1",
  slug: "pot",
  collection: "products",
  publishedAt: "2026-01-01T00:00:00Z",
  data: { name: "Pot", photos },
});

describe("a bound gallery", () => {
  it("shows its first image on an <img>, and nothing when it is empty", () => {
    expect(bindingOps("img", bound("photos"), item([front, back]), ctx)).toEqual([
      { op: "set", name: "src", value: front.url },
      { op: "unset", name: "srcset" },
      { op: "set", name: "alt", value: front.alt },
    ]);
    expect(bindingOps("img", bound("photos"), item([]), ctx)).toEqual([
      { op: "unset", name: "src" },
      { op: "unset", name: "srcset" },
      { op: "set", name: "alt", value: "" },
    ]);
  });

  it("repeats a container's template once per image, each with the image as @", () => {
    const it = item([front, back]);
    const ops = bindingOps("div", bound("photos"), it, ctx);
    expect(ops).toEqual([{ op: "repeat", items: [withGalleryImage(it, front), withGalleryImage(it, back)] }]);
    const second = (ops[0] as { items: ReturnType<typeof withGalleryImage>[] }).items[1]!;
    expect(bindingOps("img", bound("@"), second, ctx)).toContainEqual({ op: "set", name: "src", value: back.url });
    expect(bindingOps("figcaption", bound("@.alt"), second, ctx)).toEqual([{ op: "text", value: "Back" }]);
    // The item's own fields still bind inside the template.
    expect(lookup(second, "name")).toBe("Pot");
    expect(bindingOps("div", bound("photos"), item([]), ctx)).toEqual([{ op: "repeat", items: [] }]);
  });

  it("leaves what binds @ outside a gallery's template as written", () => {
    expect(bindingOps("img", bound("@", [["title", "@.alt"]]), item([front]), ctx)).toEqual([]);
  });

  it("never takes a URL that could run script into src", () => {
    const ops = bindingOps("a", bound("photos"), item([{ url: "javascript:alert(1)", alt: "" }]), ctx);
    expect(ops).toEqual([{ op: "unset", name: "href" }]);
  });
});
