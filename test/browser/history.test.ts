// Item history and scheduling in Chromium, as an owner would use them: restore an older version
// from the History panel; schedule an item about two minutes ahead with the picker and watch it
// appear on the public list (a second tab, nothing touched in the dashboard).
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import type { Page } from "playwright-core";
import { checkScreen, dashboardBrowser, expectAccessible, expectConsoleError, postsSite, screenshot, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

const newBlog = () => postsSite("History");

/** What has the keyboard's focus: its accessible name as a person hears it (label, text or aria-label). */
function focused(page: Page): Promise<{ name: string; tag: string; inDialog: string | null }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return { name: "", tag: "", inDialog: null };
    const labelled = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
    const name = (el.getAttribute("aria-label") ?? labelled ?? el.textContent ?? "").trim();
    const dialog = el.closest("dialog");
    return { name, tag: el.tagName.toLowerCase(), inDialog: dialog ? (dialog.querySelector("h2")?.textContent ?? "") : null };
  });
}

/** Presses Tab (only Tab) until the control named `name` has the focus; fails when it is never reached. */
async function tabTo(page: Page, name: string | RegExp, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    if (typeof name === "string" ? f.name === name : name.test(f.name)) return;
  }
  throw new Error(`Tab never reached "${String(name)}"`);
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

  it("keeps a published item's edit as pending changes until they are published, or drops them", async () => {
    const site = await newBlog();
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "story",
      publish: true,
      data: { title: "Live title", body: "<p>What the public reads.</p>" },
    });
    const publicTitle = async () => {
      const r = await fetch(`${service()}/v1/${site.token}/collections/posts/items/story`);
      return ((await r.json()) as { item: { data: { title: string } } }).item.data.title;
    };
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts/${item.id}`);
    const title = page.getByLabel("title (required)");
    await title.fill("Pending title");
    await page.getByRole("button", { name: "Save as pending changes" }).click();
    await page.getByText("Saved as pending changes: the live version stays until you publish them.").waitFor();
    await page.getByText("Published · unpublished changes").waitFor();
    await page.getByText(/Changes saved .* · live version edited /).waitFor();
    await checkScreen(page, "76-editor-pending-changes");
    expect(await publicTitle()).toBe("Live title");

    // The items table says so too, with when the changes were saved beside the live version's time.
    await page.getByRole("link", { name: "Back to Posts" }).click();
    const row = page.getByRole("row", { name: /Live title/ });
    await row.getByText("Published · unpublished changes").waitFor();
    await row.getByText(/^changes saved /).waitFor();
    await checkScreen(page, "76-items-pending-changes");
    // The Overview's latest changes count the pending save, and say what it is.
    await page.getByRole("link", { name: "Overview" }).click();
    await page.getByRole("listitem").filter({ hasText: "Live title" }).getByText("Published · unpublished changes").waitFor();
    await page.goBack();

    // Back to the editor: it shows the pending version; publishing makes it the public one.
    await page.goBack();
    await title.waitFor();
    expect(await title.inputValue()).toBe("Pending title");
    await page.getByRole("button", { name: "Save and publish changes" }).click();
    await page.getByText("Saved and published.").waitFor();
    await expect.poll(publicTitle).toBe("Pending title");
    expect(await page.getByText("Published · unpublished changes").count()).toBe(0);

    // Another pending edit, discarded: the editor is back on the live version, the public item unchanged.
    await title.fill("Discarded title");
    await page.getByRole("button", { name: "Save as pending changes" }).click();
    await page.getByText("Saved as pending changes: the live version stays until you publish them.").waitFor();
    await page.getByRole("button", { name: "Discard pending changes" }).click();
    await page
      .getByRole("dialog", { name: "Discard the pending changes?" })
      .getByRole("button", { name: "Discard pending changes" })
      .click();
    await page.getByText("Pending changes discarded: the editor shows the live version.").waitFor();
    expect(await title.inputValue()).toBe("Pending title");
    await page.getByText(/ · Last edited /).waitFor();
    expect(await publicTitle()).toBe("Pending title");
    await page.close();
  });

  it("refuses a save from a second window that still shows an older version, and says to reload", async () => {
    const site = await newBlog();
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "story",
      data: { title: "Opened in two tabs" },
    });
    const first = await newPage();
    await signIn(first, site.adminKey);
    const editor = `${service()}/dashboard/#/${site.id}/items/posts/${item.id}`;
    await first.goto(editor);
    // A second window (signed in on its own, as a colleague or another browser is), on the same item.
    const second = await newPage();
    await signIn(second, site.adminKey);
    await second.goto(editor);
    await second.getByLabel("title (required)").waitFor();

    await first.getByLabel("title (required)").fill("Saved in the first tab");
    await first.getByRole("button", { name: "Save", exact: true }).click();
    await first.getByText("Saved.", { exact: true }).waitFor();

    await second.getByLabel("title (required)").fill("Saved in the second tab");
    expectConsoleError(`status of 412 (Precondition Failed) (${service()}/sites/${site.id}/collections/posts/items/${item.id})`);
    await second.getByRole("button", { name: "Save", exact: true }).click();
    await second.getByText(/This item changed since you opened it .* Reload it to see the change/).waitFor();
    await checkScreen(second, "77-item-changed-elsewhere");
    const stored = await api<{ item: { data: { title: string } } }>(
      "GET",
      `/sites/${site.id}/collections/posts/items/${item.id}`,
      site.adminKey,
    );
    expect(stored.item.data.title).toBe("Saved in the first tab");

    // Reloaded, the second window shows the first one's version and saves over it knowingly.
    await second.reload();
    const title = second.getByLabel("title (required)");
    await expect.poll(() => title.inputValue()).toBe("Saved in the first tab");
    await title.fill("Saved in the second tab");
    await second.getByRole("button", { name: "Save", exact: true }).click();
    await second.getByText("Saved.", { exact: true }).waitFor();
    await second.close();
    await first.close();
  });

  it("deletes an item and brings it back with Undo delete; the notice of the delete goes with it", async () => {
    const site = await newBlog();
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "gone-for-now",
      data: { title: "Gone for now" },
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts/${item.id}`);
    await page.getByLabel("title (required)").waitFor();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("dialog", { name: "Delete this item?" }).getByRole("button", { name: "Delete item" }).click();
    const deleted = page.getByText("Deleted “Gone for now”. Undo delete under “Recently deleted”.");
    await deleted.waitFor();
    // "Recently deleted" names it as the delete did, by its title, with the slug it comes back under.
    await page.getByText("“Gone for now” (gone-for-now, draft), deleted").waitFor();
    await page.getByRole("button", { name: "Undo delete of Gone for now" }).click();
    await page.getByText("“Gone for now” is back.").waitFor();
    // The item is in the table again, and nothing on the screen still says it was deleted.
    await page.getByRole("link", { name: "Gone for now" }).waitFor();
    expect(await deleted.count()).toBe(0);
    await screenshot(page, "72-history-undo-delete");
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
      // First a time that has passed: the picker itself says what is wrong and what to do (the service's 400).
      expectConsoleError(`status of 400 (Bad Request) (${service()}/sites/${site.id}/collections/posts/items/${item.id}/schedule)`);
      const past = await page.evaluate(() => {
        const d = new Date(Date.now() - 3_600_000);
        const p = (n: number) => String(n).padStart(2, "0");
        return { date: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`, time: `${p(d.getHours())}:${p(d.getMinutes())}` };
      });
      await publishOn.getByLabel("Date").fill(past.date);
      await publishOn.getByLabel("Time").fill(past.time);
      await page.getByRole("button", { name: "Save schedule" }).click();
      await publishOn.getByText("This time is in the past; pick a time in the future.").waitFor();
      expect(await publishOn.getByLabel("Time").getAttribute("aria-invalid")).toBe("true");
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
      // A JSON answer opened in the address bar: the browser asks the API's host for an icon it has not.
      expectConsoleError(`status of 404 (Not Found) (${service()}/favicon.ico)`);
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

  it("works with the keyboard alone: History (open, compare, restore) and the schedule picker", { timeout: 120_000 }, async () => {
    const site = await newBlog();
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "keys",
      data: { title: "Typed first", body: "<p>Alpha beta gamma.</p>" },
    });
    await api("PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, site.adminKey, {
      data: { title: "Typed second", body: "<p>Alpha delta gamma.</p>" },
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts/${item.id}`);
    await page.getByLabel("title (required)").waitFor();
    await page.getByRole("heading", { name: "Schedule" }).waitFor();

    // History: reached and opened with Tab and Enter; the focus moves into the dialog.
    await tabTo(page, "History");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "History" });
    await dialog.getByRole("button", { name: "Version 1: Created" }).waitFor();
    expect((await focused(page)).inDialog).toBe("History");
    await tabTo(page, "Version 1: Created", 10);
    await page.keyboard.press("Enter");
    await dialog.getByRole("heading", { name: "Version 1 compared with the current version" }).waitFor();
    expect((await dialog.locator("del").allInnerTexts()).join(" ")).toContain("beta");
    await expectAccessible(page, "77-history-keyboard");
    // Tab stays in the modal dialog: every stop on the way to Restore is inside it.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press("Tab");
      const f = await focused(page);
      expect(f.inDialog, `focus left the dialog at "${f.name}"`).toBe("History");
      if (f.name === "Restore this version") break;
    }
    expect((await focused(page)).name).toBe("Restore this version");
    await page.keyboard.press("Enter");
    await tabTo(page, "Restore version 1", 10);
    await page.keyboard.press("Enter");
    await page.getByText("Restored: this version is the current draft.").waitFor();
    expect(await page.getByLabel("title (required)").inputValue()).toBe("Typed first");

    // Escape closes the dialog and the focus goes back to the History button.
    await page.getByRole("button", { name: "History" }).focus();
    await page.keyboard.press("Enter");
    await dialog.getByRole("button", { name: "Version 3: Restored" }).waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(async () => (await focused(page)).name).toBe("History");

    // The schedule picker: date and time typed into the fields, the zone kept, saved with Enter.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const due = Math.ceil((Date.now() + 2 * 86_400_000) / 60_000) * 60_000;
    const parts = await page.evaluate((ms) => {
      const d = new Date(ms);
      const p = (n: number) => String(n).padStart(2, "0");
      const h12 = d.getHours() % 12 || 12;
      return {
        keysDate: `${p(d.getMonth() + 1)}${p(d.getDate())}${d.getFullYear()}`,
        keysTime: `${p(h12)}${p(d.getMinutes())}${d.getHours() < 12 ? "A" : "P"}`,
        date: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`,
        time: `${p(d.getHours())}:${p(d.getMinutes())}`,
      };
    }, due);
    await tabTo(page, "Time zone");
    await tabTo(page, "Date", 5);
    await page.keyboard.type(parts.keysDate);
    await tabTo(page, "Time", 5);
    await page.keyboard.type(parts.keysTime);
    const publishOn = page.getByRole("group", { name: "Publish on", exact: true });
    expect(await publishOn.getByLabel("Date").inputValue()).toBe(parts.date);
    expect(await publishOn.getByLabel("Time").inputValue()).toBe(parts.time);
    await tabTo(page, "Save schedule", 20);
    await page.keyboard.press("Enter");
    await page.getByText(/^Goes live (Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/).waitFor();
    const { item: after } = await api<{ item: { schedule: { publishAt: string; timeZone: string } | null } }>(
      "GET",
      `/sites/${site.id}/collections/posts/items/${item.id}`,
      site.adminKey,
    );
    expect(after.schedule).toMatchObject({ publishAt: new Date(due).toISOString(), timeZone: zone });
    await checkScreen(page, "78-schedule-keyboard");
    await page.close();
  });
});
