import { describe, expect, it } from "vitest";
import {
  CHANGED_ITEMS_MAX,
  changeOf,
  decodeChanges,
  encodeChanges,
  listUntouchedBetween,
  untouchedBetween,
} from "../../src/contract/cache-version";

describe("what recent cache versions changed, as the site object tells the front Worker", () => {
  it("round-trips ids and an edit's changed keys; a reader of ids alone takes a key for one more id", () => {
    const changes = [changeOf(12, ["itm_a", "itm_b"], ["title", "updatedAt"]), changeOf(13, null), changeOf(14, ["itm_c"])];
    const text = encodeChanges(changes);
    expect(text).toBe("12:itm_a,itm_b,=title,=updatedAt;13:*;14:itm_c");
    expect(decodeChanges(text)).toEqual([
      { version: 12, items: ["itm_a", "itm_b"], fields: ["title", "updatedAt"] },
      { version: 13, items: null },
      { version: 14, items: ["itm_c"], fields: null },
    ]);
    // Ids and keys together never pass the cap: the keys are left out, never an id.
    const many = Array.from({ length: CHANGED_ITEMS_MAX - 1 }, (_, i) => `itm_${i}`);
    expect(changeOf(20, many, ["title", "date"])).toEqual({ version: 20, items: many, fields: null });
    expect(changeOf(20, [...many, "x", "y"], ["title"])).toEqual({ version: 20, items: null });
  });

  it("a single item is untouched by others' changes; a list by edits of items it does not show and keys it does not use", () => {
    const changes = decodeChanges("5:itm_a,=title,=updatedAt;6:itm_b,=date,=updatedAt;7:itm_c");
    expect(untouchedBetween(changes, 4, 6, "itm_c")).toBe(true);
    expect(untouchedBetween(changes, 4, 6, "itm_a")).toBe(false);
    const shows = (ids: string[]) => (id: string) => ids.includes(id);
    expect(listUntouchedBetween(changes, 4, 5, ["date"], shows(["itm_x"]))).toBe(true);
    // The key folds case as the site object folds it.
    expect(listUntouchedBetween(changes, 4, 5, ["TITLE"], shows(["itm_x"]))).toBe(false);
    expect(listUntouchedBetween(changes, 4, 5, ["date"], shows(["itm_a"]))).toBe(false);
    // Version 6 changed `date`; version 7 does not say what it changed (a publish, a create).
    expect(listUntouchedBetween(changes, 4, 6, ["date"], shows([]))).toBe(false);
    expect(listUntouchedBetween(changes, 6, 7, ["publishedAt"], shows([]))).toBe(false);
    // A version the list does not know (3..4) carries nothing.
    expect(listUntouchedBetween(changes, 3, 5, ["date"], shows([]))).toBe(false);
  });
});
