/**
 * The account side of "who is calling": an `sa_` session cookie becomes a Principal of kind
 * "account" (the Account object answers with the account and its memberships in one hop), sent
 * to the objects behind the front Worker in PRINCIPAL_HEADER (src/access/principal-header.ts). Nothing here is cached per
 * isolate: a removed member's very next request must see the removal.
 */
import type { Principal } from "../contract/principal";
import { clientOf } from "../access/principal-header";
import { accountStub } from "../stubs";
import { accountOfSession } from "./tokens";
import type { ClientMeta, VerifiedSession } from "./account-types";

/**
 * Where the request came from, kept with a session (its owner's list): the principal header's
 * client (src/access/principal-header.ts, the one place that reads address and country) plus the browser.
 */
export function clientMeta(request: Request): ClientMeta {
  const ua = request.headers.get("user-agent");
  return { userAgent: ua === null ? null : ua.slice(0, 200), ...clientOf(request) };
}

/** The live account session this id names, with its memberships; null when it is not one. */
export async function verifyAccountSession(env: Env, id: string): Promise<VerifiedSession | null> {
  const accountId = accountOfSession(id);
  if (accountId === null) return null;
  return accountStub(env, accountId).verifySession(id);
}

export type AccountPrincipal = Extract<Principal, { kind: "account" }>;

export function accountPrincipal(verified: VerifiedSession): AccountPrincipal {
  return {
    kind: "account",
    accountId: verified.account.id,
    label: verified.account.email,
    name: verified.account.name,
    memberships: verified.memberships,
  };
}
