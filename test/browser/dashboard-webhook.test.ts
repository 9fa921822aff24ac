import { describe, expect, it } from "vitest";
import { checkScreen, dashboardBrowser, OPERATOR, signIn } from "./dashboard-harness";
import { api, putPage, service, type Site } from "./harness";

const { newPage } = dashboardBrowser();

const blogPage = (token: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Notes</title></head>
<body><h1>Notes</h1>
<div data-oc-list="posts"><article><a data-oc-link><h2 data-oc-field="title">Title</h2></a></article></div>
<script src="${service()}/embed.js" data-oc-token="${token}" defer></script></body></html>`;

describe("the publish webhook on the SEO Engine screen, in Chromium", () => {
  it("shows the URL without a secret and the signing secret, and rotates the secret after a confirmation", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Hooks", plan: "seo_engine" });
    await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
      name: "Posts",
      fields: [{ key: "title", type: "text", indexed: true, required: true }],
    });
    const pageUrl = await putPage(`/hooks-${site.id}/`, blogPage(site.token));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl, collection: "posts" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "SEO Engine" }).click();
    await page.getByRole("heading", { name: "Site Publish webhook" }).waitFor();
    const url = page.getByText(`${service()}/hooks/ssr/${site.id}`, { exact: true });
    expect(await url.isVisible()).toBe(true);
    const secret = page.locator("code", { hasText: /^whsec_/ });
    const before = (await secret.innerText()).trim();
    expect(before).toMatch(/^whsec_/);

    await page.getByRole("button", { name: "Rotate webhook secret" }).click();
    await page.getByRole("dialog").getByText("stop working at once").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
    await page.getByText("New secret made").waitFor();
    const after = (await secret.innerText()).trim();
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    // The screen shows what the service now holds.
    const view = await api<{ capture: { webhookSecret: string } }>("GET", `/sites/${site.id}/ssr/capture`, site.adminKey);
    expect(view.capture.webhookSecret).toBe(after);
    await checkScreen(page, "31-seo-webhook-rotated");
    await page.close();
  });
});
