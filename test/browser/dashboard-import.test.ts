import { describe, expect, it } from "vitest";
import { checkScreen, dashboardBrowser, signIn } from "./dashboard-harness";
import { blogSite, service } from "./harness";

const { newPage } = dashboardBrowser();

const ROWS = 4000;

/** A Webflow-shaped CMS export of our own making: its system columns, quoted cells, `;` references, one unknown column. */
function webflowCsv(): string {
  const head =
    "Name,Slug,Collection ID,Locale ID,Item ID,Archived,Draft,Created On,Updated On,Published On,Summary,Author,Coauthors,Views,Mood";
  const date = "Tue Aug 12 2025 07:53:00 GMT+0000 (Coordinated Universal Time)";
  const lines = [head];
  for (let i = 0; i < ROWS; i++) {
    const author = i === 7 ? "nobody" : i % 2 ? "ada" : "grace";
    lines.push(
      `"Post ${i}, ""quoted""",post-${i},6650a1b2c3d4e5f601234567,,item${i},false,${i % 10 === 0},${date},${date},${i % 10 === 0 ? "" : date},"Summary ${i}\nsecond line",${author},ada; grace,${i},calm`,
    );
  }
  return `\ufeff${lines.join("\r\n")}\r\n`;
}

describe("Import on a collection, in Chromium", () => {
  it("uploads a Webflow CSV, maps its columns, reads the dry run, watches the progress across a reload and reads the report", async () => {
    const site = await blogSite();
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts`);
    await page.getByRole("link", { name: "Import", exact: true }).click();
    await page.getByRole("heading", { name: "Import into Posts", level: 1 }).waitFor();

    // The keyboard reaches the file field and the upload button.
    const names: string[] = [];
    for (let i = 0; i < 40 && !names.includes("Upload and map columns"); i++) {
      await page.keyboard.press("Tab");
      names.push(
        await page.evaluate(
          () => (document.activeElement as HTMLElement | null)?.innerText || document.activeElement?.getAttribute("id") || "",
        ),
      );
    }
    expect(names).toContain("Upload and map columns");
    await page
      .getByLabel("File to import (CSV or JSON)")
      .setInputFiles({ name: "Blog Posts.csv", mimeType: "text/csv", buffer: Buffer.from(webflowCsv()) });
    await checkScreen(page, "70-import-file");
    await page.getByRole("button", { name: "Upload and map columns" }).click();
    await page.getByRole("heading", { name: "Import Blog Posts.csv", level: 1 }).waitFor({ timeout: 30_000 });

    // The proposed mapping: Webflow's columns understood, the unknown one ignored until chosen.
    expect(await page.getByLabel("Use column Slug as").inputValue()).toBe("slug");
    expect(await page.getByLabel("Use column Published On as").inputValue()).toBe("publishedOn");
    expect(await page.getByLabel("Use column Author as").inputValue()).toBe("field:author");
    expect(await page.getByLabel("Use column Mood as").inputValue()).toBe("ignore");
    await page.getByLabel("Use column Mood as").selectOption("new");
    expect(await page.getByLabel("New field key for Mood").inputValue()).toBe("mood");
    await page.getByLabel("New field type for Mood").selectOption("text");
    await checkScreen(page, "71-import-mapping");
    await page.getByRole("button", { name: "Run the dry run" }).click();

    const forecast = page.getByText("Nothing has been written yet.");
    await forecast.waitFor({ timeout: 60_000 });
    expect(await forecast.innerText()).toContain(`create ${ROWS - 1}`);
    const problems = page.getByRole("table", { name: "Rows with problems" });
    expect(await problems.getByRole("row", { name: /post-7 Author nobody/ }).innerText()).toContain(
      'no item "nobody" in collection "authors"',
    );
    await checkScreen(page, "72-import-dry-run");
    // Nothing was written by the dry run.
    const before = await page.evaluate(
      async (id) => (await (await fetch(`/sites/${id}/collections/posts/items`)).json()) as { total: number },
      site.id,
    );
    expect(before.total).toBe(0);

    await page.getByRole("button", { name: `Import ${(ROWS - 1).toLocaleString("en-US")} rows` }).click();
    const progress = page.getByRole("progressbar", { name: /rows$/ });
    await progress.waitFor({ timeout: 30_000 });
    await checkScreen(page, "73-import-progress");
    // A reload shows the same import where it is.
    await page.reload();
    await page.getByRole("heading", { name: "Import Blog Posts.csv", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Import finished", level: 2 }).waitFor({ timeout: 180_000 });
    const summary = await page.getByText(/created, .* updated, .* skipped, .* failed/).innerText();
    expect(summary).toContain(`${ROWS - 1} created`);
    expect(summary).toContain("1 failed");
    await page
      .getByRole("table", { name: "Rows not imported, and why" })
      .getByRole("row", { name: /post-7/ })
      .waitFor();
    await checkScreen(page, "74-import-report");

    // The report downloads as CSV (read with the page's session).
    const href = await page.getByRole("link", { name: "Download the report (CSV)" }).getAttribute("href");
    const report = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(report.split("\r\n")[0]).toContain("row,line,slug,outcome,column,value,reason");
    expect(report).toContain(`post-7,failed,Author,nobody,"no item ""nobody"" in collection ""authors"""`);
    // The imported items are there, with the new field.
    const item = await page.evaluate(
      async (token) =>
        (await (await fetch(`/v1/${token}/collections/posts/items/post-1`)).json()) as { item: { data: Record<string, unknown> } },
      site.token,
    );
    expect(item.item.data).toMatchObject({ title: 'Post 1, "quoted"', summary: "Summary 1\nsecond line", views: 1, mood: "calm" });
  }, 300_000);
});
