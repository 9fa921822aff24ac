/**
 * Every mail's text and HTML, built by one function that escapes for HTML. Links carry their
 * secret in the URL fragment (`#/reset/<token>`): a fragment never reaches a server log or a
 * Referer; the page sends it in a request body.
 */
import { escapeAttr, escapeHtml } from "../shared/escape";
import type { Mail, MailKind } from "./types";

interface Link {
  label: string;
  url: string;
}

interface Part {
  /** Paragraphs of plain text. */
  lines: string[];
  link?: Link;
  /** A last paragraph with its own link, after the main one (an invitation's "stop these mails"). */
  footer?: { line: string; link: Link };
}

function build(kind: MailKind, to: string, subject: string, part: Part): Mail {
  const text = [
    ...part.lines,
    ...(part.link ? ["", `${part.link.label}: ${part.link.url}`] : []),
    ...(part.footer ? ["", part.footer.line, `${part.footer.link.label}: ${part.footer.link.url}`] : []),
    "",
    "— open-content-edge",
  ].join("\n");
  const anchor = (l: Link) => `<a href="${escapeAttr(l.url)}">${escapeHtml(l.label)}</a>`;
  const html = [
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">`,
    ...part.lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    part.link ? `<p>${anchor(part.link)}</p>` : "",
    part.footer ? `<p style="color:#666">${escapeHtml(part.footer.line)} ${anchor(part.footer.link)}</p>` : "",
    `<p style="color:#666">— open-content-edge</p></body></html>`,
  ].join("");
  return { kind, to, subject, text, html };
}

/**
 * A name someone else chose, fit to quote on one line of a mail: control and bidirectional
 * formatting characters out, every run of white space one space, so it cannot start paragraphs
 * of its own or reorder the text around it.
 */
export function quotedName(name: string): string {
  return name
    .replace(/[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export const verifyEmailMail = (to: string, url: string): Mail =>
  build("verify_email", to, "Confirm your email address", {
    lines: [
      "Someone (we hope you) asked to create an open-content-edge account with this address.",
      "Open the link below within 24 hours to confirm it and choose your password. If it was not you, ignore this mail: no account is made.",
    ],
    link: { label: "Confirm and create your account", url },
  });

export const accountExistsMail = (to: string, signInUrl: string, resetUrl: string): Mail =>
  build("account_exists", to, "You already have an account", {
    lines: [
      "Someone (we hope you) asked to create an open-content-edge account with this address, but it already has one.",
      `Sign in at ${signInUrl}, or if you forgot your password, reset it at ${resetUrl}.`,
    ],
  });

/**
 * An invitation. The workspace's name is chosen by whoever made the workspace (any account), so it
 * stays out of the subject and appears once in the body, labelled as theirs, on a line of its own
 * (escaped in the HTML part like every line). `stopUrl` lets the address refuse every invitation
 * mail from now on, without signing in.
 */
export const invitationMail = (
  to: string,
  what: { workspace: string; role: string; invitedBy: string },
  url: string,
  stopUrl: string,
): Mail =>
  build("invitation", to, "You're invited to a workspace on open-content-edge", {
    lines: [
      `${what.invitedBy} invited you to a workspace on open-content-edge, as ${what.role}.`,
      `Workspace name, as its creator typed it: ${quotedName(what.workspace)}`,
      "The link below works once, for 7 days. Sign in, or create your account with this address, to accept.",
    ],
    link: { label: "Accept the invitation", url },
    footer: {
      line: "Not you, or no more invitations wanted? Nothing happens unless you accept; to stop every invitation mail to this address:",
      link: { label: "Stop invitation mails", url: stopUrl },
    },
  });

export const passwordResetMail = (to: string, url: string): Mail =>
  build("password_reset", to, "Reset your password", {
    lines: [
      "Someone (we hope you) asked to reset the password of your open-content-edge account.",
      "The link below works once, for one hour. Setting a new password signs you out everywhere else. If it was not you, ignore this mail; your password stays as it is.",
    ],
    link: { label: "Choose a new password", url },
  });

/** What a "new sign-in" mail says about the client: browser, country, when (never the session). */
export function signInNotice(
  client: { userAgent: string | null; country: string | null },
  method: string,
): { when: string; client: string; method: string } {
  const ua = (client.userAgent ?? "an unknown browser").slice(0, 120);
  return { when: new Date().toUTCString(), client: `${ua}${client.country ? ` in ${client.country}` : ""}`, method };
}

export const newSignInMail = (to: string, what: { when: string; client: string; method: string }): Mail =>
  build("new_sign_in", to, "New sign-in to your account", {
    lines: [
      `Your open-content-edge account was signed in to ${what.method} from a browser or place not seen before.`,
      `When: ${what.when}. From: ${what.client}.`,
      "If this was you, there is nothing to do. If not, reset your password now and end the sessions you do not know under Account → Sessions.",
    ],
  });

/** Said in every mail about a change to how the account signs in: what to do if it was not them. */
const NOT_YOU =
  "If this was not you, someone can act as you: reset your password now with the link below. A reset signs out every session and removes every passkey, so only you are left with a way in.";

export const passkeyAddedMail = (to: string, passkey: string, what: { when: string; client: string }, secureUrl: string): Mail =>
  build("passkey_added", to, "A passkey was added to your account", {
    lines: [
      `A passkey named "${passkey}" was added to your open-content-edge account.`,
      `When: ${what.when}. From: ${what.client}.`,
      NOT_YOU,
    ],
    link: { label: "Secure your account (reset your password)", url: secureUrl },
  });

export const passkeyRemovedMail = (to: string, passkey: string, what: { when: string; client: string }, secureUrl: string): Mail =>
  build("passkey_removed", to, "A passkey was removed from your account", {
    lines: [
      `The passkey named "${passkey}" was removed from your open-content-edge account; it no longer signs in.`,
      `When: ${what.when}. From: ${what.client}.`,
      NOT_YOU,
    ],
    link: { label: "Secure your account (reset your password)", url: secureUrl },
  });

export const passwordChangedMail = (
  to: string,
  passkeysRemoved: readonly string[],
  what: { when: string; client: string },
  secureUrl: string,
): Mail =>
  build("password_changed", to, "Your password was changed", {
    lines: [
      "The password of your open-content-edge account was changed with a reset link sent to this address. Every other session was signed out.",
      passkeysRemoved.length
        ? `The reset also removed your passkeys: ${passkeysRemoved.map((n) => `"${n}"`).join(", ")}. Add the ones you use again under Account → Passkeys.`
        : "The account had no passkeys.",
      `When: ${what.when}. From: ${what.client}.`,
      "If this was not you, someone can read this mailbox: secure it first, then reset your password again with the link below.",
    ],
    link: { label: "Reset your password", url: secureUrl },
  });
