/**
 * The invited person's side of an invitation: what it offers (before they sign in or up) and
 * accepting it with their account. The token names its workspace (`iv_<ws>_…`), which keeps only
 * its hash; accepting pushes the membership to the account before it answers. And the link in an
 * invitation mail that stops every invitation mail to the address, which needs no account.
 */
import { ApiError } from "../contract/errors";
import { workspaceIdOfInvitation } from "../contract/ids";
import { workspaceMayBeIssued } from "../edge/issued";
import { invitationMailStop, invitationToken } from "../contract/workspaces";
import { type Refusal, unlessRefused } from "../contract/refusal";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { clientKey } from "../limits/client";
import { enforce } from "../limits/rate-limit";
import { accountStub, workspaceStub } from "../stubs";
import { authSecret } from "../ids";
import { openInvitationStop } from "../identity/invitation-stop";
import { clientOf } from "../access/principal-header";
import { accountOf } from "../identity/principal";
import { notFromOtherOrigin } from "../identity/session-cookie";

function answer<T extends object>(result: T | Refusal): Response {
  return json(unlessRefused(result));
}

async function tokenOf(request: Request, env: Env): Promise<{ token: string; workspaceId: string }> {
  const { token } = parseBody(invitationToken, await readJsonObject(request), "invitation");
  const workspaceId = workspaceIdOfInvitation(token);
  if (!workspaceId || !workspaceMayBeIssued(env, workspaceId))
    throw new ApiError("not_found", "This invitation link is not valid. Ask for a new one.");
  return { token, workspaceId };
}

export async function lookupInvitation(request: Request, env: Env): Promise<Response> {
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", "Open the invitation from the dashboard's own page.");
  // Guessing tokens costs time, as guessing keys does.
  await enforce(env, "operator", clientKey(request, env));
  const { token, workspaceId } = await tokenOf(request, env);
  return answer(await workspaceStub(env, workspaceId).lookupInvitation(token));
}

export async function acceptInvitation(request: Request, env: Env): Promise<Response> {
  const account = await accountOf(request, env);
  if (!account) throw new ApiError("unauthorized", "Sign in (or create your account) to accept the invitation.");
  await enforce(env, "account", `account:${account.accountId}`);
  const { token, workspaceId } = await tokenOf(request, env);
  return answer(
    await workspaceStub(env, workspaceId).acceptInvitation(
      token,
      { accountId: account.accountId, email: account.label, name: account.name ?? "" },
      clientOf(request),
    ),
  );
}

/**
 * The "stop invitation mails" link (`#/stop-invitations/<token>`, src/identity/invitation-stop.ts):
 * records on the address's Account object that invitations are not to be mailed to it (or, with
 * `stop: false`, undoes that). No sign-in: the signed token is the proof that the mail reached the
 * address. Without AUTH_SECRET no such link was ever made, so every token is "not valid".
 */
export async function stopInvitationMail(request: Request, env: Env): Promise<Response> {
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", "Open the link from the dashboard's own page.");
  await enforce(env, "operator", clientKey(request, env));
  const { token, stop } = parseBody(invitationMailStop, await readJsonObject(request), "stop link");
  const secret = authSecret(env);
  const opened = secret ? await openInvitationStop(secret, token) : ({ ok: false, reason: "invalid" } as const);
  if (!opened.ok) {
    if (opened.reason === "expired")
      throw new ApiError("gone", "This link has expired (after a year). The newest invitation mail has a link that works.", {
        status: "expired",
      });
    throw new ApiError("not_found", "This link is not valid. Use the link of an invitation mail, exactly as it was sent.");
  }
  await accountStub(env, opened.recipient).setRefusesInvitations(stop);
  return json({ stopped: stop });
}
