import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkerd } from "../../scripts/workerd-host.mjs";
import { checkScreen, dashboardBrowser } from "./dashboard-harness";

const OPERATOR = "unconfigured-operator";
const { newPage } = dashboardBrowser();
// A deployment without a custom-hostname provider, where plans are sold rather than self-served
// ([env.production.vars]): the Worker the global setup built, on a workerd of its own.
let service: { base: string; dispose: () => Promise<void> };
beforeAll(async () => {
  service = await startWorkerd({
    scriptPath: ".wrangler/browser-test-build/index.js",
    adminToken: OPERATOR,
    vars: { CUSTOM_HOSTNAMES: "off", SELF_SERVE_PLANS: "off", PLANS_CONTACT: "mailto:sales@example.com", PLAN_PRICES: '{"pro":29}' },
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

describe("plans on a deployment that sells them", () => {
  it("links the plan notices and the Plan screen to the operator's contact, naming the site and plan", async () => {
    const res = await fetch(`${service.base}/sites`, {
      method: "POST",
      headers: { authorization: `Bearer ${OPERATOR}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Sold plans", plan: "starter" }),
    });
    const { site } = (await res.json()) as { site: { id: string; adminKey: string; workspaceId: string } };
    const page = await newPage();
    await page.goto(`${service.base}/dashboard/#/${site.id}/search`);
    await page.getByLabel("Admin key").fill(site.adminKey);
    await page.getByRole("button", { name: "Sign in with admin key" }).click();
    await page.getByText("included in the Pro plan").waitFor();
    const ask = page.getByRole("link", { name: "Ask for the Pro plan" });
    const mail = new URL((await ask.getAttribute("href"))!);
    expect(mail.protocol).toBe("mailto:");
    expect(mail.pathname).toBe("sales@example.com");
    // An admin key cannot read the workspace: the mail names it by its site and its id.
    expect(mail.searchParams.get("subject")).toBe('Plan change for the workspace of the site "Sold plans"');
    expect(mail.searchParams.get("body")).toBe(
      `Please move the workspace of the site "Sold plans" (${site.workspaceId}, site "Sold plans") from the Starter plan to the Pro plan.`,
    );
    await checkScreen(page, "44-plan-gate-contact");
    await page.getByRole("link", { name: "See what each plan costs and includes" }).click();
    await page.getByRole("heading", { level: 1, name: "Plan" }).waitFor();
    await page.getByText("Plans are changed by the team that runs this service: ask them for the one you want.").waitFor();
    // Only the prices the operator set; no switch.
    await page.getByText("$29 a month").waitFor();
    expect(await page.getByText("No price listed").count()).toBe(3);
    expect(await page.getByRole("button", { name: /^(Upgrade|Move down) to/ }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Ask for the SEO Engine plan" }).count()).toBe(1);
    await checkScreen(page, "45-plan-contact");
    await page.close();
  });
});
