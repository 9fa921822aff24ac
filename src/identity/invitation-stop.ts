/**
 * The "stop invitation mails" link of an invitation mail: a token signed with AUTH_SECRET for the
 * `invitation-mail-stop` purpose, naming the address only by the account id derived from it (the
 * Account object that keeps the choice). Stateless, like a sign-up link: nothing is stored until
 * someone uses it, and whoever holds it can do one thing only, for that one address. It lasts a
 * year, because people answer old mail.
 */
import { openToken, signToken } from "./tokens";
import { accountIdOf, isAccountId, normaliseEmail } from "./email";

export const INVITATION_STOP_TTL_MS = 365 * 86_400_000;

/** The account id an invited address names: the Account object that keeps its mail preferences. */
export async function recipientAccountId(email: string): Promise<string> {
  return accountIdOf(normaliseEmail(email) ?? email.trim().toLowerCase());
}

/** The link for the address whose account id is `recipient`; its secret is in the fragment. */
export async function invitationStopLink(secret: string, origin: string, recipient: string, now = Date.now()): Promise<string> {
  const token = await signToken(secret, "invitation-mail-stop", { a: recipient }, now + INVITATION_STOP_TTL_MS);
  return `${origin}/dashboard/#/stop-invitations/${token}`;
}

/** The account id a stop link names, or why it cannot be used. */
export async function openInvitationStop(
  secret: string,
  token: string,
  now = Date.now(),
): Promise<{ ok: true; recipient: string } | { ok: false; reason: "invalid" | "expired" }> {
  const opened = await openToken(secret, "invitation-mail-stop", token, now);
  if (!opened.ok) return opened;
  const a = opened.payload.a;
  return typeof a === "string" && isAccountId(a) ? { ok: true, recipient: a } : { ok: false, reason: "invalid" };
}
