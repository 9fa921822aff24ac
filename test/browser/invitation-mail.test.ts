/**
 * Invitation mail in Chromium: the Members screen says whether each invitation was mailed; the
 * stop link of the mail, opened without signing in, stops invitation mails to the address with one
 * button; the next invitation to it is made, not mailed, and the screen says why.
 */
import type { Page } from "playwright-core";
import { describe, it } from "vitest";
import { service } from "./harness";
import { checkScreen, dashboardBrowser } from "./dashboard-harness";
import { linkIn, mailTo, uniqueEmail } from "../helpers/mail";

const { newPage } = dashboardBrowser();
const PASSWORD = "correct horse battery staple";

async function signUpFrom(page: Page, email: string): Promise<void> {
  await page.goto(`${service()}/dashboard/`);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Your name").fill("Ada");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send me the link" }).click();
  await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
  await page.goto(linkIn(await mailTo(email, /Confirm your email/)));
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Repeat the password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

async function inviteFrom(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email (leave empty for a link to share)").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await page.getByText("Invitation made.").waitFor();
}

describe("invitation mail in the dashboard", () => {
  it("says whether an invitation was mailed, and the stop link stops the next one", async () => {
    const owner = await newPage();
    await signUpFrom(owner, uniqueEmail("ada"));
    await owner.getByLabel("Workspace name").fill("Mail Room");
    await owner.getByLabel("First site name").fill("Notes");
    await owner.getByRole("button", { name: "Create workspace and site" }).click();
    await owner.getByRole("banner").getByText("Notes").waitFor();
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace", exact: true }).click();
    await owner.getByRole("heading", { name: "Workspace: Mail Room" }).waitFor();

    const grace = uniqueEmail("grace");
    await inviteFrom(owner, grace);
    await owner.getByText(`An invitation mail is on its way to ${grace}.`).waitFor();
    await owner.getByText(`${grace} as Editor`).getByText("(mailed)", { exact: false }).waitFor();

    // Grace, in another browser and signed in nowhere, opens the stop link of the mail.
    const stranger = await newPage();
    const mail = await mailTo(grace, /invited to a workspace/);
    const stop = /https?:\/\/\S+#\/stop-invitations\/\S+/.exec(mail.text)![0];
    await stranger.goto(stop);
    await stranger.getByRole("heading", { name: "Invitation mails" }).waitFor();
    await checkScreen(stranger, "invitation-mail-01-stop");
    await stranger.getByRole("button", { name: "Stop invitation mails to this address" }).click();
    await stranger.getByText("Done. Invitations to this address are no longer mailed").waitFor();
    await checkScreen(stranger, "invitation-mail-02-stopped");

    await inviteFrom(owner, grace);
    await owner.getByText(`It was not mailed: ${grace} is not taking invitation mail from this service now.`).waitFor();
    await owner.getByText("(not mailed: the address is not taking invitation mail)", { exact: false }).waitFor();
    await checkScreen(owner, "invitation-mail-03-not-mailed");
  });
});
