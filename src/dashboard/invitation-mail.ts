/**
 * Mailing an invitation the workspace decided to mail (its `mailState`,
 * actors/workspace/invitation-mail.ts), from the front Worker through the one mail interface.
 *
 * The mail is sent before the answer, and the answer says whether it went: the inviter typed the
 * address, so waiting tells nobody anything about accounts, and an inviter told "mailed" when
 * nothing went would wait for someone who never hears. A mail that did not go is recorded on the
 * invitation (the list says so too), and the answer carries the state the inviter must act on.
 *
 * The mailed link carries, after the token, a proof of the address (src/identity/invitation-proof.ts)
 * that the link shown to the inviter lacks: with it the invitee sets a password at once.
 */
import { authSecret } from "../ids";
import { json } from "../http/json";
import { deliverNow } from "../mail/deliver";
import { invitationMail } from "../mail/templates";
import { invitationStopLink, recipientAccountId } from "../identity/invitation-stop";
import { invitationProof } from "../identity/invitation-proof";
import { ROLE_LABEL, type Principal, type Role } from "../contract/principal";
import type { InvitationMailState } from "../contract/workspaces";
import { workspaceStub } from "../stubs";
import { log } from "../log";

interface Made {
  invitation: { id: string; email: string | null; role: string; expiresAt: string; mailState: InvitationMailState };
  token: string;
  link: string;
  workspaceName: string;
}

/** The answer to `POST /workspaces/:id/invitations` once its mail (if any) was sent or failed. */
export async function mailInvitation(
  request: Request,
  env: Env,
  principal: Principal,
  wsId: string,
  response: Response,
): Promise<Response> {
  const body = (await response.clone().json()) as Made;
  const to = body.invitation.email;
  if (!to || body.invitation.mailState !== "sent") return response;
  const secret = authSecret(env);
  let outcome: "sent" | "failed" | "not_configured";
  if (!secret) {
    // Without AUTH_SECRET there is no stop link to offer, and no invitation goes out without one.
    log("mail_failed", { kind: "invitation", transport: env.MAIL_TRANSPORT || "none", error: "AUTH_SECRET is not set" });
    outcome = "not_configured";
  } else {
    const origin = new URL(request.url).origin;
    const by = principal.kind === "account" || principal.kind === "apiKey" ? principal.label : "The operator";
    const stop = await invitationStopLink(secret, origin, await recipientAccountId(to));
    const proof = await invitationProof(secret, body.token, to, Date.parse(body.invitation.expiresAt));
    outcome = await deliverNow(
      env,
      invitationMail(
        to,
        { workspace: body.workspaceName, role: ROLE_LABEL[body.invitation.role as Role] ?? body.invitation.role, invitedBy: by },
        `${body.link}/${proof}`,
        stop,
      ),
    );
  }
  if (outcome === "sent") return response;
  await workspaceStub(env, wsId).invitationMailFailed(body.invitation.id, outcome);
  return json({ ...body, invitation: { ...body.invitation, mailState: outcome } }, 201);
}
