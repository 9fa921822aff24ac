/**
 * The dashboard asks "is there one?" of things a site may not have (a session, a captured page, a
 * custom hostname). A "no" is an answer, not a failure: Chromium's console stays free of errors,
 * including the failed resource loads it logs for every 4xx. The harness fails a test on any
 * error in the console (dashboardBrowser), so these only walk through those screens.
 */
import { describe, it } from "vitest";
import { api, service } from "./harness";
import { OPERATOR, dashboardBrowser, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

describe("the dashboard's console", () => {
  it("has no error on a signed-out load", async () => {
    const page = await newPage();
    await page.goto(`${service()}/dashboard/`);
    await page.getByLabel("Admin key").waitFor();
    await page.waitForLoadState("networkidle");
    await page.close();
  });

  it("has no error opening a site without a custom hostname or a captured page", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, {
      name: "Bare",
      plan: "seo_engine",
    });
    await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
      name: "Posts",
      fields: [{ key: "title", type: "text", required: true }],
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("heading", { level: 1, name: "Bare" }).waitFor();
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "SEO Engine" }).click();
    await page.getByRole("heading", { level: 1, name: "SEO Engine" }).waitFor();
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "Domains" }).click();
    await page.getByRole("heading", { name: "Connect a custom domain" }).waitFor();
    await page.waitForLoadState("networkidle");
    // Deleting a collection first asks whether the capture renders it.
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/posts`);
    await page.getByRole("button", { name: "Delete collection" }).click();
    await page.getByRole("dialog").waitFor();
    await page.waitForLoadState("networkidle");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await page.close();
  });
});
