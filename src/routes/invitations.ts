/**
 * The invited person's side of an invitation: what it offers (before they sign in or up) and
 * accepting it with their account. The token names its workspace (`iv_<ws>_…`), which keeps only
 * its hash; accepting pushes the membership to the account before it answers.
 */
import { ApiError } from "../contract/errors";
import { workspaceIdOfInvitation } from "../contract/ids";
import { workspaceMayBeIssued } from "../sites/issued";
import { invitationToken, type Refusal } from "../contract/workspaces";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { clientKey } from "../limits/client";
import { enforce } from "../limits/rate-limit";
import { workspaceStub } from "../stubs";
import { clientOf } from "../access/principal-header";
import { accountOf } from "./principal";
import { notFromOtherOrigin } from "../sessions/cookie";

function answer<T extends object>(result: T | Refusal): Response {
  if ("error" in result) {
    const { error } = result as Refusal;
    throw new ApiError(error.code, error.message, error.details);
  }
  return json(result);
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
      { accountId: account.accountId, email: account.label, name: "" },
      clientOf(request),
    ),
  );
}
