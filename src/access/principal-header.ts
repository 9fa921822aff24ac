/**
 * The PRINCIPAL_HEADER both ways: the front Worker writes who is calling, the site and workspace
 * objects read it. Only the front Worker can set an `x-oc-` header (src/edge/forward.ts drops a
 * client's), so the objects trust what they read; the shape is still checked, so a bug upstream
 * fails closed instead of granting something.
 */
import { PRINCIPAL_HEADER } from "../contract/headers";
import { isRole, MAX_MEMBERSHIPS, type Membership, type Principal, type PrincipalHeader } from "../contract/principal";

/** Where the request came from, for the audit log. */
export function clientOf(request: Request): PrincipalHeader["client"] {
  const cf = (request as { cf?: { country?: unknown } }).cf;
  return {
    ip: request.headers.get("cf-connecting-ip"),
    country: typeof cf?.country === "string" ? cf.country : null,
  };
}

export function principalHeader(principal: Principal, request: Request): Record<string, string> {
  const value: PrincipalHeader = { principal, client: clientOf(request) };
  return { [PRINCIPAL_HEADER]: JSON.stringify(value) };
}

const str = (v: unknown): v is string => typeof v === "string";
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";

function membership(v: unknown): Membership | null {
  if (typeof v !== "object" || v === null) return null;
  const m = v as Record<string, unknown>;
  if (!str(m.workspaceId) || !isRole(m.role)) return null;
  const siteIds =
    m.siteIds === null || m.siteIds === undefined ? null : Array.isArray(m.siteIds) && m.siteIds.every(str) ? m.siteIds : undefined;
  if (siteIds === undefined) return null;
  return { workspaceId: m.workspaceId, workspaceName: str(m.workspaceName) ? m.workspaceName : "", role: m.role, siteIds };
}

function principal(v: unknown): Principal | null {
  if (typeof v !== "object" || v === null) return null;
  const p = v as Record<string, unknown>;
  switch (p.kind) {
    case "operator":
      return { kind: "operator" };
    case "siteKey":
      return str(p.siteId) ? { kind: "siteKey", siteId: p.siteId } : null;
    case "account": {
      if (!str(p.accountId) || !str(p.label) || !Array.isArray(p.memberships) || p.memberships.length > MAX_MEMBERSHIPS) return null;
      const memberships = p.memberships.map(membership);
      if (memberships.some((x) => x === null)) return null;
      const named = str(p.name) && p.name !== "" ? { name: p.name } : {};
      return { kind: "account", accountId: p.accountId, label: p.label, ...named, memberships: memberships as Membership[] };
    }
    case "apiKey":
      if (!str(p.workspaceId) || !str(p.keyId) || !str(p.label) || (p.scope !== "read" && p.scope !== "full") || !strOrNull(p.siteId))
        return null;
      return { kind: "apiKey", workspaceId: p.workspaceId, keyId: p.keyId, label: p.label, scope: p.scope, siteId: p.siteId };
    default:
      return null;
  }
}

/** The header's value, or null when it is missing or malformed (the request is then refused). */
export function readPrincipalHeader(request: Request): PrincipalHeader | null {
  const raw = request.headers.get(PRINCIPAL_HEADER);
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const h = parsed as Record<string, unknown>;
  const p = principal(h.principal);
  if (!p) return null;
  const c = (typeof h.client === "object" && h.client !== null ? h.client : {}) as Record<string, unknown>;
  return { principal: p, client: { ip: str(c.ip) ? c.ip : null, country: str(c.country) ? c.country : null } };
}
