/**
 * Who is calling a workspace operation, or a site operation with a workspace API key. The site's
 * own legacy credentials (admin key, its sessions) stay in src/identity/site-auth.ts; accounts' sessions are
 * turned into a principal there too. Here: API keys (`ak_…`, verified by their workspace) and the
 * operator.
 */
import { ApiError } from "../contract/errors";
import { workspaceIdOfApiKey } from "../contract/ids";
import type { Principal } from "../contract/principal";
import { bearer, cookieSession, requireOperator } from "./site-auth";
import { accountPrincipal, verifyAccountSession } from "./account-session";
import { sessionOwner } from "./session-policy";
import { clientKey } from "../limits/client";
import { enforce, refuseIfRefused } from "../limits/rate-limit";
import { workspaceStub } from "../stubs";
import { workspaceMayBeIssued } from "../edge/issued";

/** The API key principal of the request's `Authorization: Bearer ak_…`; null when it carries no API key. */
export async function apiKeyPrincipal(request: Request, env: Env): Promise<Principal | null> {
  const key = bearer(request);
  if (key === null || !key.startsWith("ak_")) return null;
  const workspaceId = workspaceIdOfApiKey(key);
  // A wrong key is counted per client, as a wrong operator token is: guessing costs time.
  const client = clientKey(request, env);
  refuseIfRefused("operator", client);
  const verified = workspaceId && workspaceMayBeIssued(env, workspaceId) ? await workspaceStub(env, workspaceId).verifyApiKey(key) : null;
  if (!workspaceId || !verified) {
    await enforce(env, "operator", client);
    throw new ApiError("unauthorized", "Wrong or revoked API key.");
  }
  return { kind: "apiKey", workspaceId, keyId: verified.keyId, label: verified.name, scope: verified.scope, siteId: verified.siteId };
}

/** The account signed in with the request's session cookie (from the dashboard's own origin); null without one. */
export async function accountOf(request: Request, env: Env): Promise<Extract<Principal, { kind: "account" }> | null> {
  const id = cookieSession(request);
  if (id === null || sessionOwner(id)?.kind !== "account") return null;
  const verified = await verifyAccountSession(env, id);
  if (!verified) throw new ApiError("unauthorized", "Your dashboard session has ended; sign in again.");
  return accountPrincipal(verified);
}

/** The caller of a workspace operation: a member's session, an API key, or the operator. */
export async function workspacePrincipal(request: Request, env: Env): Promise<Principal> {
  const key = await apiKeyPrincipal(request, env);
  if (key) return key;
  const account = await accountOf(request, env);
  if (account) return account;
  await requireOperator(request, env);
  return { kind: "operator" };
}
