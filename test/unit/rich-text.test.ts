import { describe, expect, it } from "vitest";
import { sanitizeRichText } from "../../actors/site/content/rich-text";
import { excerpt, plainText } from "../../actors/site/content/plain-text";

describe("rich-text cleanup", () => {
  it("keeps allowed tags and attributes and drops the rest", () => {
    expect(sanitizeRichText('<p class="x" onclick="y">Hi <b>there</b></p>')).toBe('<p class="x">Hi <b>there</b></p>');
    expect(sanitizeRichText("<custom>text</custom>")).toBe("text");
  });

  it("removes script-like elements with their content, comments and unsafe URLs", () => {
    const out = sanitizeRichText('<p>a<script>alert(1)</script><!-- c --><a href="javascript:x">l</a></p>');
    expect(out).not.toMatch(/script|alert|<!--|javascript/);
    expect(out).toContain("<a>l</a>");
  });

  it("balances tags so a value cannot leak out of its element", () => {
    expect(sanitizeRichText("<p><b>open")).toBe("<p><b>open</b></p>");
    expect(sanitizeRichText("</div>text")).toBe("text");
  });

  it("gives plain text and excerpts for descriptions", () => {
    // Blocks keep a separator; a block that already ends a sentence needs none.
    expect(plainText("<p>One &amp; <b>two</b></p><p>three</p>")).toBe("One & two. three");
    expect(plainText("<h2>Ingredients</h2><ul><li>6 ripe\ntomatoes</li><li>1 onion</li></ul><p>Roast!</p><p>Serve.</p>")).toBe(
      "Ingredients. 6 ripe tomatoes. 1 onion. Roast! Serve.",
    );
    const e = excerpt("word ".repeat(100), 20);
    expect(e.length).toBeLessThanOrEqual(21);
    expect(e.endsWith("…")).toBe(true);
  });
});
