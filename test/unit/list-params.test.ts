import { describe, expect, it } from "vitest";
import { parseFilterParam, parseLimit, parsePage, parseSort, usesAdvancedListParams } from "../../src/shared/list-params";

describe("list parameters", () => {
  it("reads page as a positive whole number, else 1, and caps it", () => {
    expect(parsePage("3")).toBe(3);
    expect(parsePage(" 7 ")).toBe(7);
    for (const bad of [null, undefined, "", "0", "-2", "1.5", "abc", "1e3"]) expect(parsePage(bad)).toBe(1);
    expect(parsePage("99999999999")).toBe(1_000_000);
  });

  it("clamps limit into 1..max and falls back on junk", () => {
    expect(parseLimit("10")).toBe(10);
    expect(parseLimit("0")).toBe(1);
    expect(parseLimit("1000")).toBe(100);
    expect(parseLimit("7.9")).toBe(7);
    expect(parseLimit("x")).toBe(24);
    expect(parseLimit(null, 5, 20)).toBe(5);
    expect(parseLimit("50", 5, 20)).toBe(20);
  });

  it("reads sort keys with their direction and skips empty parts", () => {
    expect(parseSort("-publishedAt, title,,-")).toEqual([
      { key: "publishedAt", descending: true },
      { key: "title", descending: false },
    ]);
    expect(parseSort(null)).toEqual([]);
  });

  it("reads filter parameters, tells malformed ones apart and ignores the rest", () => {
    expect(parseFilterParam("filter[price][gte]", "10")).toEqual({ param: "filter[price][gte]", key: "price", op: "gte", value: "10" });
    expect(parseFilterParam("filter[tag]", "a")).toEqual({ param: "filter[tag]", key: "tag", op: "eq", value: "a" });
    expect(parseFilterParam("filter[x", "1")).toBe("malformed");
    expect(parseFilterParam("page", "1")).toBeNull();
    expect(usesAdvancedListParams(["page", "limit"])).toBe(false);
    expect(usesAdvancedListParams(["page", "filter[a]"])).toBe(true);
    expect(usesAdvancedListParams(["search"])).toBe(true);
  });
});
