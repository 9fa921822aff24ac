import { describe, expect, it } from "vitest";
import { call } from "../helpers";
import { checkAnswer } from "../contract/document";
import { renderedBlog } from "../hostname-helpers";

// This project has Cloudflare for SaaS credentials but, as production's wrangler.toml until the
// deploy sets them, no SERVICE_HOSTNAMES and no CUSTOM_HOSTNAME_CNAME_TARGET (see vitest.config.ts).
// Without them a site could register the service's other hosts or the target's zone, so custom
// hostnames stay off and say which setting is missing.
describe("custom hostnames when the service's own hosts or the CNAME target are not set", () => {
  it("answer 501 not_configured naming both missing settings, and register nothing", async () => {
    const site = await renderedBlog();
    const path = `/sites/${site.id}/ssr/custom-hostname`;
    for (const hostname of ["api.example.com", "ssr.example.net", "blog.customer.com"]) {
      const res = await call("POST", path, { auth: site.adminKey, body: { hostname } });
      const r = await checkAnswer("putCustomHostname", "POST", path, res);
      expect(r.answer, hostname).toBe("putCustomHostname 501 not_configured");
      expect(r.problems).toEqual([]);
      const error = (r.body as { error: { message: string; details?: { missing?: string[] } } }).error;
      expect(error.message).toContain("SERVICE_HOSTNAMES");
      expect(error.message).toContain("CUSTOM_HOSTNAME_CNAME_TARGET");
      expect(error.details?.missing).toEqual(["SERVICE_HOSTNAMES", "CUSTOM_HOSTNAME_CNAME_TARGET"]);
    }
    const get = await call("GET", path, { auth: site.adminKey });
    expect(get.status).toBe(501);
  });
});
