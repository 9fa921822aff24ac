/**
 * Accounts in Chromium, the way a person uses them: create an account, confirm it from the
 * (real, local) inbox, sign out and in with the password, the sessions panel, and a password
 * reset from the inbox that ends the other browser's session.
 */
import { describe, expect, it } from "vitest";
import { service } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError } from "./dashboard-harness";
import { linkIn, mailTo, uniqueEmail } from "../helpers/mail";

const { newPage, browser } = dashboardBrowser();
const PASSWORD = "correct horse battery staple";

describe("accounts in the dashboard", () => {
  it("signs up, confirms from the inbox, signs out and in, and resets the password from the inbox", async () => {
    const email = uniqueEmail("ada");
    const page = await newPage();
    await page.goto(`${service()}/dashboard/`);
    await checkScreen(page, "account-sign-in");
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    await page.getByLabel("Your name").fill("Ada Lovelace");
    await page.getByLabel("Email").fill(email);
    await checkScreen(page, "account-create");
    await page.getByRole("button", { name: "Send me the link" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    expect(await page.getByText(email).isVisible()).toBe(true);
    await checkScreen(page, "account-check-inbox");

    // The mail, read from the catcher's API; its link typed into the address bar.
    const link = linkIn(await mailTo(email, /Confirm your email/));
    await page.goto(link);
    await page.getByRole("heading", { name: "Choose your password" }).waitFor();
    await page.getByLabel("New password").fill("nine-char");
    expectConsoleError(`status of 400 (Bad Request) (${service()}/accounts/verify)`);
    await page.getByLabel("Repeat the password").fill("nine-char");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("use at least 10 characters").waitFor();
    await checkScreen(page, "account-verify-error");
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    // A new account lands where it creates its workspace (test/browser/team.test.ts goes on from there).
    await page.getByRole("heading", { name: "Welcome: set up your workspace" }).waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
    await page.getByRole("heading", { name: "Your account" }).waitFor();
    await page.getByText(email.toLowerCase()).first().waitFor();
    await page.getByRole("table").getByText("(this browser)").waitFor();
    // The browser is named in words; the whole User-Agent stays in the cell's title.
    const browserCell = page.getByRole("table").getByText(/^Headless Chrome on Linux$/);
    expect(await browserCell.getAttribute("title")).toMatch(/HeadlessChrome\/[\d.]+/);
    await checkScreen(page, "account-sessions");

    // Sign out, then back in with the password (the address typed in capitals).
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Email").fill(email.toUpperCase());
    await page.getByLabel("Password", { exact: true }).fill("not the password");
    expectConsoleError(`status of 401 (Unauthorized) (${service()}/sessions)`);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText("do not match an account").waitFor();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Welcome: set up your workspace" }).waitFor();

    // A second browser (another context) forgets the password and resets it from the inbox.
    const other = await browser().newContext({ viewport: { width: 420, height: 900 } });
    const phone = await other.newPage();
    await phone.goto(`${service()}/dashboard/`);
    await phone.getByRole("link", { name: "Forgot your password?" }).click();
    await phone.getByLabel("Email").fill(email);
    await checkScreen(phone, "account-forgot");
    await phone.getByRole("button", { name: "Send me a reset link" }).click();
    await phone.getByRole("heading", { name: "Check your inbox" }).waitFor();
    const reset = linkIn(await mailTo(email, /Reset your password/));
    expect(new URL(reset).hash).toMatch(/^#\/reset\/rt_/);
    await phone.goto(reset);
    await phone.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await checkScreen(phone, "account-reset");
    await phone.getByLabel("New password").fill("an entirely new passphrase");
    await phone.getByLabel("Repeat the password").fill("an entirely new passphrase");
    await phone.getByRole("button", { name: "Save new password" }).click();
    await phone.getByRole("heading", { name: "Welcome: set up your workspace" }).waitFor();

    // The first browser's session ended with the reset: its next click finds it signed out.
    await page.reload();
    await page.getByLabel("Email").waitFor();
    // The reset link works once: opened again, it says so and what to do (the service's 400).
    expectConsoleError(`status of 400 (Bad Request) (${service()}/account/password-reset/confirm)`);
    await phone.goto(reset);
    await phone.getByLabel("New password").fill("yet another passphrase");
    await phone.getByLabel("Repeat the password").fill("yet another passphrase");
    await phone.getByRole("button", { name: "Save new password" }).click();
    await phone.getByText("expired or was already used").waitFor();
    expect(await phone.getByRole("link", { name: "Ask for a new link" }).isVisible()).toBe(true);
    await other.close();
    await page.close();
  });
});
