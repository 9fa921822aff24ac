/**
 * A team's first day in Chromium, two people in two browsers (contexts), no operator: Ada signs up
 * from the inbox, creates her workspace and first site, invites Grace as Contributor; Grace chooses
 * her password on the mailed invitation and is in, writes a draft, has no Publish (and the API refuses it); Ada
 * publishes and sees who did what. Then several workspaces (the picker, reload, Back), ownership
 * handed over and a workspace deleted by its new Owner; Ada removes Grace, whose next click is
 * refused in words; Grace resets her password from the inbox. axe-core on every new screen. (The
 * operator appears once: to move the workspace to the SEO Engine plan for what a Contributor sees there.)
 * Then a workspace's everyday changes, each an explicit step said in words: a site more (up to the
 * plan's number), the member limit, a role, a key revoked, a member leaving, a password changed.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, putPage, service } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, PASSWORD, signUpFrom } from "./dashboard-harness";
import { navRows, tabThroughHeader } from "./nav-checks";
import { linkIn, mailTo, uniqueEmail } from "../helpers/mail";

const { newPage, browser } = dashboardBrowser();
/** The dashboard API as the page itself calls it (same origin, the session cookie). */
function apiFrom(page: Page, method: string, path: string): Promise<{ status: number; code: string | null }> {
  return page.evaluate(
    async ([m, p]) => {
      const r = await fetch(p!, { method: m, credentials: "same-origin" });
      const body = (await r.json().catch(() => null)) as { error?: { code?: string } } | null;
      return { status: r.status, code: body?.error?.code ?? null };
    },
    [method, path],
  );
}

