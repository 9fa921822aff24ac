import { describe, expect, it } from "vitest";
import { BoundedMap, stringBytes } from "../../src/shared/bounded-map";

describe("a cache bounded in bytes as well as entries", () => {
  it("drops the oldest entries once the bytes exceed the bound, however few the entries", () => {
    const m = new BoundedMap<string, string>(1000, 100);
    m.set("a", "x", 40);
    m.set("b", "x", 40);
    m.set("c", "x", 40);
    expect([...m.keys()]).toEqual(["b", "c"]);
    expect(m.bytes).toBe(80);
    // One entry larger than the whole budget is not kept, and pushes nothing out.
    m.set("huge", "x", 101);
    expect([...m.keys()]).toEqual(["b", "c"]);
  });

  it("drops the oldest entries once the entries exceed the bound", () => {
    const m = new BoundedMap<number, number>(2, 1_000_000);
    for (let i = 0; i < 5; i++) m.set(i, i, 10);
    expect([...m.keys()]).toEqual([3, 4]);
    expect(m.bytes).toBe(20);
  });

  it("moves a touched entry to the back, and a plain get does not", () => {
    const m = new BoundedMap<string, number>(2, 1000);
    m.set("a", 1, 1);
    m.set("b", 2, 1);
    m.get("a");
    m.set("c", 3, 1);
    expect([...m.keys()]).toEqual(["b", "c"]);
    m.get("b", true);
    m.set("d", 4, 1);
    expect([...m.keys()]).toEqual(["b", "d"]);
  });

  it("re-sizes an entry in place and accounts a replaced entry once", () => {
    const m = new BoundedMap<string, string>(10, 100);
    m.set("a", "x", 30);
    m.set("a", "y", 50);
    expect(m.bytes).toBe(50);
    m.set("b", "z", 40);
    m.resize("b", 60);
    expect([...m.keys()]).toEqual(["b"]);
    expect(m.bytes).toBe(60);
    m.delete("b");
    expect(m.bytes).toBe(0);
    expect(stringBytes("abc")).toBe(6);
  });

  it("keeps evicting the least recently used entry through any mix of sets, touches, deletes and clears", () => {
    // The eviction iterator is kept from one eviction to the next (a fresh one walks every hole
    // earlier evictions left): its order must stay that of a plain list of keys.
    const m = new BoundedMap<number, number>(50, 1_000_000);
    let model: number[] = [];
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 20_000; i++) {
      const k = rand(120);
      const op = rand(20);
      if (op === 0) {
        m.delete(k);
        model = model.filter((x) => x !== k);
      } else if (op === 1 && i % 997 === 0) {
        m.clear();
        model = [];
      } else if (op < 6) {
        if (m.get(k, true) !== undefined) model = [...model.filter((x) => x !== k), k];
      } else {
        m.set(k, i, 1);
        model = [...model.filter((x) => x !== k), k];
        if (model.length > 50) model.shift();
      }
      if (i % 500 === 0) expect([...m.keys()]).toEqual(model);
    }
    expect([...m.keys()]).toEqual(model);
    expect(m.bytes).toBe(model.length);
  });
});
