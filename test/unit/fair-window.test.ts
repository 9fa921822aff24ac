import { describe, expect, it } from "vitest";
import { FairWindow } from "../../src/shared/fair-window";

const W = 60_000;
const make = (maxKeys = 100) => new FairWindow({ windowMs: W, maxKeys, share: 0.5, present: 0.01 });
// The start of a window, so a run of takes at one instant is all in one window.
const T0 = 1_700_000_040_000 - (1_700_000_040_000 % W);

function takeUntilRefused(w: FairWindow, key: string, quota: number, now: number, max = 10 * quota) {
  for (let i = 0; i < max; i++) {
    const v = w.take(key, quota, now);
    if (v) return { taken: i, verdict: v };
  }
  return { taken: max, verdict: null };
}

describe("FairWindow: a shared quota, fair between keys", () => {
  it("a key alone may use the whole quota, then waits until the window ends", () => {
    const w = make();
    const { taken, verdict } = takeUntilRefused(w, "build-server", 1000, T0 + 15_000);
    expect(taken).toBe(1000);
    expect(verdict).toEqual({ retryAfter: 45, by: "total" });
  });

  it("while others use it too, one key is held to its share and the others go on", () => {
    const w = make();
    const now = T0 + 1000;
    for (let i = 0; i < 20; i++) expect(w.take(`reader-${i % 4}`, 1000, now)).toBeNull();
    const { taken, verdict } = takeUntilRefused(w, "flood", 1000, now);
    expect(taken).toBe(500);
    expect(verdict?.by).toBe("key");
    // The readers are within their share: still served.
    for (let i = 0; i < 100; i++) expect(w.take(`reader-${i % 4}`, 1000, now)).toBeNull();
  });

  it("others below `present` of the quota do not halve a lone key's share", () => {
    const w = make();
    const now = T0;
    for (let i = 0; i < 10; i++) w.take("stray", 1000, now);
    expect(takeUntilRefused(w, "build-server", 1000, now).taken).toBe(990);
  });

  it("slides: half a window later, half of the last window still counts", () => {
    const w = make();
    expect(takeUntilRefused(w, "a", 1000, T0).taken).toBe(1000);
    // 30 s into the next window the previous one weighs 0.5: 500 more fit.
    expect(takeUntilRefused(w, "a", 1000, T0 + W + W / 2).taken).toBe(500);
    // Two windows later nothing of it is left.
    expect(takeUntilRefused(w, "a", 1000, T0 + 4 * W).taken).toBe(1000);
  });

  it("bounded memory: past maxKeys, new keys count together", () => {
    const w = make(10);
    for (let i = 0; i < 10; i++) w.take(`k${i}`, 1_000_000, T0);
    for (let i = 0; i < 50; i++) w.take(`new-${i}`, 1_000_000, T0);
    expect(w.count("k0", T0)).toBe(1);
    expect(w.count(null, T0)).toBe(60);
    expect(w.count("new-3", T0)).toBe(0);
  });
});
