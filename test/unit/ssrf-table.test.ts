import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isPrivateHost } from "../../src/net/ssrf";

/** The rows of docs/ssrf.md's table: what is refused, and its example. */
function rows(): { what: string; example: string }[] {
  const text = readFileSync(new URL("../../docs/ssrf.md", import.meta.url), "utf8");
  return text
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| refused") && !l.startsWith("| ---"))
    .map((l) => {
      const [what = "", example = ""] = l
        .split("|")
        .slice(1, 3)
        .map((c) => c.trim());
      return { what, example: example.replace(/`/g, "") };
    });
}

describe("docs/ssrf.md: every refused row is refused", () => {
  it("has a row for every special-purpose range", () => {
    const all = rows()
      .map((r) => r.what)
      .join("\n");
    for (const must of [
      "::ffff:0:a.b.c.d",
      "64:ff9b::/96",
      "2002::/16",
      "2001::/32",
      "198.18.0.0/15",
      "100.64.0.0/10",
      "192.0.0.0/24",
      "192.0.2.0/24",
      "198.51.100.0/24",
      "203.0.113.0/24",
      "240.0.0.0/4",
      "2001:db8::/32",
      "3fff::/20",
      "a name resolving",
    ]) {
      expect(all).toContain(must);
    }
  });

  it("refuses each row's literal example", () => {
    const literal = rows().filter((r) => !r.example.includes("→"));
    expect(literal.length).toBeGreaterThan(20);
    for (const r of literal) expect(isPrivateHost(r.example), `${r.what}: ${r.example}`).toBe(true);
  });

  it("but not public neighbours of those ranges", () => {
    for (const h of [
      "8.8.8.8",
      "100.128.0.1",
      "198.20.0.1",
      "172.32.0.1",
      "[2606:4700::1111]",
      "[::ffff:8.8.8.8]",
      "[2003::1]",
      "[2001:4860::8888]",
      "192.0.3.1",
      "198.51.101.1",
      "203.0.112.1",
      "[2001:200::1]",
      "[3fff:1000::1]",
    ]) {
      expect(isPrivateHost(h), h).toBe(false);
    }
  });
});
