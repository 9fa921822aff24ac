/**
 * Invitation mail in Chromium: the Members screen says whether each invitation was mailed; the
 * invitee opens the mail's link, chooses a name and a password on it and is in the workspace, with
 * no second mail; the stop link of the mail, opened without signing in, stops invitation mails to
 * the address with one button; the next invitation to it is made, not mailed, and the screen says why.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { service } from "./harness";
import { checkScreen, dashboardBrowser, PASSWORD, signUpFrom as signUpWith } from "./dashboard-harness";
import { linkIn, mailsTo, mailTo, uniqueEmail } from "../helpers/mail";

const { newPage } = dashboardBrowser();

async function signUpFrom(page: Page, email: string): Promise<void> {
  await page.goto(`${service()}/dashboard/`);
  await page.getByRole("link", { name: "Create an account" }).click();
  await signUpWith(page, "Ada", email);
}

async function inviteFrom(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email (leave empty for a link to share)").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
  await page.getByRole("button", { name: "Invite", exact: true }).click();
}

/** A new account with its workspace, on the Workspace screen. */
async function ownerOf(page: Page, workspace: string): Promise<void> {
  await signUpFrom(page, uniqueEmail("ada"));
  await page.getByLabel("Workspace name").fill(workspace);
  await page.getByLabel("First site name").fill("Notes");
  await page.getByRole("button", { name: "Create workspace and site" }).click();
  await page.getByRole("banner").getByText("Notes").waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace", exact: true }).click();
  await page.getByRole("heading", { name: `Workspace: ${workspace}` }).waitFor();
}

describe("invitation mail in the dashboard", () => {
  it("says whether an invitation was mailed, and the stop link stops the next one", async () => {
    const owner = await newPage();
    await ownerOf(owner, "Mail Room");

    const grace = uniqueEmail("grace");
    await inviteFrom(owner, grace);
    await owner.getByText(`Invitation mailed to ${grace}.`).waitFor();
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
    await owner.getByText("Invitation made.").waitFor();
    await owner.getByText(`It was not mailed: ${grace} is not taking invitation mail from this service now.`).waitFor();
    await owner.getByText("(not mailed: the address is not taking invitation mail)", { exact: false }).waitFor();
    await checkScreen(owner, "invitation-mail-03-not-mailed");
  });

  it("the invitee chooses a password on the mailed invitation and is in the workspace, with no second mail", async () => {
    const owner = await newPage();
    await ownerOf(owner, "Harbour Press");
    const linus = uniqueEmail("linus");
    await inviteFrom(owner, linus);
    await owner.getByText(`Invitation mailed to ${linus}.`).waitFor();
    await owner.getByText(`${linus} as Editor`).getByText("(mailed)", { exact: false }).waitFor();
    await checkScreen(owner, "invitation-mail-04-mailed");

    // Linus, signed in nowhere, opens the link of the mail.
    const invitee = await newPage();
    await invitee.goto(linkIn(await mailTo(linus, /invited to a workspace/)));
    await invitee.getByRole("heading", { name: "Join Harbour Press" }).waitFor();
    await invitee.getByRole("heading", { name: "Create your account" }).waitFor();
    await invitee.getByText(`For ${linus}.`).waitFor();
    await invitee.getByText("The invitation mail confirmed your address").waitFor();
    await checkScreen(invitee, "invitation-accept-1280");
    await invitee.setViewportSize({ width: 390, height: 844 });
    await checkScreen(invitee, "invitation-accept-390");
    await invitee.setViewportSize({ width: 1280, height: 900 });

    // Two different passwords are caught on the page; then the account is made and joined at once.
    await invitee.getByLabel("Your name").fill("Linus Pauling");
    await invitee.getByLabel("New password").fill(PASSWORD);
    await invitee.getByLabel("Repeat the password").fill(`${PASSWORD}!`);
    await invitee.getByRole("button", { name: "Create account and join Harbour Press" }).click();
    await invitee.getByText("The two passwords differ").waitFor();
    await invitee.getByLabel("Repeat the password").fill(PASSWORD);
    await invitee.getByRole("button", { name: "Create account and join Harbour Press" }).click();
    await invitee.getByText("You joined Harbour Press as Editor.").waitFor();
    await invitee.getByRole("heading", { name: "Your workspaces" }).waitFor();
    await invitee.getByText("Your role: Editor").waitFor();
    await checkScreen(invitee, "invitation-accept-joined");

    // The owner sees the new member by name; the only mail Linus ever got is the invitation.
    await owner.reload();
    await owner.getByText("Linus Pauling", { exact: false }).first().waitFor();
    await new Promise((r) => setTimeout(r, 1000));
    expect((await mailsTo(linus)).map((m) => m.subject)).toEqual(["You're invited to a workspace on open-content-edge"]);
  });
});
