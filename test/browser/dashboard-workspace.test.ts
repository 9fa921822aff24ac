/**
 * The Workspace screen in Chromium, as the operator reaches it from a site: an API key made and
 * shown once, an invitation link, a role's refusal kept by the API, and the Activity list with its
 * filter and CSV download. (Account sign-in screens are the accounts work's; the same screen serves
 * a member's session.)
 */
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { checkScreen, dashboardBrowser, OPERATOR, signIn } from "./dashboard-harness";

const chrome = dashboardBrowser();

describe("the Workspace screen", () => {
  it("makes a key shown once, an invitation link, and shows who did what (with CSV)", async () => {
    const { workspace } = await api<{ workspace: { id: string } }>("POST", "/workspaces", OPERATOR, { name: "Studio", plan: "pro" });
    const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, {
      name: "Blog",
      workspaceId: workspace.id,
    });
    await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, { fields: [{ key: "title", type: "text" }] });
    await api("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, { slug: "hello", data: { title: "Hello" } });

    const page = await chrome.newPage();
    await signIn(page, OPERATOR);
    await page.goto(`${service()}/dashboard/#/${site.id}/overview`);
    await page.getByRole("link", { name: "Workspace" }).click();
    await page.getByRole("heading", { name: "Workspace: Studio" }).waitFor();

    // An API key, shown once, that then works on the site and is listed without its secret.
    await page.getByLabel("Key name", { exact: true }).fill("deploy script");
    await page.getByLabel("Scope", { exact: true }).selectOption("full");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator("code", { hasText: /^ak_/ }).textContent())!;
    expect(key).toMatch(/^ak_[a-z2-7]{16}_[a-z2-7]{40}$/);
    const byKey = await fetch(`${service()}/sites/${site.id}/collections/posts/items`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ slug: "by-key", data: { title: "From the script" } }),
    });
    expect(byKey.status).toBe(201);
    await page.reload();
    await page.getByRole("button", { name: "Revoke deploy script" }).waitFor();
    expect(await page.locator("code", { hasText: /^ak_/ }).count()).toBe(0);

    // An invitation by shared link.
    await page.getByLabel("Role", { exact: true }).selectOption("contributor");
    await page.getByRole("button", { name: "Invite" }).click();
    const link = (await page.locator("code", { hasText: "#/invite/iv_" }).textContent())!;
    expect(link).toContain(`${service()}/dashboard/#/invite/iv_`);
    await page.getByRole("button", { name: "Withdraw the invitation to the shared link" }).waitFor();
    await checkScreen(page, "30-workspace");

    // Activity: who did what, filtered by person; the CSV has its header row.
    await page.getByRole("cell", { name: "deploy script" }).first().waitFor();
    await page.getByLabel("Person (name, email or key name)").fill("deploy script");
    await page.getByLabel("Person (name, email or key name)").press("Tab");
    await expect.poll(async () => (await page.getByRole("cell", { name: "site admin key" }).count()) === 0).toBe(true);
    expect(await page.getByRole("cell", { name: "created a draft", exact: true }).count()).toBe(1);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const file = await download;
    const path = await file.path();
    const { readFileSync } = await import("node:fs");
    const csv = readFileSync(path, "utf8");
    expect(csv.split("\r\n")[0]).toBe("time,actor,actor type,operation,kind,target,site,ip,country,actor name");
    expect(csv).toContain("deploy script");
    await checkScreen(page, "31-activity");
    await page.close();
  });
});
