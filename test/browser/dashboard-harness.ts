/** Chromium helpers for the dashboard tests: signing in, the console gate, axe-core, screenshots. */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { api, launch, service } from "./harness";
import { linkIn, mailTo } from "../helpers/mail";

export const OPERATOR = "browser-test-operator";

/**
 * One Chromium per test file; `newPage` opens a tab of the given width. Every page the file opens
 * (through `newPage`, or `browser().newPage()` / `newContext()`) has its console watched: a test
 * fails when any page logged an error or threw, unless the test named that error beforehand with
 * `expectConsoleError`. A failed load (a 4xx the app did not expect, a blocked script, a CSP
 * violation) shows only there, so without this gate it would pass unnoticed.
 */
export function dashboardBrowser(): { newPage: (width?: number) => Promise<Page>; browser: () => Browser } {
  let browser: Browser;
  beforeAll(async () => {
    browser = await watched(await launch());
  });
  afterEach(() => {
    const unexpected = consoleErrors.filter((e) => !expected.some((x) => (typeof x === "string" ? e.includes(x) : x.test(e))));
    consoleErrors.length = 0;
    expected.length = 0;
    expect(unexpected, "errors in the browser's console").toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    browser: () => browser,
    newPage: (width = 1280) => browser.newPage({ viewport: { width, height: 900 } }),
  };
}

/** What the pages of the current test logged as errors, and what the test said it provokes. */
const consoleErrors: string[] = [];
const expected: (string | RegExp)[] = [];

/**
 * This test provokes a console error on purpose (a refused sign-in, a broken image it checks
 * for): errors containing `message` (or matching it) do not fail it. Only for the current test.
 */
export function expectConsoleError(message: string | RegExp): void {
  expected.push(message);
}

/**
 * Every context of the browser, and so every page, reports its console errors and uncaught
 * exceptions, and speaks as this file's own client. The files share one service, and without
 * CF-Connecting-IP a local run keys a client by its user agent (src/limits/client.ts): the files
 * are different people, so each browser adds its own mark to Chromium's user agent. Otherwise the
 * whole suite would be one client, and its mails (sign-ups, resets, invitations) together would
 * earn the per-client mail throttle that no single person's flow comes near.
 */
async function watched(browser: Browser): Promise<Browser> {
  const probe = await browser.newPage();
  const userAgent = `${await probe.evaluate(() => navigator.userAgent)} test-client/${crypto.randomUUID().slice(0, 8)}`;
  await probe.context().close();
  // Playwright's own newPage opens its context through newContext: each context is watched once.
  const seen = new WeakSet<BrowserContext>();
  const watch = (context: BrowserContext) => {
    if (seen.has(context)) return context;
    seen.add(context);
    context.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    context.on("weberror", (e) => consoleErrors.push(`uncaught: ${e.error().message}`));
    return context;
  };
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = async (options) => watch(await newContext({ userAgent, ...options }));
  browser.newPage = async (options) => {
    const page = await newPage({ userAgent, ...options });
    watch(page.context());
    return page;
  };
  return browser;
}

/** Where the dashboard tests leave a screenshot of every screen (docs/dashboard.md). */
export const SCREENSHOTS = "test-artifacts/dashboard";
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export const PASSWORD = "correct horse battery staple";

/** Sign-up the way a person does it: the form, the mail, the link in the address bar, a password. */
export async function signUpFrom(page: Page, name: string, email: string): Promise<void> {
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send me the link" }).click();
  await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
  await page.goto(linkIn(await mailTo(email, /Confirm your email/)));
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Repeat the password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto(`${service()}/dashboard/`);
  await page.getByLabel("Admin key").fill(key);
  await page.getByRole("button", { name: "Sign in with admin key" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}

/** axe-core on the current screen: nothing of impact serious or critical. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious, `${screen}: ${JSON.stringify(serious)}`).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

/** Every screen gets the same two checks: axe-core, then a screenshot for reviewers. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await screenshot(page, name);
}

/** A Pro site (made by the operator) with a `posts` collection of a required title and a rich-text body. */
export async function postsSite(name: string): Promise<{ id: string; adminKey: string; token: string }> {
  const { site } = await api<{ site: { id: string; adminKey: string; token: string } }>("POST", "/sites", OPERATOR, { name, plan: "pro" });
  await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
    name: "Posts",
    fields: [
      { key: "title", type: "text", required: true },
      { key: "body", type: "richText" },
    ],
  });
  return site;
}
