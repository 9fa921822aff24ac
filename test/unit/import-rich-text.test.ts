import { describe, expect, it } from "vitest";
import { readCell, richTextOf } from "../../actors/site/imports/cells";
import { sanitizeRichText } from "../../actors/site/content/rich-text";
import type { Field } from "../../src/contract/fields";

const body: Field = { key: "body", type: "richText" };

describe("import: a rich-text cell", () => {
  it("wraps plain text as paragraphs: blank lines split them, a single newline is a line break", () => {
    expect(richTextOf("Hot")).toBe("<p>Hot</p>");
    expect(richTextOf("First paragraph\r\nsame paragraph\r\n\r\n  \r\nSecond one\n\nThird")).toBe(
      "<p>First paragraph<br>same paragraph</p><p>Second one</p><p>Third</p>",
    );
    expect(richTextOf("\n\n  only one  \n\n")).toBe("<p>only one</p>");
    expect(richTextOf("")).toBe("");
  });

  it("escapes plain text, so what looks like markup in it is shown, never run", () => {
    expect(richTextOf("1 < 2 && 3 > 2")).toBe("<p>1 &lt; 2 &amp;&amp; 3 &gt; 2</p>");
    expect(richTextOf('Say "hi" <3')).toBe('<p>Say "hi" &lt;3</p>');
    // What the writer then stores is the same text (the cleanup keeps escaped text escaped).
    expect(sanitizeRichText(richTextOf("a <3 b\n\nc & d"))).toBe("<p>a &lt;3 b</p><p>c &amp; d</p>");
  });

  it("keeps HTML as it is for the write's cleanup (tags, comments and character references mark HTML)", () => {
    expect(richTextOf("<p>Already <b>HTML</b></p>")).toBe("<p>Already <b>HTML</b></p>");
    expect(richTextOf("<h2>Title</h2>\n\n<p>x</p>")).toBe("<h2>Title</h2>\n\n<p>x</p>");
    expect(richTextOf("Tom &amp; Jerry")).toBe("Tom &amp; Jerry");
    expect(richTextOf("line<br/>next")).toBe("line<br/>next");
    const hostile = richTextOf('<img src=x onerror="alert(1)"><script>alert(2)</script>');
    expect(sanitizeRichText(hostile)).not.toMatch(/onerror|script|alert/);
  });

  it("is what readCell gives a rich-text field, and only a rich-text field", () => {
    expect(readCell(body, "Plain\n\nText")).toEqual({ value: "<p>Plain</p><p>Text</p>" });
    expect(readCell({ key: "title", type: "text" }, "Plain\n\nText")).toEqual({ value: "Plain\n\nText" });
  });
});
