/** Number and money formats of the binding rules (the same code runs in the embed and the server). */
import { describe, expect, it } from "vitest";
import { displayText, formatNumber } from "../../src/shared/binding/values";

const plain = (s: string) => s.replace(/\s/g, " ");

describe("binding: number formats", () => {
  it("formats money in its currency's decimals and the element's locale", () => {
    expect(displayText(34.9, "money:USD")).toBe("$34.90");
    expect(plain(displayText(1234.5, "money:EUR", "de-DE"))).toBe("1.234,50 €");
    expect(displayText(1500, "money:JPY", "en-US")).toBe("¥1,500");
    expect(displayText("45000", "money:EUR:0")).toBe("€45,000");
    expect(plain(displayText("45000.5", "money:EUR:0", "fr-FR"))).toBe("45 001 €");
  });

  it("keeps an exact decimal's digits and fixes the decimals asked for", () => {
    expect(displayText("34.90", "money:USD")).toBe("$34.90");
    expect(displayText("12345678901234.99", "number:2")).toBe("12,345,678,901,234.99");
    expect(displayText(24, "number:2")).toBe("24.00");
    expect(displayText(1234.5678, "number")).toBe("1,234.568");
  });

  it("leaves numbers as stored without a number format, and falls back on a bad locale or currency", () => {
    expect(displayText(34.9, null)).toBe("34.9");
    expect(displayText(34.9, "D MMM YYYY")).toBe("34.9");
    expect(displayText("34.90", null)).toBe("34.90");
    expect(displayText(34.9, "money:USD", "not a locale!")).toBe("$34.90");
    expect(formatNumber(34.9, "money:usd", null)).toBeNull();
    expect(formatNumber(34.9, "number:9", null)).toBeNull();
    expect(formatNumber(34.9, "money:EUR:7", null)).toBeNull();
    expect(displayText("sold-out", "money:USD")).toBe("sold-out");
  });
});
