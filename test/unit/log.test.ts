import { afterEach, describe, expect, it } from "vitest";
import { errorText, log, type LogSink, setLogSink } from "../../src/log";

function capture(): { lines: { level: string; line: string }[]; restore: () => void } {
  const lines: { level: string; line: string }[] = [];
  const sink: LogSink = {
    info: (line) => lines.push({ level: "info", line }),
    warn: (line) => lines.push({ level: "warn", line }),
    error: (line) => lines.push({ level: "error", line }),
  };
  const previous = setLogSink(sink);
  return { lines, restore: () => setLogSink(previous) };
}

describe("structured logs", () => {
  let restore = () => {};
  afterEach(() => restore());

  it("writes one JSON object per event on one line, at the event's level", () => {
    const c = capture();
    restore = c.restore;
    log("hostname_create_failed", { siteId: "s1", hostname: "shop.example.com", error: "Error: boom" });
    log("origin_read_retry", { error: "TypeError: reset\nsecond line" });
    expect(c.lines.map((l) => l.level)).toEqual(["error", "warn"]);
    for (const { line } of c.lines) expect(line).not.toContain("\n");
    expect(JSON.parse(c.lines[0]!.line)).toEqual({
      event: "hostname_create_failed",
      level: "error",
      siteId: "s1",
      hostname: "shop.example.com",
      error: "Error: boom",
    });
  });

  it("turns errors into a short name-and-message line", () => {
    expect(errorText(new TypeError("bad"))).toBe("TypeError: bad");
    expect(errorText("plain")).toBe("plain");
    const long = errorText(new Error("x".repeat(1000)));
    expect(long.length).toBeLessThanOrEqual(301);
    expect(long.endsWith("…")).toBe(true);
  });
});
