// Issue 27 in Chromium, as an owner would use it: restore an older version from the History
// panel; schedule an item about two minutes ahead with the picker and watch it appear on the
// public list (a second tab, nothing touched in the dashboard).
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { checkScreen, dashboardBrowser, OPERATOR, screenshot, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

async function newBlog(): Promise<{ id: string; adminKey: string; token: string }> {
  const { site } = await api<{ site: { id: string; adminKey: string; token: string } }>("POST", "/sites", OPERATOR, {
    name: "History",
    plan: "pro",
  });
  await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
    name: "Posts",
    fields: [
      { key: "title", type: "text", required: true },
      { key: "body", type: "richText" },
    ],
  });
  return site;
}

describe("history and scheduling in the dashboard", () => {
  it("restores an older version from the History panel, and the editor shows it", async () => {
    const site = await newBlog();
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "story",
      data: { title: "First title", body: "<p>The quick brown fox jumps over the lazy dog.</p>" },
    });
    for (const [title, body] of [
      ["Second title", "<p>The quick red fox leaps over the lazy dog.</p>"],
      ["Third title", "<p>The quick red fox leaps over the lazy dog today.</p><p>A new paragraph.</p>"],
    ]) {
      await api("PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, site.adminKey, { data: { title, body } });
    }
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts/${item.id}`);
    await page.getByLabel("title (required)").waitFor();
    expect(await page.getByLabel("title (required)").inputValue()).toBe("Third title");

    await page.getByRole("button", { name: "History" }).click();
    const dialog = page.getByRole("dialog", { name: "History" });
    await dialog.getByRole("button", { name: "Version 1: Created" }).click();
    await dialog.getByRole("heading", { name: "Version 1 compared with the current version" }).waitFor();
    // Rich text is compared by words: what version 1 had and lost, and what is new since.
    const removed = await dialog.locator("del").allInnerTexts();
    const added = await dialog.locator("ins").allInnerTexts();
    expect(removed.join(" ")).toContain("brown");
    expect(added.join(" ")).toContain("red");
    expect(added.join(" ")).toContain("A new paragraph.");
    expect(await dialog.innerText()).not.toContain("<p>");
    await checkScreen(page, "70-history-compare");

    await dialog.getByRole("button", { name: "Restore this version" }).click();
    await dialog.getByText("Version 1 becomes the current draft. Publish it when ready.").waitFor();
    await dialog.getByRole("button", { name: "Restore version 1" }).click();
    await page.getByText("Restored: this version is the current draft.").waitFor();
    expect(await page.getByLabel("title (required)").inputValue()).toBe("First title");
    await page.getByText("The quick brown fox jumps over the lazy dog.").waitFor();
    expect(await page.getByText("A new paragraph.").count()).toBe(0);
    await screenshot(page, "71-history-restored");

    // Reloaded through the address bar: still version 1, and the history names the restore.
    await page.reload();
    await page.getByLabel("title (required)").waitFor();
    expect(await page.getByLabel("title (required)").inputValue()).toBe("First title");
    await page.getByRole("button", { name: "History" }).click();
    await page.getByRole("dialog", { name: "History" }).getByRole("button", { name: "Version 4: Restored" }).waitFor();
    await page.keyboard.press("Escape");
    await page.close();
  });

  it(
    "schedules an item about two minutes ahead with the picker; the public list shows it then, untouched",
    { timeout: 300_000 },
    async () => {
      const site = await newBlog();
      const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
        slug: "on-time",
        data: { title: "Goes live by itself" },
      });
      const page = await newPage();
      await signIn(page, site.adminKey);
      await page.goto(`${service()}/dashboard/#/${site.id}/items/posts/${item.id}`);
      await page.getByRole("heading", { name: "Schedule" }).waitFor();
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      // The picker works in minutes: the next whole minute at least 90 s away, in the browser's zone.
      const due = Math.ceil((Date.now() + 90_000) / 60_000) * 60_000;
      const local = await page.evaluate((ms) => {
        const d = new Date(ms);
        const p = (n: number) => String(n).padStart(2, "0");
        return { date: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`, time: `${p(d.getHours())}:${p(d.getMinutes())}` };
      }, due);
      expect(await page.getByLabel("Time zone").inputValue()).toBe(zone);
      const publishOn = page.getByRole("group", { name: "Publish on", exact: true });
      await publishOn.getByLabel("Date").fill(local.date);
      await publishOn.getByLabel("Time").fill(local.time);
      await page.getByRole("button", { name: "Save schedule" }).click();
      const goesLive = page.getByText(/^Goes live (Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/);
      await goesLive.waitFor();
      // The time names its zone (the browser's).
      expect(await goesLive.innerText()).toContain(zone === "UTC" || zone === "Etc/UTC" ? "(UTC)" : zone);
      await checkScreen(page, "72-schedule-set");

      // A second tab: the public list, through the address bar, reloaded until the item is there.
      const reader = await newPage();
      const url = `${service()}/v1/${site.token}/collections/posts/items`;
      await reader.goto(url);
      expect(await reader.locator("body").innerText()).not.toContain("on-time");
      let seenAt = 0;
      for (let i = 0; i < 240 && !seenAt; i++) {
        await reader.waitForTimeout(1000);
        await reader.reload();
        if ((await reader.locator("body").innerText()).includes("on-time")) seenAt = Date.now();
      }
      expect(seenAt, "the item appeared on the public list").toBeGreaterThan(0);
      expect(seenAt).toBeGreaterThanOrEqual(due);
      const { item: after } = await api<{ item: { status: string; publishedAt: string } }>(
        "GET",
        `/sites/${site.id}/collections/posts/items/${item.id}`,
        site.adminKey,
      );
      expect(after).toMatchObject({ status: "published", publishedAt: new Date(due).toISOString() });
      await reader.close();
      await page.close();
    },
  );
});
