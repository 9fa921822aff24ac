/**
 * The dashboard asks "is there one?" of things a site may not have (a session, a captured page, a
 * custom hostname). A "no" is an answer, not a failure: Chromium's console stays free of errors,
 * including the failed resource loads it logs for every 4xx.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { OPERATOR, dashboardBrowser, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

/** Every console error and uncaught exception of the page, with the address it names. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
  return errors;
}

describe("the dashboard's console", () => {
  it("has no error on a signed-out load", async () => {
    const page = await newPage();
    const errors = consoleErrors(page);
    await page.goto(`${service()}/dashboard/`);
    await page.getByLabel("Admin key").waitFor();
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
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
    const errors = consoleErrors(page);
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
    expect(errors).toEqual([]);
    await page.close();
  });
});
