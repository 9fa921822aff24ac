/**
 * Passkeys in Chromium with its virtual authenticator (DevTools protocol: WebAuthn.enable,
 * WebAuthn.addVirtualAuthenticator), the way a person uses them: sign up from the inbox, add a
 * passkey in Account → Passkeys, rename it, sign out, sign in with it, remove it; a sign-up
 * that chooses a passkey instead of a password; and a mailed invitation accepted with one. Passkeys need a name, not an IP address, so
 * these pages are opened on `localhost` (docs/accounts.md "Passkeys").
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { service } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR } from "./dashboard-harness";
import { linkIn, mailTo, uniqueEmail } from "../helpers/mail";

const { browser } = dashboardBrowser();
const PASSWORD = "correct horse battery staple";
const localhost = () => service().replace("127.0.0.1", "localhost");

/** A browser context whose page has a platform authenticator that holds passkeys and verifies its user. */
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

/** Create an account → the mailed link, opened from the address bar → the choose-password step. */
async function signUpToChoosePassword(page: Page, email: string): Promise<void> {
  await page.goto(`${localhost()}/dashboard/`);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send me the link" }).click();
  await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
  const link = linkIn(await mailTo(email, /Confirm your email/));
  expect(new URL(link).hostname).toBe("localhost");
  await page.goto(link);
  await page.getByRole("heading", { name: "Choose your password" }).waitFor();
}

const passkeys = (page: Page) => page.getByRole("region", { name: "Passkeys" });

/** Signed in (whatever screen a sign-in lands on): Account in the main navigation. */
async function openAccount(page: Page): Promise<void> {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await page.getByRole("heading", { name: "Your account" }).waitFor();
}

describe("passkeys in the dashboard", () => {
  it("adds a passkey, renames it, signs out and in with it, and removes it", async () => {
    const { context, page, cdp, authenticatorId } = await withAuthenticator();
    const email = uniqueEmail("passkey");
    await signUpToChoosePassword(page, email);
    await checkScreen(page, "passkey-sign-up-choose");
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await openAccount(page);
    await passkeys(page).getByText("No passkeys yet.").waitFor();

    // Account → Passkeys → add one (the virtual authenticator answers for the person).
    await passkeys(page).getByLabel("Name for the new passkey (optional)").fill("Test laptop");
    await passkeys(page).getByRole("button", { name: "Add a passkey" }).click();
    await passkeys(page).getByText("Passkey “Test laptop” added").waitFor();
    const row = passkeys(page).getByRole("row", { name: /Test laptop/ });
    await row.waitFor();
    expect(await row.getByRole("cell", { name: "Never" }).isVisible()).toBe(true);
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.rpId).toBe("localhost");
    expect(credentials[0]!.isResidentCredential).toBe(true);
    await checkScreen(page, "account-passkeys");

    // Rename it.
    await passkeys(page).getByRole("button", { name: "Rename passkey Test laptop" }).click();
    await passkeys(page).getByLabel("New name for “Test laptop”").fill("Work laptop");
    await checkScreen(page, "account-passkeys-rename");
    await passkeys(page).getByRole("button", { name: "Save name" }).click();
    await passkeys(page)
      .getByRole("row", { name: /Work laptop/ })
      .waitFor();

    // Sign out, then in with the passkey: no address, no password typed.
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in with a passkey" }).waitFor();
    await checkScreen(page, "passkey-sign-in");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await openAccount(page);
    await page.getByText(email.toLowerCase()).first().waitFor();
    const used = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(used.credentials[0]!.signCount).toBeGreaterThan(0);
    // It says when it was last used; a reload keeps the session (the cookie).
    await page.reload();
    const renamed = passkeys(page).getByRole("row", { name: /Work laptop/ });
    await renamed.waitFor();
    expect(await renamed.getByRole("cell", { name: "Never" }).count()).toBe(0);

    // Conditional UI: focusing the email field offers the passkey among the suggestions; the
    // virtual authenticator picks it at once, as a person choosing it would.
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Email").focus();
    await openAccount(page);
    const autofilled = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(autofilled.credentials[0]!.signCount).toBeGreaterThan(used.credentials[0]!.signCount);

    // Remove it (confirmed in a dialog); the account still has its password.
    await passkeys(page).getByRole("button", { name: "Remove passkey Work laptop" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove passkey “Work laptop”?" });
    await dialog.waitFor();
    await checkScreen(page, "account-passkeys-remove");
    await dialog.getByRole("button", { name: "Remove passkey" }).click();
    await passkeys(page).getByText("Passkey “Work laptop” removed.").waitFor();
    await passkeys(page).getByText("No passkeys yet.").waitFor();

    // The device still holds it, but the service no longer knows it: the sign-in says what to do
    // (refused with a 401, here and when autofill offers it again below).
    expectConsoleError(`status of 401 (Unauthorized) (${localhost()}/sessions/passkey)`);
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByText("That passkey is not known here").waitFor();
    await checkScreen(page, "passkey-sign-in-refused");
    // The password still works (focusing the email field offers the passkey in autofill again:
    // the virtual authenticator answers at once, and the refusal is said once).
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).waitFor();
    await context.close();
  });

  it("signs up with a passkey instead of a password, and will not remove the only way in", async () => {
    const { context, page } = await withAuthenticator();
    const email = uniqueEmail("passkey-only");
    await signUpToChoosePassword(page, email);
    await page.getByRole("button", { name: "Use a passkey instead" }).click();
    await openAccount(page);
    const row = passkeys(page).getByRole("row", { name: /Passkey added/ });
    await row.waitFor();

    // The only way in cannot be removed: the refusal (a 409) says what to do first.
    expectConsoleError(`status of 409 (Conflict) (${localhost()}/account/passkeys/`);
    await row.getByRole("button", { name: /^Remove passkey/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove passkey" }).click();
    await passkeys(page).getByText("This passkey is your only way to sign in").waitFor();
    await checkScreen(page, "account-passkeys-last");
    expect(await row.isVisible()).toBe(true);

    // Signed out, the passkey signs in (the session is the same kind as a password's).
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).waitFor();
    await context.close();
  });

  it("joins a workspace from the invitation mail with a passkey instead of a password", async () => {
    // Made on localhost, so the mailed link opens there (passkeys need a name, not an address).
    const operator = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(`${localhost()}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${OPERATOR}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as T;
    };
    const { workspace } = await operator<{ workspace: { id: string } }>("/workspaces", { name: "Lighthouse", plan: "pro" });
    const email = uniqueEmail("pk-invited");
    await operator(`/workspaces/${workspace.id}/invitations`, { email, role: "editor" });
    const { context, page, cdp, authenticatorId } = await withAuthenticator();
    await page.goto(linkIn(await mailTo(email, /invited to a workspace/)));
    await page.getByRole("heading", { name: "Join Lighthouse" }).waitFor();
    await page.getByRole("button", { name: "Use a passkey instead" }).waitFor();
    await checkScreen(page, "passkey-invitation-accept");
    await page.getByLabel("Your name").fill("Rosalind");
    await page.getByRole("button", { name: "Use a passkey instead" }).click();
    await page.getByText("You joined Lighthouse as Editor.").waitFor();
    await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    await openAccount(page);
    await page.getByText("Rosalind", { exact: false }).first().waitFor();
    await context.close();
  });

  it("on an IP address says to open localhost instead of offering passkeys", async () => {
    const page = await browser().newPage();
    await page.goto(`${service()}/dashboard/`);
    await page.getByText("Passkeys need this page opened by name").waitFor();
    expect(await page.getByRole("button", { name: "Sign in with a passkey" }).count()).toBe(0);
    await page.close();
  });
});
