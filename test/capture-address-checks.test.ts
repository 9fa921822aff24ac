import { describe, expect, it } from "vitest";
import { isPrivateHost } from "../src/net/ssrf";

describe("capture refuses loopback and private addresses (when the deployment does not allow them)", () => {
  it("in every spelling", () => {
    const hosts = [
      "localhost",
      "localhost.",
      "app.localhost",
      "printer.local.",
      "metadata.google.internal.",
      "intranet",
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "[::1]",
      "[::]",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "[::127.0.0.1]",
      "[::7f00:1]",
      "[64:ff9b::7f00:1]",
      // NAT64 reaches IPv4 networks through a gateway: refused whatever it carries (docs/ssrf.md).
      "[64:ff9b::808:808]",
      "[fc00::1]",
      "[fd12:3456::1]",
      "[fe80::1]",
      "[fec0::1]",
    ];
    for (const h of hosts) expect(isPrivateHost(h), h).toBe(true);
  });

  it("but not public ones", () => {
    for (const h of ["example.com", "example.com.", "8.8.8.8", "172.32.0.1", "[2606:4700::1111]", "[::ffff:8.8.8.8]"]) {
      expect(isPrivateHost(h), h).toBe(false);
    }
  });

  it("as URLs normalise them", () => {
    for (const u of ["http://[::127.0.0.1]/", "http://2130706433/", "http://0x7f.1/", "http://LOCALHOST./"]) {
      expect(isPrivateHost(new URL(u).hostname), u).toBe(true);
    }
  });
});
