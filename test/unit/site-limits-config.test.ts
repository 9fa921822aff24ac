import { describe, expect, it } from "vitest";
import { readPolicies, siteLimitConfig } from "../../src/limits/site-limits-config";
import { setLogSink } from "../../src/log";

describe("a deployment's site limits (RATE_LIMITS, RATE_LIMIT_SCALE)", () => {
  it("the documented defaults, overridden by plan, multiplied by the load-test switch", () => {
    expect(siteLimitConfig({}).quota("reads", "free")).toBe(6000);
    const c = siteLimitConfig({ RATE_LIMITS: JSON.stringify({ reads: { free: 100 }, share: 0.25 }) });
    expect(c.quota("reads", "free")).toBe(100);
    expect(c.quota("reads", "pro")).toBe(24000);
    expect(c.share).toBe(0.25);
    expect(siteLimitConfig({ RATE_LIMIT_SCALE: "1000" }).quota("writes", "starter")).toBe(6_000_000);
    expect(readPolicies({}, "pro", true)).toBe('"reads";q=24000;w=60, "search";q=600;w=60');
  });

  it("a setting that does not read is logged and the defaults apply", () => {
    const lines: string[] = [];
    const previous = setLogSink({ info: (l) => lines.push(l), warn: (l) => lines.push(l), error: (l) => lines.push(l) });
    try {
      for (const bad of ["{not json", '{"reads":{"gold":5}}', '{"reads":{"free":-1}}', '{"share":2}', '{"bogus":{}}']) {
        expect(siteLimitConfig({ RATE_LIMITS: bad }).quota("reads", "free")).toBe(6000);
      }
    } finally {
      setLogSink(previous);
    }
    expect(lines.map((l) => JSON.parse(l).event)).toEqual(Array(5).fill("config_invalid"));
    expect(JSON.parse(lines[1]!).error).toMatch(/gold: not a plan/);
  });
});
