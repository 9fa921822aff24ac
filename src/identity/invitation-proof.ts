/**
 * The proof of the invited address that only an invitation mail carries: a token signed with
 * AUTH_SECRET for the `invitation-address` purpose, naming the invitation (by its token's SHA-256)
 * and the address, until the invitation expires. The invitation's own token cannot prove the
 * address, since the inviter is shown it (to share); the proof goes only into the mail to that
 * address, so whoever holds it read that mailbox, as a sign-up link proves. With it, accepting can
 * create the account at once, without a second confirmation mail.
 */
import { sha256Hex } from "../ids";
import { normaliseEmail } from "./email";
import { openToken, signToken } from "./tokens";

/** The proof for the invitation `token` mailed to `email`, valid as long as the invitation. */
export async function invitationProof(secret: string, token: string, email: string, expiresAt: number): Promise<string> {
  return signToken(secret, "invitation-address", { h: await sha256Hex(token), e: email }, expiresAt);
}

/** The address a proof names for this invitation token, or why it proves nothing. */
export async function openInvitationProof(
  secret: string,
  proof: string,
  token: string,
  now = Date.now(),
): Promise<{ ok: true; email: string } | { ok: false; reason: "invalid" | "expired" }> {
  const opened = await openToken(secret, "invitation-address", proof, now);
  if (!opened.ok) return opened;
  const { h, e } = opened.payload;
  const email = typeof e === "string" ? normaliseEmail(e) : null;
  // A proof made for another invitation proves nothing about this one.
  if (typeof h !== "string" || h !== (await sha256Hex(token)) || !email) return { ok: false, reason: "invalid" };
  return { ok: true, email };
}
