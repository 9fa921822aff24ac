// A job board from the dashboard alone: title, company, location, a salary range, an employment
// type, remote or not and a closing date; its pages on a plain static host without rewrites.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { api, pageServer, putPage, service } from "./harness";
import { checkScreen, dashboardBrowser, OPERATOR, SCREENSHOTS, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

const FIELDS: [label: string, type: string, extra?: (page: Page, n: number) => Promise<void>][] = [
  ["Company", "Plain text"],
  ["Location", "Plain text"],
  ["Salary from", "Decimal / price", (p, n) => p.getByLabel(`Field ${n} currency`).fill("EUR")],
  ["Salary to", "Decimal / price", (p, n) => p.getByLabel(`Field ${n} currency`).fill("EUR")],
  ["Employment type", "Option (one of a list)", (p, n) => p.getByLabel(`Field ${n} options`).fill("Full-time\nPart-time\nContract")],
  ["Remote", "Switch (yes/no)"],
  ["Closes", "Date / date and time"],
];

async function newJob(page: Page, siteId: string, job: Record<string, string | boolean>) {
  await page.goto(`${service()}/dashboard/#/${siteId}/items/jobs/new`);
  await page.getByLabel("Title (required)").fill(String(job["title"]));
  await page.getByLabel("Company").fill(String(job["company"]));
  await page.getByLabel("Location").fill(String(job["location"]));
  await page.getByLabel("Salary from").fill(String(job["from"]));
  await page.getByLabel("Salary to").fill(String(job["to"]));
  await page.getByLabel("Employment type").selectOption({ label: String(job["type"]) });
  if (job["remote"]) await page.getByLabel("Remote").check();
  await page.getByLabel("Closes", { exact: true }).fill(String(job["closes"]));
  await page.getByRole("button", { name: "Save and publish" }).click();
  await page.getByText("Published", { exact: true }).first().waitFor();
}

describe("dashboard: a job board", () => {
  it("is made from the screens and shows as a job board on a host without rewrites", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, {
      name: "Jobs at Acme",
      plan: "starter",
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/new`);
    await page.getByLabel("Collection name").fill("Jobs");
    for (const [i, [label, type, extra]] of FIELDS.entries()) {
      const n = i + 2;
      await page.getByRole("button", { name: "Add a field" }).click();
      await page.getByLabel(`Field ${n} label`).fill(label);
      await page.getByLabel(`Field ${n} type`).selectOption({ label: type });
      await extra?.(page, n);
    }
    await page.getByText("Field 8 can be sorted, filtered and searched").click();
    await page.getByRole("button", { name: "Create collection" }).click();
    await page.getByRole("heading", { name: "Jobs" }).waitFor();

    await newJob(page, site.id, {
      title: "Backend engineer",
      company: "Acme",
      location: "Lyon",
      from: "45000",
      to: "60000",
      type: "Full-time",
      remote: true,
      closes: "2026-12-31",
    });
    await checkScreen(page, "67-job-item");
    await newJob(page, site.id, {
      title: "Support lead",
      company: "Acme",
      location: "Berlin",
      from: "38000",
      to: "44000",
      type: "Part-time",
      remote: false,
      closes: "2027-01-15",
    });

    await page.goto(`${service()}/dashboard/#/${site.id}/integrate`);
    await page.getByRole("radio", { name: /A static host without rewrites/ }).check();
    const snippet = (label: string) => page.getByLabel(label, { exact: true }).innerText();
    const script = await snippet("Embed script tag");
    const styles = await snippet("Starter styles");
    // Salaries read as whole euros: the documented money:EUR:0 (docs/binding-rules.md).
    const whole = (html: string) => html.replaceAll('data-oc-format="money:EUR"', 'data-oc-format="money:EUR:0"');
    const list = whole(await snippet("List widget for Jobs"));
    const item = whole(await snippet("Item page widget for Jobs"));
    expect(list).toContain('<span data-oc-if="remote">Remote</span>');
    expect(list).toContain('data-oc-format="label"');

    const root = `/jobs-${site.id}`;
    const html = (body: string) =>
      `<!doctype html><html lang="en"><head><title>Jobs</title><link rel="icon" href="data:,">${script}${styles}</head><body>${body}</body></html>`;
    const listUrl = await putPage(`${root}/jobs/`, html(list.replaceAll("/jobs/", `${root}/jobs/`)));
    await putPage(`${root}/jobs/item.html`, html(item.replaceAll("/jobs/", `${root}/jobs/`)));

    await page.goto(listUrl);
    const cards = page.locator("[data-oc-list] article");
    await expect.poll(() => cards.count()).toBe(2);
    const support = (await cards.filter({ hasText: "Support lead" }).innerText()).replace(/\s+/g, " ");
    expect(support).toContain("€38,000");
    expect(support).toContain("Part-time");
    expect(support).not.toContain("Remote");
    await page.getByRole("link", { name: "Backend engineer" }).click();
    await page.waitForURL(`${pageServer()}${root}/jobs/item.html?slug=backend-engineer`);
    await page.locator("article[data-oc-item][data-oc-rendered]").waitFor();
    const job = (await page.locator("article[data-oc-item]").innerText()).replace(/\s+/g, " ");
    for (const text of ["Backend engineer", "Acme", "Lyon", "€45,000", "€60,000", "Full-time", "Remote", "December 31, 2026"])
      expect(job, text).toContain(text);
    expect(job).not.toContain("true");
    await page.screenshot({ path: `${SCREENSHOTS}/68-job-page-static-host.png`, fullPage: true });
    await page.close();
  });
});
