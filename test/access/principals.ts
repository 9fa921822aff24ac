/**
 * Requests to a site object as the front Worker sends them for an account or an API key: the
 * principal header set, nothing else. Used by the role tests before (and besides) the full sign-in
 * path, so each role can be tried on each operation without building accounts.
 */
import { env } from "cloudflare:workers";
import { PRINCIPAL_HEADER } from "../../src/contract/headers";
import type { Principal, Role } from "../../src/contract/principal";
import { ORIGIN } from "../helpers";

export function asMember(accountId: string, workspaceId: string, role: Role, siteIds: string[] | null = null): Principal {
  return {
    kind: "account",
    accountId,
    label: `${accountId}@example.com`,
    memberships: [{ workspaceId, workspaceName: "Acme", role, siteIds }],
  };
}

export async function siteCall(
  siteId: string,
  principal: Principal,
  method: string,
  path: string,
  body?: unknown,
  client: { ip: string | null; country: string | null } = { ip: "203.0.113.7", country: "NL" },
): Promise<{ status: number; body: { error?: { code: string; details?: { permission?: string } } } & Record<string, unknown> }> {
  const headers = new Headers({ [PRINCIPAL_HEADER]: JSON.stringify({ principal, client }) });
  if (body !== undefined) headers.set("content-type", "application/json");
  const res = await env.SITE.get(env.SITE.idFromName(siteId)).fetch(
    new Request(`${ORIGIN}/sites/${siteId}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  const text = await res.text();
  // Exports answer CSV: only JSON answers have a body to read here.
  const isJson = res.headers.get("content-type")?.startsWith("application/json") && !res.headers.has("content-disposition");
  return { status: res.status, body: text && isJson ? JSON.parse(text) : {} };
}
