import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkerd } from "../../scripts/workerd-host.mjs";
import { checkScreen, dashboardBrowser } from "./dashboard-harness";

const OPERATOR = "unconfigured-operator";
const { newPage } = dashboardBrowser();
// A deployment without a custom-hostname provider: the Worker the global setup built, on a workerd of its own.
let service: { base: string; dispose: () => Promise<void> };
beforeAll(async () => {
  service = await startWorkerd({
    scriptPath: ".wrangler/browser-test-build/index.js",
    adminToken: OPERATOR,
    vars: { CUSTOM_HOSTNAMES: "off" },
    embedderProcesses: 1,
  });
}, 60_000);
afterAll(async () => {
  await service?.dispose();
});

describe("the Domains tab on a deployment without custom hostnames", () => {
  it("says so and walks the owner through the reverse-proxy Worker with the site's token", async () => {
    const res = await fetch(`${service.base}/sites`, {
      method: "POST",
      headers: { authorization: `Bearer ${OPERATOR}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Proxy only", plan: "seo_engine" }),
    });
    const { site } = (await res.json()) as { site: { id: string; token: string; adminKey: string } };
    const page = await newPage();
    await page.goto(`${service.base}/dashboard/#/${site.id}/domains`);
    await page.getByLabel("Admin key").fill(site.adminKey);
    await page.getByRole("button", { name: "Sign in with admin key" }).click();
    await page.getByRole("heading", { name: "Custom domains are not available on this deployment" }).waitFor();
    expect(await page.getByText("trailing wildcard").isVisible()).toBe(true);
    expect(await page.getByText("proxied").first().isVisible()).toBe(true);
    expect(await page.getByText(`echo "${site.token}" | npx wrangler secret put SERVICE_TOKEN`).isVisible()).toBe(true);
    // The site's proxy key (the Owner manages the SEO Engine), as the service issues it.
    const key = await fetch(`${service.base}/sites/${site.id}/ssr/proxy-key`, { headers: { authorization: `Bearer ${site.adminKey}` } });
    const { proxyKey } = (await key.json()) as { proxyKey: string };
    await page.getByText(`echo "${proxyKey}" | npx wrangler secret put PROXY_KEY`).waitFor();
    await checkScreen(page, "28-domains-not-configured");
    await page.close();
  });
});
