/**
 * Whether an invitation was mailed, in words (`mailState` of an invitation, docs/accounts.md "Invitation
 * mail"). An invitation that was not mailed still works: its link is shown once, to share.
 */
import type { InvitationMailState as MailState } from "../../src/contract/workspaces";

/** A short note for the list of pending invitations. */
export const MAIL_NOTE: Readonly<Record<MailState, string>> = {
  none: "shared link",
  sent: "mailed",
  recipient: "not mailed: the address is not taking invitation mail",
  workspace_limit: "not mailed: the workspace's invitation mails for today are used up",
  inviter_limit: "not mailed: your invitation mails for today are used up",
  not_configured: "not mailed: this service has no mail set up",
  failed: "not mailed: the mail could not be sent",
};

/** What the inviter is told once the invitation is made. */
export function mailWords(state: MailState, email: string | null): string {
  switch (state) {
    case "none":
      return "";
    case "sent":
      return `Invitation mailed to ${email ?? "the address"}.`;
    case "recipient":
      return `It was not mailed: ${email ?? "the address"} is not taking invitation mail from this service now. Share the link with them yourself.`;
    case "workspace_limit":
      return "It was not mailed: this workspace has sent as many invitation mails as its plan allows in 24 hours. Share the link yourself.";
    case "inviter_limit":
      return "It was not mailed: you have sent as many invitation mails as one person may in 24 hours. Share the link yourself.";
    case "not_configured":
      return `It was not mailed to ${email ?? "the address"}: this service has no mail set up. Copy the link below and send it to them yourself.`;
    case "failed":
      return `It could not be mailed to ${email ?? "the address"}: the mail service did not take it. Copy the link below and send it to them yourself, or withdraw it and invite again later.`;
  }
}
