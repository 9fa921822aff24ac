/**
 * The account side of "who is calling": an `sa_` session cookie becomes a Principal of kind
 * "account" (the Account object answers with the account and its memberships in one hop), sent
 * to the objects behind the front Worker in PRINCIPAL_HEADER. Nothing here is cached per
 * isolate: a removed member's very next request must see the removal.
 */
import type { Principal, PrincipalHeader } from "../contract/principal";
import { PRINCIPAL_HEADER } from "../contract/headers";
import { accountStub } from "../stubs";
import { accountOfSession } from "./tokens";
import type { ClientMeta, VerifiedSession } from "./types";

/** Where the request came from: kept with a session (its owner's list) and in the principal header (audit). */
export function clientMeta(request: Request): ClientMeta {
  const ua = request.headers.get("user-agent");
  const cf = (request as { cf?: { country?: unknown } }).cf;
  return {
    userAgent: ua === null ? null : ua.slice(0, 200),
    ip: request.headers.get("cf-connecting-ip"),
    country: typeof cf?.country === "string" ? cf.country : null,
  };
}

/** The live account session this id names, with its memberships; null when it is not one. */
export async function verifyAccountSession(env: Env, id: string): Promise<VerifiedSession | null> {
  const accountId = accountOfSession(id);
  if (accountId === null) return null;
  return accountStub(env, accountId).verifySession(id);
}

export type AccountPrincipal = Extract<Principal, { kind: "account" }>;

export function accountPrincipal(verified: VerifiedSession): AccountPrincipal {
  return { kind: "account", accountId: verified.account.id, label: verified.account.email, memberships: verified.memberships };
}

/** The header the front Worker sets on a request it forwards for this principal. */
export function principalHeaders(request: Request, principal: Principal): Record<string, string> {
  const { ip, country } = clientMeta(request);
  const header: PrincipalHeader = { principal, client: { ip, country } };
  return { [PRINCIPAL_HEADER]: JSON.stringify(header) };
}
