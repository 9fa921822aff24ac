import { describe, expect, it } from "vitest";
import { callJson } from "../helpers";
import { renderedBlog } from "../hostname-helpers";

// This project runs with CUSTOM_HOSTNAMES="cloudflare" and no API credentials (see vitest.config.ts).
describe("custom hostnames when the deployment has none", () => {
  it("answer not_configured and point to the reverse-proxy Worker", async () => {
    const site = await renderedBlog();
    for (const [method, body] of [
      ["POST", { hostname: "blog.customer.com" }],
      ["GET", undefined],
      ["DELETE", undefined],
    ] as const) {
      const r = await callJson<{ error: { code: string; message: string } }>(method, `/sites/${site.id}/ssr/custom-hostname`, {
        auth: site.adminKey,
        body,
      });
      expect(r.status, method).toBe(501);
      expect(r.body.error.code).toBe("not_configured");
      expect(r.body.error.message).toContain("reverse-proxy Worker");
    }
  });
});
