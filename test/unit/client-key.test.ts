import { describe, expect, it } from "vitest";
import { addressKey, clientKey, parseIpv6 } from "../../src/limits/client";

const req = (headers: Record<string, string>) => new Request("https://api.test/", { headers });

describe("rate-limit client keys", () => {
  it("keys an IPv6 client by the /64 of its parsed address, however it is written", () => {
    const forms = [
      "2001:db8:aa:1::1",
      "2001:0DB8:00aa:0001:ffff:0:0:2",
      "[2001:db8:aa:1:0:0:0:3]",
      "2001:db8:aa:1::1%eth0",
      "2001:db8:aa:1:ffff:ffff:255.255.255.255",
    ];
    expect(new Set(forms.map(addressKey))).toEqual(new Set(["2001:db8:aa:1::/64"]));
    expect(addressKey("2001:db8:aa:2::1")).toBe("2001:db8:aa:2::/64");
    // The text's first four groups are not the /64 when "::" comes early.
    expect(addressKey("2001:db8::1:2:3:4")).toBe("2001:db8:0:0::/64");
    expect(addressKey("2001:db8::5:1:2:3:4")).toBe("2001:db8:0:5::/64");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(parseIpv6("2001:db8::1::2")).toBeNull();
    expect(parseIpv6("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(addressKey("not an address")).toBeNull();
    // IPv4 as written by Cloudflare is its own key; other spellings of it are the same key.
    const v4: [string, string | null][] = [
      ["203.0.113.7", "203.0.113.7"],
      ["203.000.113.07", "203.0.113.7"],
      [" 10.0.0.1 ", "10.0.0.1"],
      ["0.0.0.0", "0.0.0.0"],
      ["256.1.1.1", null],
      ["1.2.3", null],
    ];
    expect(v4.map(([text]) => addressKey(text))).toEqual(v4.map(([, key]) => key));
  });

  it("locally (LOCAL_CLIENT_KEYS), clients without CF-Connecting-IP do not share one bucket", () => {
    const local = { LOCAL_CLIENT_KEYS: "true" };
    const a = clientKey(req({ "user-agent": "curl/8.0" }), local);
    const b = clientKey(req({ "user-agent": "Mozilla/5.0" }), local);
    const c = clientKey(req({ "x-forwarded-for": "198.51.100.4, 10.0.0.1" }), local);
    const d = clientKey(req({ "x-forwarded-for": "198.51.100.5" }), local);
    expect(new Set([a, b, c, d]).size).toBe(4);
    expect(clientKey(req({ "cf-connecting-ip": "203.0.113.7", "user-agent": "x" }), local)).toBe("203.0.113.7");
  });

  it("in production, headers a client chooses never pick its bucket: without CF-Connecting-IP it is 'unknown'", () => {
    const production = {};
    const forged: Record<string, string>[] = [
      { "user-agent": "curl/8.0" },
      { "user-agent": "Mozilla/5.0" },
      { "x-forwarded-for": "198.51.100.4" },
    ];
    const keys = forged.map((h) => clientKey(req(h), production));
    expect(new Set(keys)).toEqual(new Set(["unknown"]));
    expect(clientKey(req({ "cf-connecting-ip": "2001:db8:1:2::9" }), production)).toBe("2001:db8:1:2::/64");
  });
});
