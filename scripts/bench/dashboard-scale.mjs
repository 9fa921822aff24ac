// `BENCH_ONLY=dashboard-scale npm run bench`: the dashboard's items table on a site of
// BENCH_SCALE_ITEMS (default 100,000) posts, in Chromium (Debian's, through playwright-core), on
// the built Worker on plain workerd with the dashboard's static files. Each row is one thing a
// person does, timed from the action to the table showing its answer (p50 and max of
// BENCH_SAMPLES, default 5). Goal: each within 300 ms. BENCH_PLAN (default pro): on Pro the
// seeded posts are being embedded for semantic search all through the run (about an hour for
// 100,000 locally), and every action shares the two cores and the site object with that;
// `starter` times the table on a quiet site.
import { chromium } from "playwright-core";
import { percentile, seededPostsSite } from "../lib.mjs";
import { buildWorker, startWorkerd } from "../workerd-host.mjs";

const ITEMS = Number(process.env.BENCH_SCALE_ITEMS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);
const operator = "bench-operator";
const BODY = `<p>${"Notes on kneading, proving and baking at home. ".repeat(40)}</p>`;

const host = await startWorkerd({ scriptPath: buildWorker(".bench/build"), adminToken: operator, dashboard: true });
const base = host.base;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const rows = [];
try {
  const { site, seedPerSecond } = await seededPostsSite(base, operator, {
    name: "Archive",
    plan: process.env.BENCH_PLAN ?? "pro",
    fields: [
      { key: "title", name: "Title", type: "text", indexed: true, required: true },
      { key: "n", name: "Number", type: "number", indexed: true },
      { key: "body", name: "Body", type: "richText" },
    ],
    count: ITEMS,
    item: (i) => ({
      slug: `post-${i}`,
      publish: i % 10 !== 3,
      data: { title: `Post ${i}: ${i % 100 === 7 ? "lantern festival" : "bread"} notes`, n: i, body: BODY },
    }),
  });

  const page = await browser.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${base}/dashboard/`);
  await page.getByLabel("Admin key").fill(site.adminKey);
  await page.getByRole("button", { name: "Sign in with admin key" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  const table = page.locator(".table-wrap table");
  const firstRow = () => table.locator("tbody tr").first().innerText();

  /** Times `act` until the table's first row differs from what it showed before (or matches `shows`). */
  async function timed(what, act, shows, fresh = false) {
    const walls = [];
    for (let i = 0; i < SAMPLES; i++) {
      const before = fresh ? "" : await firstRow();
      const t = performance.now();
      await act(i);
      await page.waitForFunction(
        ([prev, want]) => {
          const row = document.querySelector(".table-wrap table tbody tr");
          const text = row?.textContent ?? "";
          return text !== "" && text !== prev && (want === null || text.includes(want));
        },
        [before, shows ?? null],
        { timeout: 10_000, polling: "raf" },
      );
      walls.push(performance.now() - t);
    }
    walls.sort((a, b) => a - b);
    rows.push({ action: what, "p50 ms": Math.round(percentile(walls, 50)), "max ms": Math.round(walls.at(-1)) });
  }

  await page.goto(`${base}/dashboard/#/${site.id}/items/posts`);
  await table.locator("tbody tr").first().waitFor();
  await timed("open the items table (reload)", () => page.reload(), null, true);
  await timed("next page", () => page.getByRole("button", { name: "Next page" }).click(), null);
  await timed("sort by title, then back to newest", (i) => page.getByLabel("Sort by").selectOption(i % 2 ? "" : "title"), null);
  await timed(
    "search a word in 1 % of titles",
    async (i) => {
      await page.getByLabel("Search items").fill(i % 2 ? "festival" : "lantern");
      await page.getByLabel("Search items").press("Enter");
    },
    "lantern",
  );
  await page.getByLabel("Search items").fill("");
  await page.getByLabel("Search items").press("Enter");
  await timed("show drafts, then published", (i) => page.getByLabel("Show").selectOption(i % 2 ? "published" : "draft"), null);

  /** Times `act` until the screen says `text` (a selection's count, a publish's result). */
  async function untilText(what, act, text) {
    const walls = [];
    for (let i = 0; i < SAMPLES; i++) {
      await act.before?.();
      const t = performance.now();
      await act.run();
      // Checked on every frame: a locator's waitFor polls at growing intervals (100 ms and
      // then 500 ms apart), which would round the time up to its next poll.
      await page.waitForFunction((want) => document.body.innerText.includes(want), text, { polling: "raf", timeout: 30_000 });
      walls.push(performance.now() - t);
      await act.after?.();
    }
    walls.sort((a, b) => a - b);
    rows.push({ action: what, "p50 ms": Math.round(percentile(walls, 50)), "max ms": Math.round(walls.at(-1)) });
  }
  // A tenth of the posts are drafts: select the first 1,000 of them, then publish those.
  await page.getByLabel("Show").selectOption("draft");
  await table.locator("tbody tr").first().waitFor();
  const pageBox = page.getByRole("checkbox", { name: "Select every item on this page" });
  await untilText(
    "select the first 1,000 drafts of the list",
    {
      before: () => pageBox.check(),
      run: () => page.getByRole("button", { name: /^Select the first 1,000 of/ }).click(),
      after: () => page.getByRole("button", { name: "Clear selection" }).click(),
    },
    "1,000 selected.",
  );
  await untilText(
    "publish 1,000 selected drafts",
    {
      before: async () => {
        await pageBox.check();
        await page.getByRole("button", { name: /^Select the first 1,000 of/ }).click();
        await page.getByText("1,000 selected.", { exact: true }).waitFor();
      },
      run: () => page.getByRole("button", { name: "Publish selected (1,000)" }).click(),
      // The result stays on the screen until a reload.
      after: async () => {
        await page.reload();
        await table.locator("tbody tr").first().waitFor();
      },
    },
    "1,000 items published.",
  );
  console.log(
    `\nThe dashboard's items table in Chromium on plain workerd, ${process.env.BENCH_PLAN ?? "pro"}, ${ITEMS.toLocaleString("en")} items (seeded at ${Math.round(seedPerSecond)} items/s), ${SAMPLES} per row; console errors: ${errors.length}`,
  );
  console.table(rows);
} finally {
  await browser.close();
  await host.dispose();
}
