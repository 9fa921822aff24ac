import { ApiError } from "../contract/errors";
import { safeEqual } from "../ids";
import { siteIdOfAdminKey } from "../contract/ids";
import { fromOwnOrigin, sessionCookie } from "./session-cookie";
import { sessionOwner } from "./session-policy";
import { mayBeIssued } from "../edge/issued";
import { clientKey } from "../limits/client";
import { enforce, refuseIfRefused } from "../limits/rate-limit";
import { operatorSessionsStub, siteStub } from "../stubs";
import type { Principal as Caller } from "../contract/principal";
import { type AccountPrincipal, accountPrincipal, verifyAccountSession } from "./account-session";
import type { VerifiedSession } from "./account-types";

/**
 * Who is calling. A site owner signed in to the dashboard carries the session id the site object
 * checks; a person signed in with their account carries the contract's Principal (PRINCIPAL_HEADER).
 */
export type Principal =
  | { kind: "operator" }
  | { kind: "site"; siteId: string; session?: string }
  | { kind: "account"; siteId: string; principal: AccountPrincipal };

/** The contract's Principal of a caller authorised for a site, as PRINCIPAL_HEADER carries it. */
export function callerOf(principal: Principal): Caller {
  if (principal.kind === "operator") return { kind: "operator" };
  if (principal.kind === "site") return { kind: "siteKey", siteId: principal.siteId };
  return principal.principal;
}

export function bearer(request: Request): string | null {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? null;
}

export function isOperatorToken(token: string, env: Env): boolean {
  return typeof env.ADMIN_TOKEN === "string" && env.ADMIN_TOKEN !== "" && safeEqual(token, env.ADMIN_TOKEN);
}

/**
 * The dashboard session the request's cookie names, if the request may use it.
 * `Authorization` wins over a cookie, so scripts are never affected by one; a
 * state-changing request made with the cookie from another origin is refused.
 */
export function cookieSession(request: Request): string | null {
  if (bearer(request) !== null) return null;
  const id = sessionCookie(request);
  if (id === null) return null;
  if (!fromOwnOrigin(request)) {
    throw new ApiError("forbidden", "Changes made with a dashboard session must come from the dashboard's own page.");
  }
  return id;
}

/**
 * The signed-in account of a request made with an account session cookie (a state-changing
 * request from the dashboard's own origin only), for the account's own endpoints.
 */
export async function requireAccount(request: Request, env: Env): Promise<{ sessionId: string; verified: VerifiedSession }> {
  const id = cookieSession(request);
  const verified = id === null ? null : await verifyAccountSession(env, id);
  if (id === null || !verified) throw new ApiError("unauthorized", "Sign in with your account to see this.");
  return { sessionId: id, verified };
}

async function isOperator(request: Request, env: Env): Promise<boolean> {
  const token = bearer(request);
  // A wrong operator token is counted per client, and a client over the count is refused even
  // the right one until its Retry-After: guessing costs time, the operator's own calls nothing.
  if (token !== null && siteIdOfAdminKey(token) === null) {
    const client = clientKey(request, env);
    refuseIfRefused("operator", client);
    if (isOperatorToken(token, env)) return true;
    await enforce(env, "operator", client);
    return false;
  }
  if (token !== null) return isOperatorToken(token, env);
  const id = cookieSession(request);
  if (id === null || sessionOwner(id)?.kind !== "operator") return false;
  return (await operatorSessionsStub(env).verify(id)) !== null;
}

export async function requireOperator(request: Request, env: Env): Promise<void> {
  if (await isOperator(request, env)) return;
  if (bearer(request) !== null) throw new ApiError("unauthorized", "Wrong operator token.");
  throw new ApiError("unauthorized", "Sign in as the operator, or send the operator token as Authorization: Bearer <token>.");
}

/**
 * Who may touch `/sites/:siteId`: the operator, or the site's own admin key or
 * dashboard session (both checked by the site object). A valid key or session
 * of another site gets 404, so neither reveals whether some other site exists.
 */
export async function authorizeSite(request: Request, env: Env, siteId: string): Promise<Principal> {
  if (await isOperator(request, env)) return { kind: "operator" };
  const key = bearer(request);
  if (key !== null) {
    const keySite = siteIdOfAdminKey(key);
    if (!keySite || !(await mayBeIssued(env, keySite))) throw new ApiError("unauthorized", "Wrong site admin key.");
    if (keySite !== siteId) {
      if (await siteStub(env, keySite).verifyAdminKey(key)) throw new ApiError("not_found", "No such site.");
      throw new ApiError("unauthorized", "Wrong site admin key.");
    }
    return { kind: "site", siteId };
  }
  const session = cookieSession(request);
  const owner = session === null ? null : sessionOwner(session);
  if (session !== null && owner?.kind === "account") {
    // Whether the account may see this site is the site's and workspace's to decide (its memberships travel along).
    const verified = await verifyAccountSession(env, session);
    if (!verified) throw new ApiError("unauthorized", "Your dashboard session has ended; sign in again.");
    return { kind: "account", siteId, principal: accountPrincipal(verified) };
  }
  if (session === null || owner?.kind !== "site") {
    throw new ApiError("unauthorized", "Sign in to the dashboard, or send the site admin key as Authorization: Bearer <key>.");
  }
  if (!(await mayBeIssued(env, owner.siteId))) throw new ApiError("unauthorized", "Your dashboard session has ended; sign in again.");
  if (owner.siteId !== siteId) {
    if (await siteStub(env, owner.siteId).verifySession(session)) throw new ApiError("not_found", "No such site.");
    throw new ApiError("unauthorized", "Your dashboard session has ended; sign in again.");
  }
  return { kind: "site", siteId, session };
}
