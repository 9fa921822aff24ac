import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelay } from "../../actors/site/webhooks/schedule";

describe("webhook retry schedule", () => {
  it("follows the Standard Webhooks example, spread by ±20 %, about three days in all", () => {
    expect(RETRY_DELAYS_MS.slice(0, 6)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    for (let n = 1; n < MAX_ATTEMPTS; n++) {
      const base = RETRY_DELAYS_MS[n - 1]!;
      expect(retryDelay(n, () => 0)).toBe(Math.round(base * 0.8));
      expect(retryDelay(n, () => 1)).toBe(Math.round(base * 1.2));
      const d = retryDelay(n)!;
      expect(d).toBeGreaterThanOrEqual(base * 0.8 - 1);
      expect(d).toBeLessThanOrEqual(base * 1.2 + 1);
    }
    expect(retryDelay(MAX_ATTEMPTS)).toBeNull();
    const hours = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(70);
    expect(hours).toBeLessThan(80);
  });
});
