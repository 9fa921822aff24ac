import { describe, expect, it } from "vitest";
import { call } from "../helpers";
import { checkAnswer } from "../contract/document";
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
      const path = `/sites/${site.id}/ssr/custom-hostname`;
      const operation = { POST: "putCustomHostname", GET: "getCustomHostname", DELETE: "deleteCustomHostname" }[method];
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

  it("answer the status question with available: false, not a failure", async () => {
    const site = await renderedBlog();
    const path = `/sites/${site.id}/ssr/custom-hostname/status`;
    const r = await checkAnswer("getCustomHostnameStatus", "GET", path, await call("GET", path, { auth: site.adminKey }));
    expect(r.answer).toBe("getCustomHostnameStatus 200");
    expect(r.problems).toEqual([]);
    expect(r.body).toEqual({ customHostname: null, available: false });
  });
});
