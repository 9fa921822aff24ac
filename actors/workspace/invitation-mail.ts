/**
 * Whether an invitation to an address is mailed (docs/accounts.md "Invitation mail"). The
 * service's own sender must not become a way to mail strangers, so a mail goes out only when
 *
 * - the address has not said no (its stop link, kept by the address's Account object),
 * - the inviting account has mails left today (INVITATION_MAIL_LIMITS.perInviter, over all its
 *   workspaces: SignInThrottle `invite-by:<account id>`),
 * - the address has not had its share today (`perRecipient`, from every workspace:
 *   SignInThrottle `invite-to:<the address's account id>`),
 * - and the workspace has mails left today (`perWorkspace` by plan: its own `invitations` rows
 *   with `mail_state = 'sent'`, so revoking and inviting again counts every mail).
 *
 * The operator is held to the recipient's rules only, as it is to no member limit. An
 * invitation that is not mailed is still made; the inviter is told why in `mailState`.
 */
import { INVITATION_MAIL_LIMITS } from "../../src/contract/limits";
import type { Plan } from "../../src/contract/plans";
import type { InvitationMailDecision } from "../../src/contract/workspaces";
import { recipientAccountId } from "../../src/identity/invitation-stop";
import { accountStub, signInThrottleStub } from "../../src/stubs";
import { mailedSince } from "./members";

const L = INVITATION_MAIL_LIMITS;

/** What was decided before the invitation row is written, and how to take it back. */
export interface MailTake {
  state: InvitationMailDecision;
  /** Gives back the day's counts this mail took (called when it is not sent after all). */
  undo(): Promise<void>;
}

const NOTHING_TAKEN = async (): Promise<void> => undefined;

/** Whether the workspace has mailed its day's invitations already. */
function workspaceAtLimit(sql: SqlStorage, plan: Plan, inviter: string | null, now: number): boolean {
  return inviter !== null && mailedSince(sql, now - L.windowMs) >= L.perWorkspace[plan];
}

/**
 * What is decided before the invitation row is written: nothing to mail without an address; the
 * workspace's own day count (read here, so a workspace at its limit spends nobody else's count);
 * then the other objects' checks. `inviter` is the inviting account's id, null for the operator.
 */
export async function invitationMail(
  env: Env,
  sql: SqlStorage,
  plan: Plan,
  inviter: string | null,
  email: string | null,
): Promise<MailTake> {
  if (email === null) return { state: "none", undo: NOTHING_TAKEN };
  if (workspaceAtLimit(sql, plan, inviter, Date.now())) return { state: "workspace_limit", undo: NOTHING_TAKEN };
  return takeInvitationMail(env, inviter, email);
}

/**
 * The state the row is written with, inside its transaction: the workspace's count once more,
 * since another invitation may have been mailed while the other objects were asked. The caller
 * gives the counts back (`undo`) when this is not what `invitationMail` decided.
 */
export function settledMailState(sql: SqlStorage, plan: Plan, inviter: string | null, mail: MailTake, now: number): InvitationMailDecision {
  return mail.state === "sent" && workspaceAtLimit(sql, plan, inviter, now) ? "workspace_limit" : mail.state;
}

/**
 * The checks that need other objects, in the order that spends nothing for a refusal: the
 * address's own "no", then the inviter's and the address's day counts (each taken at once, so
 * parallel invitations cannot all pass one look). `inviter` is null for the operator.
 */
async function takeInvitationMail(env: Env, inviter: string | null, email: string, now = Date.now()): Promise<MailTake> {
  const recipient = await recipientAccountId(email);
  if (await accountStub(env, recipient).refusesInvitations()) return { state: "recipient", undo: NOTHING_TAKEN };
  const byInviter = inviter === null ? null : signInThrottleStub(env, `invite-by:${inviter}`);
  if (byInviter && !(await byInviter.take(L.perInviter, L.windowMs, now)).allowed) return { state: "inviter_limit", undo: NOTHING_TAKEN };
  const toRecipient = signInThrottleStub(env, `invite-to:${recipient}`);
  if (!(await toRecipient.take(L.perRecipient, L.windowMs, now)).allowed) {
    await byInviter?.giveBack();
    return { state: "recipient", undo: NOTHING_TAKEN };
  }
  return {
    state: "sent",
    undo: async () => {
      await Promise.all([byInviter?.giveBack(), toRecipient.giveBack()]);
    },
  };
}
