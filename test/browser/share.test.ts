// Share links in Chromium, as an owner and their client would use them: create a link
// in the editor's Share panel, open it in a second browser context with no session (the page at
// /p/ posts the token after the # and the draft is there, never indexed), see the open counted,
// revoke it, and the client opening it again gets the 404 page.
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { checkScreen, dashboardBrowser, expectAccessible, expectConsoleError, postsSite, screenshot, signIn } from "./dashboard-harness";

const { newPage, browser } = dashboardBrowser();

describe("share links in the dashboard", () => {
  it("shares a draft with someone who has no session, counts the open, and revokes it", async () => {
    const site = await postsSite("Sharing");
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "for-the-client",
      data: { title: "Draft for the client", body: "<p>Nothing here is public yet.</p>" },
    });

    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts/${item.id}`);
    await page.getByLabel("title (required)").waitFor();
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share a preview" });
    await dialog.getByText("No share links yet.").waitFor();
    expect(await dialog.getByLabel("Works for").inputValue()).toBe(String(7 * 86_400));
    await dialog.getByLabel("Works for").selectOption({ label: "1 day" });
    await dialog.getByLabel("Who it is for (optional)").fill("Client review");
    await dialog.getByRole("button", { name: "Create share link" }).click();
    const urlBox = dialog.getByLabel("Share link", { exact: true });
    await urlBox.waitFor();
    const url = await urlBox.inputValue();
    expect(url).toMatch(new RegExp(`^${service()}/p/#pv_${site.id}_[a-z2-7]{32}$`));
    await dialog.getByRole("button", { name: "Copy share link" }).click();
    await dialog.getByRole("cell", { name: "Client review", exact: true }).waitFor();
    await checkScreen(page, "73-share-created");

    // The client: another browser context, no cookies, no session, through the address bar.
    const client = await browser().newContext();
    const reader = await client.newPage();
    // Every request the browser makes for it: the token never is in one of their URLs.
    const requested: string[] = [];
    reader.on("request", (r) => void requested.push(r.url()));
    const posted = reader.waitForResponse((r) => r.url() === `${service()}/p/open`);
    await reader.goto(url);
    const opened = await posted;
    expect(opened.status()).toBe(200);
    expect(opened.request().method()).toBe("POST");
    expect(opened.headers()["cache-control"]).toBe("private, no-store");
    expect(opened.headers()["x-robots-tag"]).toBe("noindex");
    await reader.getByRole("heading", { name: "Draft for the client" }).waitFor();
    await reader.getByText("Nothing here is public yet.", { exact: true }).waitFor();
    expect(await reader.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    expect(await client.cookies()).toEqual([]);
    const token = url.slice(url.indexOf("#") + 1);
    // What went over the wire: each URL without its fragment (the browser keeps that to itself).
    const sent = requested.map((u) => {
      const x = new URL(u);
      x.hash = "";
      return x.href;
    });
    expect(sent).toContain(`${service()}/p/`);
    expect(sent.filter((u) => u.includes(token))).toEqual([]);
    await expectAccessible(reader, "74-share-opened");
    await screenshot(reader, "74-share-opened");

    // The owner sees the open, then revokes the link.
    await dialog.getByRole("button", { name: "Close sharing" }).click();
    await page.getByRole("button", { name: "Share" }).click();
    const row = dialog.getByRole("row", { name: /Client review/ });
    await row.getByRole("cell", { name: "1", exact: true }).waitFor();
    await row.getByRole("button", { name: "Revoke Client review" }).click();
    await row.getByRole("cell", { name: "Revoked" }).waitFor();

    // The client opens the link again: the one plain 404 page.
    const again = reader.waitForResponse((r) => r.url() === `${service()}/p/open`);
    expectConsoleError(`status of 404 (Not Found) (${service()}/p/open)`);
    await reader.goto(url);
    expect((await again).status()).toBe(404);
    await reader.getByRole("heading", { name: "This link does not work" }).waitFor();
    expect(await reader.locator("body").innerText()).not.toContain("Draft for the client");
    await screenshot(reader, "75-share-revoked");
    await client.close();
    await page.close();
  });

  it("asks the client for the link's password once, by a form", async () => {
    const site = await postsSite("Locked");
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "locked",
      data: { title: "Behind the password" },
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts/${item.id}`);
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share a preview" });
    await dialog.getByLabel("Password (optional)").fill("short");
    expectConsoleError(`status of 400 (Bad Request) (${service()}/sites/${site.id}/collections/posts/items/${item.id}/preview-links)`);
    await dialog.getByRole("button", { name: "Create share link" }).click();
    // The service's refusal, next to the field.
    await dialog.getByText(/at least 8|too small|>=8/i).waitFor();
    await dialog.getByLabel("Password (optional)").fill("river stones 12");
    await dialog.getByRole("button", { name: "Create share link" }).click();
    const url = await dialog.getByLabel("Share link", { exact: true }).inputValue();

    const client = await browser().newContext();
    const reader = await client.newPage();
    await reader.goto(url);
    await reader.getByRole("heading", { name: "This preview needs a password" }).waitFor();
    expect(await reader.locator("body").innerText()).not.toContain("Behind the password");
    await expectAccessible(reader, "76-share-password");
    await reader.getByLabel("Password").fill("river stones 12");
    await reader.getByRole("button", { name: "Open the preview" }).click();
    await reader.getByRole("heading", { name: "Behind the password" }).waitFor();
    // The address holds neither the token nor the password, and opening the link again does not ask again.
    expect(reader.url()).toBe(`${service()}/p/open`);
    await reader.goto(url);
    await reader.getByRole("heading", { name: "Behind the password" }).waitFor();
    await client.close();
    await page.close();
  });
});
