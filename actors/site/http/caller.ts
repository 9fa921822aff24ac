/**
 * Who is calling the site object. Accounts and API keys were verified by the front Worker, which
 * says so in the principal header; the operator's header, a legacy admin key and its sessions are
 * checked here (they are the Owner of this one site).
 */
import { safeEqual, sha256Hex } from "../../../src/ids";
import { OPERATOR_HEADER, SESSION_HEADER } from "../../../src/contract/headers";
import type { Principal, PrincipalHeader } from "../../../src/contract/principal";
import { clientOf, readPrincipalHeader } from "../../../src/access/principal-header";
import { SessionStore } from "../../shared/session-store";
import type { SessionInfo } from "../../../src/identity/session-policy";
import type { SiteContext } from "../context";

/** Whether `key` is the site's admin key (only its SHA-256 is stored). */
export async function verifyAdminKey(s: SiteContext, key: string): Promise<boolean> {
  const site = s.site();
  return site !== null && safeEqual(await sha256Hex(key), site.adminKeyHash);
}

/** The site owner's dashboard session `id`, while it lasts. */
export async function verifySession(s: SiteContext, id: string): Promise<SessionInfo | null> {
  return s.site() ? new SessionStore(s.sql).verify(id) : null;
}

/** The caller of `request`, or null when it names no one this site accepts. */
export async function callerOf(s: SiteContext, request: Request): Promise<PrincipalHeader | null> {
  const header = readPrincipalHeader(request);
  if (header && (header.principal.kind === "account" || header.principal.kind === "apiKey")) return header;
  const client = header?.client ?? clientOf(request);
  let principal: Principal | null = null;
  if (request.headers.get(OPERATOR_HEADER) === "1") principal = { kind: "operator" };
  else {
    const session = request.headers.get(SESSION_HEADER);
    const key = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const ok = session !== null ? (await verifySession(s, session)) !== null : key !== undefined && (await verifyAdminKey(s, key));
    if (ok) principal = { kind: "siteKey", siteId: s.site()!.id };
  }
  return principal ? { principal, client } : null;
}
