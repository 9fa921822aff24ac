/**
 * Adding a passkey long after signing in, in Chromium with its virtual authenticator: the Account
 * screen says to confirm it is you, asks for the password (a wrong one is said at the field), and
 * adds the passkey once it is right; the account's mailbox hears of it, and the reset the mail links
 * to removes it, saying so. An account without a
 * password is asked to sign in again with a passkey, in place. This file runs its own service with
 * a sign-in counted "recent" for 3 seconds (RECENT_SIGN_IN_SECONDS), so the wait is short; the
 * rest is the built Worker the other browser tests use.
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startWorkerd } from "../../scripts/workerd-host.mjs";
import { checkScreen, dashboardBrowser, expectConsoleError } from "./dashboard-harness";
import { linkIn, mailTo, uniqueEmail } from "../helpers/mail";

const { browser } = dashboardBrowser();
const PASSWORD = "correct horse battery staple";
const RECENT_SECONDS = 3;
let host: Awaited<ReturnType<typeof startWorkerd>> | null = null;
const base = () => host!.base.replace("127.0.0.1", "localhost");

beforeAll(async () => {
  host = await startWorkerd({
    scriptPath: ".wrangler/browser-test-build/index.js",
    adminToken: "recent-sign-in-operator",
    vars: {
      SERVICE_HOSTNAMES: "127.0.0.1,localhost",
      MAIL_TRANSPORT: "smtp",
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(inject("mailSmtpPort")),
      SMTP_SECURE: "false",
      SMTP_STARTTLS: "false",
      RECENT_SIGN_IN_SECONDS: String(RECENT_SECONDS),
    },
    embedderProcesses: 0,
  });
});
afterAll(async () => {
  await host?.dispose();
});

async function withAuthenticator(): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page, cdp, authenticatorId };
}

async function signUpToChoosePassword(page: Page, email: string): Promise<void> {
  await page.goto(`${base()}/dashboard/`);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send me the link" }).click();
  await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
  await page.goto(linkIn(await mailTo(email, /Confirm your email/)));
  await page.getByRole("heading", { name: "Choose your password" }).waitFor();
}

const passkeys = (page: Page) => page.getByRole("region", { name: "Passkeys" });

async function openAccount(page: Page): Promise<void> {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await page.getByRole("heading", { name: "Your account" }).waitFor();
}

/** Long enough that the sign-in is no longer recent. */
const outlast = (page: Page) => page.waitForTimeout((RECENT_SECONDS + 1) * 1000);

describe("adding a passkey long after signing in", () => {
  it("asks for the password, says a wrong one at the field, then adds the passkey and mails the account", async () => {
    const { context, page, cdp, authenticatorId } = await withAuthenticator();
    const email = uniqueEmail("recent-ui");
    await signUpToChoosePassword(page, email);
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await openAccount(page);
    await outlast(page);

    await passkeys(page).getByLabel("Name for the new passkey (optional)").fill("Desk");
    // The service refuses an add without a recent sign-in (403), before and with the wrong password.
    expectConsoleError(`status of 403 (Forbidden) (${base()}/account/passkeys/options)`);
    await passkeys(page).getByRole("button", { name: "Add a passkey" }).click();
    await passkeys(page)
      .getByText(`To add a passkey, confirm it is you: enter your password (you signed in more than ${RECENT_SECONDS} seconds ago).`)
      .waitFor();
    const password = passkeys(page).getByLabel("Your password");
    await password.waitFor();
    // Nothing was made on the device: the service gave no challenge.
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(0);
    await checkScreen(page, "account-passkeys-confirm");

    await password.fill("not my password at all");
    await passkeys(page).getByRole("button", { name: "Confirm and add the passkey" }).click();
    await passkeys(page).getByText("That is not your password.").first().waitFor();
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(0);

    await password.fill(PASSWORD);
    await passkeys(page).getByRole("button", { name: "Confirm and add the passkey" }).click();
    await passkeys(page).getByText("Passkey “Desk” added").waitFor();
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);
    // The form is back to asking for nothing more.
    expect(await passkeys(page).getByLabel("Your password").count()).toBe(0);
    const mail = await mailTo(email, /A passkey was added/);
    expect(mail.text).toContain('A passkey named "Desk" was added');
    expect(linkIn(mail)).toBe(`${base()}/dashboard/#/forgot`);

    // "Secure your account": the reset it links to says up front that passkeys go, and after it
    // that this one did.
    await page.goto(linkIn(mail));
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    await page.goto(linkIn(await mailTo(email, /Reset your password/)));
    await page.getByText("Setting a new password signs you out on every other device and removes your passkeys").waitFor();
    await page.getByLabel("New password").fill("an entirely new passphrase");
    await page.getByLabel("Repeat the password").fill("an entirely new passphrase");
    await page.getByRole("button", { name: "Save new password" }).click();
    await page.getByText("Your passkey was removed too: add the ones you use again under Account → Passkeys.").waitFor();
    await openAccount(page);
    await passkeys(page).getByText("No passkeys yet.").waitFor();
    await context.close();
  });

  it("asks an account without a password to sign in again with a passkey, and does it in place", async () => {
    const { context, page, cdp, authenticatorId } = await withAuthenticator();
    const email = uniqueEmail("recent-ui-nopw");
    await signUpToChoosePassword(page, email);
    await page.getByRole("button", { name: "Use a passkey instead" }).click();
    await openAccount(page);
    await passkeys(page)
      .getByRole("row", { name: /Passkey added/ })
      .waitFor();
    await outlast(page);
    const before = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]!.signCount;

    expectConsoleError(`status of 403 (Forbidden) (${base()}/account/passkeys/options)`);
    await passkeys(page).getByRole("button", { name: "Add a passkey" }).click();
    await passkeys(page).getByText("confirm it is you: sign in again with one of your passkeys").waitFor();
    expect(await passkeys(page).getByLabel("Your password").count()).toBe(0);
    await checkScreen(page, "account-passkeys-sign-in-again");
    await passkeys(page).getByRole("button", { name: "Sign in again with a passkey" }).click();
    // Signed in again with the passkey (its counter moved), the add was tried at once: this one
    // device already holds the account's passkey, which the browser says in words.
    await passkeys(page).getByText("This device or security key already holds a passkey for your account.").waitFor();
    const after = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]!.signCount;
    expect(after).toBeGreaterThan(before);
    await context.close();
  });
});
