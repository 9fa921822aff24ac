import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { idMac, idMacMatches, newSiteId, newWorkspaceId, siteIdMac } from "../../src/ids";
import { isSiteId, isWorkspaceId, siteIdOfAdminKey, siteIdOfToken } from "../../src/contract/ids";
import { isHttpUrl } from "../../src/contract/urls";
import { isSlug, SLUG_MAX } from "../../src/contract/slug";

describe("slug rules", () => {
  it("takes lowercase letters, digits and single inner hyphens", () => {
    for (const ok of ["a", "hello-world", "2024-recap", "x".repeat(SLUG_MAX)]) expect(isSlug(ok)).toBe(true);
    for (const bad of ["", "-a", "a-", "a--b", "Hello", "a b", "ä", "x".repeat(SLUG_MAX + 1)]) expect(isSlug(bad)).toBe(false);
  });
});

describe("id and token formats", () => {
  const site = "abcdefghijklmnop";
  it("finds the site a public token or admin key names", () => {
    expect(siteIdOfToken(`pk_${site}_${"a".repeat(24)}`)).toBe(site);
    expect(siteIdOfAdminKey(`sk_${site}_${"b".repeat(40)}`)).toBe(site);
    expect(siteIdOfToken(`sk_${site}_${"b".repeat(40)}`)).toBeNull();
    expect(siteIdOfToken(`pk_${site}_${"a".repeat(23)}`)).toBeNull();
    expect(siteIdOfAdminKey(`pk_${site}_${"a".repeat(24)}`)).toBeNull();
  });

  it("tells site and workspace ids from anything else", () => {
    expect(isSiteId(site)).toBe(true);
    expect(isSiteId("ABCDEFGHIJKLMNOP")).toBe(false);
    expect(isSiteId("abcdefghijklmno1")).toBe(false);
    expect(isWorkspaceId(`ws_${site}`)).toBe(true);
    expect(isWorkspaceId(site)).toBe(false);
  });

  it("takes only absolute http(s) URLs up to 2,048 characters", () => {
    expect(isHttpUrl("https://example.com/a?b=c")).toBe(true);
    expect(isHttpUrl("http://127.0.0.1:8788/blog/")).toBe(true);
    for (const bad of ["/relative", "javascript:alert(1)", "ftp://x.test/", "not a url", `https://x.test/${"a".repeat(2048)}`]) {
      expect(isHttpUrl(bad)).toBe(false);
    }
  });
});

// Ids already issued must keep passing: the MAC is HMAC-SHA-256 of "<kind>:" + the random part,
// its first 30 bits in the id alphabet. Worked out here with Node's own HMAC, not ours.
const reference = (secret: string, random: string, kind = "site") => {
  const mac = createHmac("sha256", secret).update(`${kind}:${random}`).digest();
  let bits = mac.readUInt32BE(0) >>> 2;
  let out = "";
  for (let i = 0; i < 6; i++) {
    out = "abcdefghijklmnopqrstuvwxyz234567"[bits & 31] + out;
    bits >>>= 5;
  }
  return out;
};

describe("site id MAC", () => {
  it("is the documented HMAC for random parts of every shape, and the same twice", () => {
    for (const secret of ["local-site-id-secret-for-workerd-runs", "another secret, longer than one SHA-256 block of sixty-four bytes!"])
      for (const random of ["abcdefghij", "2345672345", "zzzzzzzzzz", "short", "éèàçùâêîôû", "abcdefghijk"]) {
        expect(siteIdMac(secret, random), `${secret} ${random}`).toBe(reference(secret, random));
        expect(siteIdMac(secret, random)).toBe(reference(secret, random));
      }
    const id = newSiteId("local-site-id-secret-for-workerd-runs");
    expect(id.slice(10)).toBe(reference("local-site-id-secret-for-workerd-runs", id.slice(0, 10)));
  });

  it("is checked without building it: the right MAC passes, any other character or length does not", () => {
    const secret = "local-site-id-secret-for-workerd-runs";
    for (const random of ["abcdefghij", "2345672345", "short", "éèàçùâêîôû"]) {
      // Kinds and secrets interleaved: the states kept per kind and secret never leak into each other.
      for (const kind of ["site", "workspace", "site"] as const) {
        const mac = reference(secret, random, kind);
        expect(idMacMatches(secret, kind, random, mac)).toBe(true);
        expect(idMacMatches("another secret of the deployment", kind, random, mac)).toBe(false);
        for (let i = 0; i < mac.length; i++) {
          const other = mac.slice(0, i) + (mac[i] === "a" ? "b" : "a") + mac.slice(i + 1);
          expect(idMacMatches(secret, kind, random, other)).toBe(false);
        }
        expect(idMacMatches(secret, kind, random, mac.slice(1))).toBe(false);
        expect(idMacMatches(secret, kind, random, `${mac}a`)).toBe(false);
      }
      expect(idMacMatches(secret, "workspace", random, reference(secret, random, "site"))).toBe(false);
    }
  });
});

describe("workspace id MAC", () => {
  const secret = "local-site-id-secret-for-workerd-runs";
  it("signs a new workspace id under its own label, so a site id's MAC never passes for it", () => {
    const id = newWorkspaceId(secret);
    expect(isWorkspaceId(id)).toBe(true);
    const random = id.slice(3, 13);
    const want = reference(secret, random, "workspace");
    expect(id.slice(13)).toBe(want);
    expect(idMac(secret, "workspace", random)).toBe(want);
    expect(siteIdMac(secret, random)).not.toBe(want);
  });
  it("stays random (and of the same shape) where no secret is configured", () => {
    const a = newWorkspaceId(null);
    expect(isWorkspaceId(a)).toBe(true);
    expect(a).not.toBe(newWorkspaceId(null));
  });
});
