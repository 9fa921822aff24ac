/**
 * The invited person's side of an invitation: what it offers (before they sign in or up) and
 * accepting it with their account. The token names its workspace (`iv_<ws>_…`), which keeps only
 * its hash; accepting pushes the membership to the account before it answers. A person without an
 * account accepts from the mailed link in one step: its proof of the address (only the mail has it)
 * lets the account be made at once, signed in and joined, with no confirmation mail. And the link
 * in an invitation mail that stops every invitation mail to the address, which needs no account.
 */
import { ApiError } from "../contract/errors";
import { workspaceIdOfInvitation } from "../contract/ids";
import { workspaceMayBeIssued } from "../edge/issued";
import { invitationMailStop, invitationToken } from "../contract/workspaces";
import { isRefusal, type Refusal, refusalError, unlessRefused } from "../contract/refusal";
import { acceptWithNewAccountSchema } from "../contract/accounts";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { clientKey } from "../limits/client";
import { enforce } from "../limits/rate-limit";
import { accountStub, workspaceStub } from "../stubs";
import { authSecret } from "../ids";
import { openInvitationStop } from "../identity/invitation-stop";
import { clientOf } from "../access/principal-header";
import { accountOf } from "../identity/principal";
import { notFromOtherOrigin, setSessionCookie } from "../identity/session-cookie";
import { openInvitationProof } from "../identity/invitation-proof";
import { accountIdOf } from "../identity/email";
import { clientMeta } from "../identity/account-session";
import { accountSessionResponse, sameOrigin, secret } from "./routes";
import { log } from "../log";
import type { StartedSession } from "../identity/account-types";

function answer<T extends object>(result: T | Refusal): Response {
  return json(unlessRefused(result));
}

async function tokenOf(request: Request, env: Env): Promise<{ token: string; workspaceId: string }> {
  const { token } = parseBody(invitationToken, await readJsonObject(request), "invitation");
  return { token, workspaceId: workspaceOf(env, token) };
}

function workspaceOf(env: Env, token: string): string {
  const workspaceId = workspaceIdOfInvitation(token);
  if (!workspaceId || !workspaceMayBeIssued(env, workspaceId))
    throw new ApiError("not_found", "This invitation link is not valid. Ask for a new one.");
  return workspaceId;
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

/** Same origin, and the client's tries counted as lookups are: every call that opens an invitation for a new account. */
export async function newAccountCall(request: Request, env: Env): Promise<void> {
  sameOrigin(request, "Accept the invitation");
  await enforce(env, "operator", clientKey(request, env));
}

/**
 * The address the mail's proof shows for this invitation, once the invitation is known to be
 * live: a bad proof is 400, a used, withdrawn or expired invitation 410, before any account is made.
 */
export async function provenInvitation(
  env: Env,
  token: string,
  proof: string,
): Promise<{ email: string; accountId: string; workspace: ReturnType<typeof workspaceStub> }> {
  const workspaceId = workspaceOf(env, token);
  const proved = await openInvitationProof(secret(env), proof, token);
  if (!proved.ok)
    throw new ApiError(
      "bad_request",
      proved.reason === "expired"
        ? "This invitation has expired (after 7 days). Ask the person who invited you for a new one."
        : "This link does not prove your address. Open the invitation from its mail exactly as it was sent, or create your account first.",
      { reason: proved.reason },
    );
  const workspace = workspaceStub(env, workspaceId);
  const offer = await workspace.lookupInvitation(token);
  if (isRefusal(offer)) throw refusalError(offer);
  return { email: proved.email, accountId: await accountIdOf(proved.email), workspace };
}

export const accountExists = (): ApiError =>
  new ApiError("conflict", "This address already has an account. Sign in with it to accept the invitation.", { reason: "account_exists" });

/** Accepts the invitation for the account just made, and answers signed in: `{session, membership}`. */
export async function joinNewAccount(
  request: Request,
  workspace: ReturnType<typeof workspaceStub>,
  token: string,
  made: StartedSession,
): Promise<Response> {
  const accepted = await workspace.acceptInvitation(
    token,
    { accountId: made.account.id, email: made.account.email, name: made.account.name },
    clientOf(request),
  );
  // Withdrawn in the moment since the lookup (or its push failed): the account stands and is
  // signed in all the same, so the refusal is read by someone who can act on it.
  if (isRefusal(accepted)) {
    const e = refusalError(accepted);
    throw new ApiError(e.code, e.message, e.details, { "set-cookie": setSessionCookie(request, made.id) });
  }
  return accountSessionResponse(request, made, { membership: accepted.membership });
}

/**
 * `POST /invitations/accept/new-account {token, proof, password, name?}`: the mailed link's proof
 * shows the address is the invitee's, so the account is made for exactly that address (verified
 * by the mail, as a sign-up link's would be), signed in, and joins the workspace. An address that
 * already has an account signs in and accepts instead (409). Each call costs one KDF run at most,
 * and only with a valid proof and a live invitation.
 */
export async function acceptWithNewAccount(request: Request, env: Env): Promise<Response> {
  await newAccountCall(request, env);
  const input = parseBody(acceptWithNewAccountSchema, await readJsonObject(request), "invitation");
  const proven = await provenInvitation(env, input.token, input.proof);
  const made = await accountStub(env, proven.accountId).create({
    id: proven.accountId,
    email: proven.email,
    name: input.name ?? proven.email.slice(0, proven.email.indexOf("@")),
    password: input.password,
    client: clientMeta(request),
  });
  if (!made) throw accountExists();
  log("account_sign_in", { method: "invitation", result: "ok" });
  return joinNewAccount(request, proven.workspace, input.token, made);
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
