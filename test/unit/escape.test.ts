import { describe, expect, it } from "vitest";
import { decodeEntities, escapeAttr, escapeHtml, escapeXml, jsonForScript, requoteRawAttr } from "../../src/shared/escape";
import { isBindableAttribute, isSafeUrl, readBindings } from "../../src/shared/binding/rules";

describe("escaping for each output context", () => {
  it("escapes text, attributes and XML", () => {
    expect(escapeHtml(`<b>"Tom" & 'Jerry'</b>`)).toBe(`&lt;b&gt;"Tom" &amp; 'Jerry'&lt;/b&gt;`);
    expect(escapeAttr(`"><script>'`)).toBe("&quot;&gt;&lt;script&gt;&#39;");
    expect(escapeXml("a\u0001b & <c>")).toBe("ab &amp; &lt;c&gt;");
    expect(requoteRawAttr('say "hi" &amp;')).toBe("say &quot;hi&quot; &amp;");
  });

  it("keeps JSON in a script from closing the element", () => {
    const out = jsonForScript({ t: "</script><!-- & \u2028" });
    expect(out).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(out)).toEqual({ t: "</script><!-- & \u2028" });
  });

  it("decodes numeric and common named references, leaving unknown ones and refusing surrogates", () => {
    expect(decodeEntities("&amp;&#x41;&#66;&hellip;&bogus;")).toBe("&AB\u2026&bogus;");
    expect(decodeEntities("&#xD800;")).toBe("\ufffd");
  });
});

describe("binding rules", () => {
  it("never binds content into script-bearing attributes or URLs", () => {
    expect(isBindableAttribute("href")).toBe(true);
    for (const bad of ["onclick", "srcdoc", "style", "1x"]) expect(isBindableAttribute(bad)).toBe(false);
    for (const ok of ["https://x.test/", "/a", "#top", "?q=1", "mailto:a@b.c", "page.html"]) expect(isSafeUrl(ok)).toBe(true);
    for (const bad of ["javascript:alert(1)", " JaVaScRiPt:x", "java\tscript:x", "data:text/html,x", "vbscript:x"]) {
      expect(isSafeUrl(bad)).toBe(false);
    }
  });

  it("reads an element's bindings from its data-oc attributes", () => {
    const attrs: Record<string, string> = { "data-oc-field": " title ", "data-oc-attr-href": "link", "data-oc-attr-onclick": "x" };
    const b = readBindings(Object.keys(attrs), (n) => attrs[n] ?? null);
    expect(b).toMatchObject({ field: "title", attrs: [["href", "link"]], link: false, empty: false });
    expect(readBindings(["class", "id"], () => null)).toBeNull();
  });
});
