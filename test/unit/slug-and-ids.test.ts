import { describe, expect, it } from "vitest";
import { isSiteId, isWorkspaceId, siteIdOfAdminKey, siteIdOfToken } from "../../src/contract/ids";
import { isHttpUrl } from "../../src/contract/urls";
import { isSlug, SLUG_MAX } from "../../src/shared/slug";

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