describe("a team in the dashboard, without the operator", () => {
  it("sign up, workspace and site, invite a Contributor, draft without Publish, publish, switch, hand over, delete, remove, reset", async () => {
    const ada = uniqueEmail("ada");
    const grace = uniqueEmail("grace");

    // Ada: sign up from the inbox; a new account is asked for its workspace and first site.
    const owner = await newPage();
    await owner.goto(`${service()}/dashboard/`);
    await owner.getByRole("link", { name: "Create an account" }).click();
    await signUpFrom(owner, "Ada Lovelace", ada);
    await owner.getByRole("heading", { name: "Welcome: set up your workspace" }).waitFor();
    await checkScreen(owner, "team-01-welcome");
    await owner.getByLabel("Workspace name").fill("Acme Studio");
    await owner.getByLabel("First site name").fill("Acme Blog");
    await owner.getByRole("button", { name: "Create workspace and site" }).click();
    await owner.getByRole("banner").getByText("Acme Blog").waitFor();
    // The new site's Overview says it is ready; the message stays with that screen.
    await owner.getByText("Your workspace and the site “Acme Blog” are ready.").waitFor();
    const siteId = new URL(owner.url()).hash.split("/")[1]!;
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Collections" }).click();
    await owner.getByRole("link", { name: "New collection" }).click();
    await owner.getByLabel("Collection name").fill("Posts");
    await owner.getByRole("button", { name: "Create collection" }).click();
    await owner.getByRole("heading", { name: "Posts" }).waitFor();
    expect(await owner.getByText("are ready").count()).toBe(0);
    // An empty collection says what to do next.
    await owner.getByText("No posts yet. Choose New item to add the first one").waitFor();

    // The navigation of an account session fits at 1280 px: the places and Sign out on one row,
    // the site's ten sections on the row below. At 390 px Tab still reaches every link, each shown
    // when focused (the sections wrap onto more rows).
    expect(await navRows(owner)).toEqual({ places: 1, sections: 1 });
    const everyLink = ["Workspace", "Your workspaces", "Account", "Sign out", "Overview", "Collections", "Media", "Search"];
    const rest = ["SEO Engine", "Domains", "Integrate", "Webhooks", "Plan", "Settings"];
    expect(await tabThroughHeader(owner)).toEqual({ names: [...everyLink, ...rest], notShown: [] });
    await owner.setViewportSize({ width: 390, height: 844 });
    expect(await tabThroughHeader(owner)).toEqual({ names: [...everyLink, ...rest], notShown: [] });
    await checkScreen(owner, "team-01b-items-empty-390");
    await owner.setViewportSize({ width: 1280, height: 900 });

    // Ada invites Grace by email as Contributor.
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace", exact: true }).click();
    await owner.getByRole("heading", { name: "Workspace: Acme Studio" }).waitFor();
    await owner.getByText("No API keys yet.").waitFor();
    await owner.getByLabel("Email (leave empty for a link to share)").fill(grace);
    await owner.getByLabel("Role", { exact: true }).selectOption({ label: "Contributor" });
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    await owner.getByText(`Invitation mailed to ${grace}.`).waitFor();

    // Grace, in her own browser: the mailed invitation proves her address, so she chooses a
    // password on it and is in the workspace, with no confirmation mail.
    const other = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const member = await other.newPage();
    const invitation = linkIn(await mailTo(grace, /invited to a workspace/));
    await member.goto(invitation);
    await member.getByRole("heading", { name: "Join Acme Studio" }).waitFor();
    await member.getByText("as Contributor").waitFor();
    await checkScreen(member, "team-02-invitation");
    await member.getByLabel("Your name").fill("Grace Hopper");
    await member.getByLabel("New password").fill(PASSWORD);
    await member.getByLabel("Repeat the password").fill(PASSWORD);
    await member.getByRole("button", { name: "Create account and join Acme Studio" }).click();
    await member.getByText("You joined Acme Studio as Contributor.").waitFor();
    await member.getByRole("heading", { name: "Your workspaces" }).waitFor();
    await member.getByText("Your role: Contributor").waitFor();
    await checkScreen(member, "team-03-workspaces");
    // The link worked once: opened again, it says so and what to do (the lookup answers 410).
    expectConsoleError(`status of 410 (Gone) (${service()}/invitations/lookup)`);
    await member.goto(invitation);
    await member.getByText("already used, withdrawn, or has expired. Ask the person who invited you").waitFor();
    await checkScreen(member, "team-03b-invitation-used");
    await member.getByRole("link", { name: "Go to the dashboard" }).click();
    await member.getByRole("heading", { name: "Your workspaces" }).waitFor();

    // A draft, with no Publish anywhere; the API refuses publishing all the same.
    await member.getByRole("link", { name: "Open Acme Blog" }).click();
    await member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Collections" }).click();
    await member.getByRole("link", { name: "Posts" }).first().click();
    await member.getByRole("link", { name: "New item" }).click();
    await member.getByLabel("title (required)").fill("Notes from Grace");
    expect(await member.getByRole("button", { name: /publish/i }).count()).toBe(0);
    await member.getByText("saves drafts; an Editor or Administrator publishes them").waitFor();
    await checkScreen(member, "team-04-contributor-item");
    await member.getByRole("button", { name: "Save as draft" }).click();
    await member.getByText("Saved as a draft.").waitFor();
    const draftUrl = member.url();
    const itemId = new URL(draftUrl).hash.split("/").pop()!;
    expect(await member.getByRole("button", { name: /publish/i }).count()).toBe(0);
    // Her own draft stays hers to change.
    await member.getByRole("button", { name: "Save", exact: true }).waitFor();
    expect(await member.getByLabel("title (required)").isEditable()).toBe(true);
    expectConsoleError(`status of 403 (Forbidden) (${service()}/sites/${siteId}/collections/posts/items/${itemId}/publish)`);
    expect(await apiFrom(member, "POST", `/sites/${siteId}/collections/posts/items/${itemId}/publish`)).toEqual({
      status: 403,
      code: "forbidden",
    });
    await member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Collections" }).click();
    await member.getByRole("link", { name: "Posts" }).first().click();
    expect(await member.getByRole("button", { name: /Publish selected/ }).count()).toBe(0);
    // What her role cannot change is shown, not offered: the fields she can read, the settings and
    // webhooks (reached by address) say who changes them, and nothing is sent to be refused.
    expect(await member.getByRole("link", { name: "Edit fields" }).count()).toBe(0);
    await member.getByRole("link", { name: "See fields" }).click();
    await member.getByText("Your role (Contributor) can see this collection's fields but not change them").waitFor();
    expect(await member.getByRole("button", { name: "Save fields" }).isDisabled()).toBe(true);
    await checkScreen(member, "team-04b-contributor-fields");
    expect(await member.getByRole("button", { name: "Delete collection" }).count()).toBe(0);
    await member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Collections" }).click();
    await member.getByRole("link", { name: "See fields of Posts" }).waitFor();
    expect(await member.getByRole("link", { name: "New collection" }).count()).toBe(0);
    await member.goto(`${service()}/dashboard/#/${siteId}/settings`);
    await member.getByText("Your role (Contributor) can see the site's name, image hosts and languages but not change them").waitFor();
    expect(await member.getByRole("button", { name: "Save name" }).isDisabled()).toBe(true);
    expect(await member.getByRole("button", { name: "Replace admin key" }).count()).toBe(0);
    await member.goto(`${service()}/dashboard/#/${siteId}/webhooks`);
    await member.getByText("Your role (Contributor) does not manage this site's webhooks").waitFor();
    expect(await member.getByRole("button", { name: /Add endpoint/ }).count()).toBe(0);
    // On the SEO Engine plan, the capture and the domains are hers to see, not to change: no
    // refresh, no secret (the API leaves it out), the forms disabled with who changes them.
    const { workspaceId, token } = (await api<{ site: { workspaceId: string; token: string } }>("GET", `/sites/${siteId}`, OPERATOR)).site;
    const { plan } = (await api<{ workspace: { plan: string } }>("GET", `/workspaces/${workspaceId}`, OPERATOR)).workspace;
    await api("PATCH", `/workspaces/${workspaceId}`, OPERATOR, { plan: "seo_engine" });
    const pageUrl = await putPage(
      `/acme-${siteId}/`,
      `<!doctype html><html lang="en"><head><title>Acme</title></head><body><div data-oc-list="posts"><h2 data-oc-field="title">T</h2></div>` +
        `<script src="${service()}/embed.js" data-oc-token="${token}" defer></script></body></html>`,
    );
    await api("PUT", `/sites/${siteId}/ssr/capture`, OPERATOR, { pageUrl, collection: "posts" });
    // (Reloaded: the dashboard learns the site's plan when it opens the site.)
    await member.goto(`${service()}/dashboard/#/${siteId}/seo`);
    await member.reload();
    await member.getByRole("heading", { name: "Captured page" }).waitFor();
    await member.getByText("Your role (Contributor) can see the SEO Engine's settings but not change them").waitFor();
    expect(await member.getByRole("button", { name: "Capture again" }).isDisabled()).toBe(true);
    for (const name of ["Refresh now", "Rotate webhook secret"]) expect(await member.getByRole("button", { name }).count()).toBe(0);
    expect(await member.getByRole("button", { name: "Copy the webhook signing secret" }).count()).toBe(0);
    expect(await member.getByText(/whsec_/).count()).toBe(0);
    await checkScreen(member, "team-04d-contributor-seo");
    await member.goto(`${service()}/dashboard/#/${siteId}/domains`);
    await member.getByText("Your role (Contributor) can see this site's domains but not change them").waitFor();
    expect(await member.getByRole("button", { name: "Connect hostname" }).isDisabled()).toBe(true);
    await api("PATCH", `/workspaces/${workspaceId}`, OPERATOR, { plan });
    // Her workspace's page shows what she may see and asks for nothing she would be refused.
    const refusedCalls: string[] = [];
    member.on("response", (r) => r.status() === 403 && refusedCalls.push(r.url()));
    await member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace", exact: true }).click();
    await member.getByText("Your role cannot see or manage members.").waitFor();
    await member.getByText("Your role cannot manage API keys.").waitFor();
    await member.getByText("Your role cannot see the workspace's activity.").waitFor();
    expect(refusedCalls).toEqual([]);

    // Ada publishes Grace's draft and sees who did what.
    await owner.goto(`${service()}/dashboard/#/${siteId}/items/posts/${itemId}`);
    await owner.getByRole("button", { name: "Save and publish" }).click();
    await owner.getByText("Published.").waitFor();
    // An item Ada wrote is shown to Grace, not offered for change: her role changes only her own.
    await owner.goto(`${service()}/dashboard/#/${siteId}/items/posts/new`);
    await owner.getByLabel("title (required)").fill("Ada's own notes");
    await owner.getByRole("button", { name: "Save as draft" }).click();
    await owner.getByText("Saved as a draft.").waitFor();
    await member.goto(owner.url());
    await member.getByText("Someone else created this item: your role (Contributor) can change only items you created.").waitFor();
    expect(await member.getByLabel("title (required)").isEditable()).toBe(false);
    for (const name of ["Save", "Delete", "Share"]) expect(await member.getByRole("button", { name, exact: true }).count()).toBe(0);
    await member.getByRole("button", { name: "History" }).waitFor();
    await checkScreen(member, "team-04c-someone-elses-item");
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace", exact: true }).click();
    await owner.getByLabel("Person (name, email or key name)").fill(grace);
    await owner.getByLabel("Person (name, email or key name)").press("Tab");
    // Until the filtered page arrives, the table still shows everyone's activity (Ada's draft too).
    const activity = owner.getByRole("table", { name: "Activity" });
    await expect.poll(() => activity.getByRole("cell", { name: "created a draft", exact: true }).count()).toBe(1);
    // People by the name they signed up with, the email address in the tooltip.
    const graceDraft = activity.getByRole("row").filter({ hasText: "created a draft" });
    await graceDraft.getByText("Grace Hopper").waitFor();
    expect(await graceDraft.locator("[title]").getAttribute("title")).toBe(grace);
    // Members: the name, the email address on the line below it.
    const adaMember = owner.getByRole("table", { name: "Members" }).getByRole("rowheader").filter({ hasText: "Ada Lovelace" });
    expect((await adaMember.innerText()).split("\n").map((l) => l.trim())).toEqual(["Ada Lovelace", ada]);

    // Ada publishes an item at once, then saves a change to it: the Activity says each in words,
    // and its target opens the item.
    await owner.goto(`${service()}/dashboard/#/${siteId}/items/posts/new`);
    await owner.getByLabel("title (required)").fill("Launch notes");
    await owner.getByRole("button", { name: "Save and publish" }).click();
    await owner.getByText("Published.").waitFor();
    const launchUrl = owner.url();
    await owner.getByLabel("title (required)").fill("Launch notes, edited");
    await owner.getByRole("button", { name: "Save and publish changes" }).click();
    await owner.getByText("Saved and published.").waitFor();
    await owner.getByRole("button", { name: "History" }).click();
    const history = owner.getByRole("dialog", { name: "History" });
    const created = history.getByRole("listitem").filter({ has: owner.getByRole("button", { name: "Version 1: Created" }) });
    await created.getByText("Ada Lovelace").waitFor();
    expect(await created.locator("[title]").getAttribute("title")).toBe(ada);
    await owner.keyboard.press("Escape");
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace", exact: true }).click();
    await owner.getByLabel("Person (name, email or key name)").fill("Ada Lovelace");
    await owner.getByLabel("Person (name, email or key name)").press("Tab");
    const launch = activity.getByRole("row").filter({ hasText: "posts/launch-notes" });
    // Who (the email after the name, for screen readers too) and what, newest first.
    const whoAndWhat = async () =>
      (await launch.allInnerTexts()).map((t) =>
        t
          .split("\t")
          .slice(1, 3)
          .map((c) => c.replace(/\s+/g, " ").trim()),
      );
    await expect.poll(whoAndWhat).toEqual([
      [`Ada Lovelace (${ada})`, "saved changes and published"],
      [`Ada Lovelace (${ada})`, "created and published"],
    ]);
    // Grace's draft, published by Ada with "Save and publish": its publish in words too.
    await activity.getByRole("cell", { name: "published", exact: true }).first().waitFor();
    await checkScreen(owner, "team-04e-activity-in-words");
    await launch.filter({ hasText: "created and published" }).getByRole("link", { name: "posts/launch-notes" }).click();
    await owner.getByLabel("title (required)").waitFor();
    expect(owner.url()).toBe(launchUrl);
    expect(await owner.getByLabel("title (required)").inputValue()).toBe("Launch notes, edited");
    // A member's row opens the Members section of the workspace.
    await owner.goBack();
    await owner.getByLabel("Person (name, email or key name)").fill("");
    await owner.getByLabel("Person (name, email or key name)").press("Tab");
    await activity
      .getByRole("link", { name: `member ${grace}` })
      .first()
      .click();
    await expect.poll(() => owner.evaluate(() => document.activeElement?.textContent)).toBe("Members");

    // A second workspace for Ada; Grace joins it by a shared link as Editor: both now pick between two.
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your workspaces" }).click();
    await owner.getByRole("heading", { name: "Your workspaces" }).waitFor();
    await owner.getByLabel("Workspace name").fill("Side Project");
    await owner.getByLabel("First site name").fill("Side Site");
    await owner.getByRole("button", { name: "Create workspace and site" }).click();
    await owner.getByRole("banner").getByText("Side Site").waitFor();
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace", exact: true }).click();
    await owner.getByRole("heading", { name: "Workspace: Side Project" }).waitFor();
    await owner.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    const shared = (await owner.locator(".notice code").textContent())!;
    await member.goto(shared);
    await member.getByRole("button", { name: "Accept and join Side Project" }).click();
    await member.getByText("You joined Side Project as Editor.").waitFor();
    await member.getByRole("heading", { name: "Side Project" }).waitFor();
    await member.getByRole("link", { name: "Open Side Site" }).click();
    await member.getByRole("banner").getByText("Side Site").waitFor();
    await member.reload();
    await member.getByRole("banner").getByText("Side Site").waitFor();
    await member.goBack();
    await member.getByRole("heading", { name: "Your workspaces" }).waitFor();
    await member.getByRole("link", { name: "Open Acme Blog" }).click();
    await member.getByRole("banner").getByText("Acme Blog").waitFor();

    // An invitation for someone else, opened by Grace: she is told to sign in with that address.
    const someoneElse = uniqueEmail("someone");
    await owner.getByLabel("Email (leave empty for a link to share)").fill(someoneElse);
    await owner.getByLabel("Role", { exact: true }).selectOption({ label: "Viewer" });
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    await owner.getByRole("button", { name: `Withdraw the invitation to ${someoneElse}` }).waitFor();
    await member.goto(linkIn(await mailTo(someoneElse, /invited to a workspace/)));
    await member.getByText(`This invitation was sent to ${someoneElse}. Sign out, then sign in`).waitFor();
    expect(await member.getByRole("button", { name: /^Accept/ }).count()).toBe(0);
    await owner.getByRole("button", { name: `Withdraw the invitation to ${someoneElse}` }).click();

    // Ada hands Side Project to Grace; Grace, its Owner now, deletes it by typing its name.
    await owner.getByRole("heading", { name: "Owner only" }).waitFor();
    await checkScreen(owner, "team-05-owner-zone");
    await owner.getByLabel("New owner").selectOption({ label: `${grace} (Editor)` });
    owner.once("dialog", (d) => void d.accept());
    await owner.getByRole("button", { name: "Transfer ownership" }).click();
    await owner.getByText(`${grace} is now the Owner; ${ada} is an Administrator.`).waitFor();
    await expect.poll(() => owner.getByRole("button", { name: "Delete workspace" }).count()).toBe(0);
    await member.goto(`${service()}/dashboard/#/workspaces`);
    await member.getByRole("link", { name: "People and activity of Side Project" }).click();
    await member.getByLabel("Type “Side Project” to confirm").fill("Side Projec");
    expect(await member.getByRole("button", { name: "Delete workspace" }).isDisabled()).toBe(true);
    await member.getByLabel("Type “Side Project” to confirm").fill("Side Project");
    await member.getByRole("button", { name: "Delete workspace" }).click();
    await member.getByText("The workspace “Side Project” and its sites were deleted.").waitFor();
    expect(await member.getByRole("heading", { name: "Side Project" }).count()).toBe(0);

    // Ada removes Grace from Acme Studio: Grace's very next click is refused, in words.
    await member.goto(draftUrl);
    await member.getByLabel("title (required)").fill("Notes from Grace, edited");
    await owner.goto(`${service()}/dashboard/#/workspaces`);
    await owner.getByRole("link", { name: "People and activity of Acme Studio" }).click();
    owner.once("dialog", (d) => void d.accept());
    await owner.getByRole("button", { name: `Remove ${grace}` }).click();
    await expect.poll(() => owner.getByRole("button", { name: `Remove ${grace}` }).count()).toBe(0);
    // The draft is published by now: a Contributor may only offer it as pending changes.
    expect(await member.getByRole("button", { name: "Save and publish changes" }).count()).toBe(0);
    expectConsoleError(`status of 404 (Not Found) (${service()}/sites/${siteId}/collections/posts/items/${itemId}/pending)`);
    await member.getByRole("button", { name: "Save as pending changes" }).click();
    await member.getByText("you are no longer a member of its workspace").waitFor();

    // Grace forgets her password: a reset from the inbox signs her in with the new one.
    await member.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await member.getByRole("link", { name: "Forgot your password?" }).click();
    await member.getByLabel("Email").fill(grace);
    await member.getByRole("button", { name: "Send me a reset link" }).click();
    await member.getByRole("heading", { name: "Check your inbox" }).waitFor();
    await member.goto(linkIn(await mailTo(grace, /Reset your password/)));
    await member.getByLabel("New password").fill("an entirely new passphrase");
    await member.getByLabel("Repeat the password").fill("an entirely new passphrase");
    await member.getByRole("button", { name: "Save new password" }).click();
    await member.getByRole("heading", { name: "Welcome: set up your workspace" }).waitFor();
    await member.getByText("Password changed.").waitFor();

    await other.close();
    await owner.close();
  });

  it("a site more up to the plan, the member limit, a role and a key changed on purpose, leaving, a new password", async () => {
    const olivia = uniqueEmail("olivia");
    const sam = uniqueEmail("sam");
    const owner = await newPage();
    await owner.goto(`${service()}/dashboard/#/sign-up`);
    await signUpFrom(owner, "Olivia", olivia);
    await owner.getByLabel("Workspace name").fill("Bakery");
    await owner.getByLabel("First site name").fill("Journal");
    await owner.getByRole("button", { name: "Create workspace and site" }).click();
    await owner.getByText("Your workspace and the site “Journal” are ready.").waitFor();

    // Free allows one site: the workspace says so rather than offering a second.
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your workspaces" }).click();
    await owner.getByText("The Free plan allows 1 site, and this workspace has 1.").waitFor();
    expect(await owner.getByRole("button", { name: /^New site/ }).count()).toBe(0);

    // Free allows three people, pending invitations included: the fourth is refused in words, and
    // the link of the invitation before is not left under the refusal.
    await owner.getByRole("link", { name: "People and activity of Bakery" }).click();
    await owner.getByRole("heading", { name: "Workspace: Bakery" }).waitFor();
    const workspaceId = new URL(owner.url()).hash.split("/")[2]!;
    await owner.getByLabel("Email (leave empty for a link to share)").fill(sam);
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    await owner.getByRole("button", { name: `Withdraw the invitation to ${sam}` }).waitFor();
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    await owner.getByRole("button", { name: "Withdraw the invitation to the shared link" }).waitFor();
    await owner.getByText("Invitation made.").waitFor();
    await owner.getByLabel("Email (leave empty for a link to share)").fill(uniqueEmail("fourth"));
    expectConsoleError(`status of 403 (Forbidden) (${service()}/workspaces/${workspaceId}/invitations)`);
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    await owner
      .getByText(
        "This workspace's plan (Free) allows 3 people, pending invitations included; the Starter plan allows more. The Plan screen of the dashboard says how to change plans.",
      )
      .waitFor();
    expect(await owner.getByText("Invitation made.").count()).toBe(0);
    await checkScreen(owner, "team-07-member-limit");

    // Sam joins as Contributor.
    const other = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const member = await other.newPage();
    // The link as the inviter was shown it (without the mail's proof of the address): Sam
    // confirms the address by a sign-up mail first, and comes back to the invitation by himself.
    await member.goto(linkIn(await mailTo(sam, /invited to a workspace/)).replace(/\/[^/]+$/, ""));
    await member.getByRole("link", { name: "Create an account" }).click();
    // The form starts with the address the invitation was sent to.
    expect(await member.getByLabel("Email").inputValue()).toBe(sam);
    await signUpFrom(member, "Sam", sam);
    await member.getByRole("button", { name: "Accept and join Bakery" }).click();
    await member.getByText("You joined Bakery as Contributor.").waitFor();

    // Choosing a role in the list changes nothing; "Change role" does, says so, and Activity shows it.
    const samRole = async () =>
      owner.evaluate(async (path) => {
        const r = (await (await fetch(path, { credentials: "same-origin" })).json()) as { members: { email: string; role: string }[] };
        return r.members.find((m) => m.email.startsWith("sam+"))?.role;
      }, `/workspaces/${workspaceId}/members`);
    await owner.reload();
    await owner.getByLabel(`Role of ${sam}`).selectOption({ label: "Administrator" });
    await owner.getByRole("button", { name: `Keep ${sam} as Contributor` }).click();
    await owner.getByLabel(`Role of ${sam}`).selectOption({ label: "Editor" });
    expect(await samRole()).toBe("contributor");
    expect(await owner.getByRole("cell", { name: "change member's role", exact: true }).count()).toBe(0);
    await owner.getByRole("button", { name: `Change role of ${sam} to Editor` }).click();
    await owner.getByText(`${sam} is now Editor.`).waitFor();
    expect(await samRole()).toBe("editor");
    await owner.getByRole("cell", { name: "change member's role", exact: true }).waitFor();
    expect(await owner.getByRole("button", { name: /^Change role of/ }).count()).toBe(0);
    // The Owner leaves only by handing ownership over first: no "Leave workspace" for her.
    expect(await owner.getByRole("button", { name: "Leave workspace" }).count()).toBe(0);

    // Revoking a key asks first, naming it and what stops working.
    await owner.getByLabel("Key name", { exact: true }).fill("deploy script");
    await owner.getByRole("button", { name: "Create key" }).click();
    await owner.getByText("Copy the key now").waitFor();
    const asked: string[] = [];
    owner.once("dialog", (d) => void (asked.push(d.message()), d.dismiss()));
    await owner.getByRole("button", { name: "Revoke deploy script" }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain("“deploy script”");
    expect(asked[0]).toContain("Scripts and build steps that use it stop working at once");
    expect(await owner.getByRole("cell", { name: "Revoked", exact: true }).count()).toBe(0);
    owner.once("dialog", (d) => void d.accept());
    await owner.getByRole("button", { name: "Revoke deploy script" }).click();
    await owner.getByText("The key “deploy script” is revoked").waitFor();
    await owner.getByRole("cell", { name: "Revoked", exact: true }).waitFor();
    await owner.getByRole("cell", { name: "revoke api key", exact: true }).waitFor();

    // On a bigger plan the workspace offers "New site", and the new site opens.
    await api("PATCH", `/workspaces/${workspaceId}`, OPERATOR, { plan: "starter" });
    await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your workspaces" }).click();
    await owner.getByRole("link", { name: "Open Journal" }).waitFor();
    await owner.getByRole("button", { name: "New site in Bakery" }).click();
    await owner.getByText("This workspace has 1 of the 3 sites its plan (Starter) allows.").waitFor();
    await checkScreen(owner, "team-08-new-site");
    await owner.getByLabel("New site name").fill("Shop");
    await owner.getByRole("button", { name: "Create site" }).click();
    await owner.getByText("Site “Shop” created.").waitFor();
    await owner.getByRole("banner").getByText("Shop").waitFor();

    // Sam leaves, after a confirmation that says what happens, and lands on his workspaces.
    await member.goto(`${service()}/dashboard/#/workspace/${workspaceId}`);
    await member.getByRole("heading", { name: "Workspace: Bakery" }).waitFor();
    await checkScreen(member, "team-09-leave");
    const leaving: string[] = [];
    member.once("dialog", (d) => void (leaving.push(d.message()), d.accept()));
    await member.getByRole("button", { name: "Leave workspace" }).click();
    await member.getByText("You left “Bakery”.").waitFor();
    expect(leaving[0]).toMatch(/^Leave “Bakery”\? You lose access to its 2 sites at once/);
    await member.getByRole("heading", { name: "Welcome: set up your workspace" }).waitFor();
    await owner.goto(`${service()}/dashboard/#/workspace/${workspaceId}`);
    await owner.getByRole("rowheader", { name: olivia }).waitFor();
    expect(await owner.getByRole("rowheader", { name: sam }).count()).toBe(0);

    // Sam changes his password from Account: the link goes to his own address.
    await member.getByRole("link", { name: "Account" }).click();
    await member.getByRole("button", { name: "Change password" }).click();
    await member.getByText(`We sent the link to ${sam}.`).waitFor();
    await checkScreen(member, "team-10-change-password");
    await member.goto(linkIn(await mailTo(sam, /Reset your password/)));
    await member.getByLabel("New password").fill("a brand new passphrase");
    await member.getByLabel("Repeat the password").fill("a brand new passphrase");
    await member.getByRole("button", { name: "Save new password" }).click();
    await member.getByText("Password changed.").waitFor();
    await member.getByRole("heading", { name: "Welcome: set up your workspace" }).waitFor();

    await other.close();
    await owner.close();
  });

  it("a made-up invitation link says what to do", async () => {
    const page = await newPage();
    expectConsoleError(`status of 404 (Not Found) (${service()}/invitations/lookup)`);
    await page.goto(`${service()}/dashboard/#/invite/iv_aaaaaaaaaaaaaaaa_${"a".repeat(40)}`);
    await page.getByText("This invitation link is not valid").waitFor();
    await page.getByRole("link", { name: "Go to the dashboard" }).waitFor();
    await checkScreen(page, "team-06-invitation-invalid");
    await page.close();
  });
});
