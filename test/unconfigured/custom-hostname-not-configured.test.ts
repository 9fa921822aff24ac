import { describe, expect, it } from "vitest";
import { call } from "../helpers";
import { checkAnswer } from "../contract/document";
import { renderedBlog } from "../hostname-helpers";

// This project runs with CUSTOM_HOSTNAMES="cloudflare" and no API credentials (see vitest.config.ts).
describe("custom hostnames when the deployment has none", () => {
  it("answer not_configured and point to the reverse-proxy Worker", async () => {
    const site = await renderedBlog();
    for (const [method, body, sub] of [
      ["POST", { hostname: "blog.customer.com" }, ""],
      ["GET", undefined, ""],
      ["GET", undefined, "/status"],
      ["DELETE", undefined, ""],
    ] as const) {
      const path = `/sites/${site.id}/ssr/custom-hostname${sub}`;
      const operation = sub
        ? "getCustomHostnameStatus"
        : { POST: "putCustomHostname", GET: "getCustomHostname", DELETE: "deleteCustomHostname" }[method];
      // Held to openapi.json too: the contract test's workerd project has custom hostnames configured.
      const r = await checkAnswer(operation, method, path, await call(method, path, { auth: site.adminKey, body }));
      expect(r.answer, `${method} ${path}`).toBe(`${operation} 501 not_configured`);
      expect(r.problems).toEqual([]);
      const message = (r.body as { error: { message: string } }).error.message;
      expect(message).toContain("reverse-proxy Worker");
      // Which settings are missing (here the API credentials; the hosts and the target are set).
      expect(message).toContain("CF_API_TOKEN, CF_ZONE_ID");
      expect(message).not.toContain("SERVICE_HOSTNAMES");
    }
  });
});
