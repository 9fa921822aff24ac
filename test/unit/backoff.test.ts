import { describe, expect, it } from "vitest";
import { backoff } from "../../src/shared/backoff";

const first = (delay: (attempt: number) => number, n: number) => Array.from({ length: n }, (_, i) => delay(i + 1));

describe("backoff: the delay before each retry", () => {
  it("doubles from the first delay by default, up to the cap", () => {
    expect(first(backoff({ firstMs: 30_000, maxMs: 3_600_000 }), 9)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
  });

  it("grows by any factor, without a cap when none is given", () => {
    expect(first(backoff({ firstMs: 15_000, factor: 4 }), 4)).toEqual([15_000, 60_000, 240_000, 960_000]);
    expect(backoff({ firstMs: 5_000 })(30)).toBe(5_000 * 2 ** 29);
  });

  it("stays constant with factor 1", () => {
    expect(first(backoff({ firstMs: 30_000, factor: 1 }), 3)).toEqual([30_000, 30_000, 30_000]);
  });

  it("adds the first delay each time when linear", () => {
    expect(first(backoff({ firstMs: 5_000, linear: true }), 4)).toEqual([5_000, 10_000, 15_000, 20_000]);
  });

  it("gives the delays each job had before it, to the millisecond", () => {
    const cases: [(a: number) => number, (a: number) => number][] = [
      [backoff({ firstMs: 30_000, maxMs: 60 * 60_000 }), (a) => Math.min(60 * 60_000, 30_000 * 2 ** (a - 1))],
      [backoff({ firstMs: 15_000, factor: 4 }), (a) => 15_000 * 4 ** (a - 1)],
      [backoff({ firstMs: 5_000, linear: true }), (a) => 5_000 * a],
      [backoff({ firstMs: 2_000, maxMs: 60_000 }), (a) => Math.min(60_000, 1_000 * 2 ** a)],
      [backoff({ firstMs: 5_000 }), (a) => 5_000 * 2 ** (a - 1)],
      [backoff({ firstMs: 30_000, factor: 1 }), () => 30_000],
      [backoff({ firstMs: 30_000, maxMs: 6 * 3600_000 }), (a) => Math.min(6 * 3600_000, 30_000 * 2 ** (a - 1))],
      [backoff({ firstMs: 10_000, maxMs: 3_600_000 }), (a) => Math.min(3_600_000, 5_000 * 2 ** a)],
      [backoff({ firstMs: 5_000, maxMs: 3_600_000 }), (a) => Math.min(3_600_000, 5_000 * 2 ** (a - 1))],
    ];
    for (const [helper, before] of cases) for (let a = 1; a <= 40; a++) expect(helper(a)).toBe(before(a));
  });
});
