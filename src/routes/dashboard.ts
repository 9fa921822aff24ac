import type { z } from "zod";
import { authorizeSite, callerOf, requireOperator } from "../auth";
import { forgetAllSites } from "../edge/site-meta";
import { ApiError } from "../contract/errors";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { isSiteId, isWorkspaceId } from "../contract/ids";
import { newAdminKey, newPublicToken, newSiteId, newWorkspaceId } from "../ids";
import { mayBeIssued, siteIdSecret } from "../sites/issued";
import { clientKey } from "../limits/client";
import { enforce } from "../limits/rate-limit";
import { siteStub, workspaceStub } from "../stubs";
import { SESSION_HEADER, OPERATOR_HEADER } from "../contract/headers";
import { fromSite, internalRequest, withBufferedBody } from "./forward";
import { workspaceCreate, siteCreate } from "../contract/sites";
import { type Site } from "../contract/responses";
import { clientOf, principalHeader } from "../access/principal-header";
import type { PrincipalHeader } from "../contract/principal";
import { apiKeyPrincipal, workspacePrincipal } from "./principal";

function workspaceId(raw: string | undefined): string {
  if (!raw || !isWorkspaceId(raw)) throw new ApiError("not_found", "No such workspace.");
  return raw;
}

export async function createWorkspace(request: Request, env: Env): Promise<Response> {
  await requireOperator(request, env);
  await enforce(env, "writes", `${clientKey(request, env)}|operator`);
  const input = parseBody(workspaceCreate, await readJsonObject(request), "workspace");
  const id = newWorkspaceId();
  const workspace = await workspaceStub(env, id).create({
    id,
    ...input,
    by: { principal: { kind: "operator" }, client: clientOf(request) },
  });
  return json({ workspace }, 201);
}

/**
 * Everything under /workspaces/:id is the workspace object's (members, invitations, API keys, the
 * audit log, its name and plan); the front Worker says who is calling and the workspace checks
 * their role (src/access/).
 */
export async function workspaceDashboard(request: Request, env: Env, id: string | undefined): Promise<Response> {
  const principal = await workspacePrincipal(request, env);
  const wsId = workspaceId(id);
  if (request.method !== "GET" && request.method !== "HEAD") await enforce(env, "writes", `${clientKey(request, env)}|${wsId}`);
  const response = await workspaceStub(env, wsId).fetch(
    internalRequest(await withBufferedBody(request), principalHeader(principal, request)),
  );
  // A plan change reached every site; this isolate's copies of site facts follow at once.
  if (request.method === "PATCH" && response.ok && new URL(request.url).pathname.split("/").length === 3) forgetAllSites();
  return response;
}

export async function createSite(request: Request, env: Env): Promise<Response> {
  await requireOperator(request, env);
  await enforce(env, "writes", `${clientKey(request, env)}|operator`);
  const input = parseBody(siteCreate, await readJsonObject(request), "site");
  const secret = siteIdSecret(env);
  if (!secret) throw new ApiError("not_configured", "Set the SITE_ID_SECRET secret (16 characters or more) before creating sites.");
  const siteId = await newSiteId(secret);
  const by: PrincipalHeader = { principal: { kind: "operator" }, client: clientOf(request) };
  let wsId = input.workspaceId;
  if (wsId === undefined) {
    wsId = newWorkspaceId();
    await workspaceStub(env, wsId).create({ id: wsId, name: input.name, plan: input.plan ?? "starter", by });
  }
  // The workspace registers and audits the site (the operator is held to no plan limit).
  const added = isWorkspaceId(wsId) ? await workspaceStub(env, wsId).addSiteAs(siteId, input.name, by) : null;
  if (!added || "error" in added) throw new ApiError("not_found", `No workspace "${wsId}".`, { workspaceId: wsId });
  const workspace = added.workspace;
  const token = newPublicToken(siteId);
  const adminKey = newAdminKey(siteId);
  const stub = siteStub(env, siteId);
  await stub.init({ id: siteId, name: input.name, workspaceId: workspace.id, plan: workspace.plan, token, adminKey });
  const response = await stub.fetch(
    internalRequest(new Request(`${new URL(request.url).origin}/sites/${siteId}`), { [OPERATOR_HEADER]: "1" }),
  );
  const body = (await response.json()) as { site: z.infer<typeof Site> };
  // The admin key is shown once, here; the site keeps only its hash.
  return json({ site: { ...body.site, adminKey } }, 201);
}

/** Everything under /sites/:siteId is the site object's; the front Worker checks who is calling. */
export async function siteDashboard(request: Request, env: Env, siteId: string | undefined): Promise<Response> {
  if (!siteId || !isSiteId(siteId)) {
    await authorizeSite(request, env, "-");
    throw new ApiError("not_found", "No such site.");
  }
  // A workspace API key: its workspace vouched for it; the site checks that it is one of its own.
  const keyPrincipal = await apiKeyPrincipal(request, env);
  if (keyPrincipal) return siteRequest(request, env, siteId, principalHeader(keyPrincipal, request));
  const principal = await authorizeSite(request, env, siteId);
  // Who is calling travels with every request (PRINCIPAL_HEADER: the site's role checks and audit
  // log, src/access/); the legacy headers stay as they were.
  const extra: Record<string, string> = {
    ...principalHeader(callerOf(principal), request),
    ...(principal.kind === "operator"
      ? { [OPERATOR_HEADER]: "1" }
      : principal.kind === "site" && principal.session
        ? { [SESSION_HEADER]: principal.session }
        : {}),
  };
  return siteRequest(request, env, siteId, extra);
}

async function siteRequest(request: Request, env: Env, siteId: string, extra: Record<string, string>): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    await enforce(env, "writes", `${clientKey(request, env)}|${siteId}`);
    const path = new URL(request.url).pathname;
    if (/\/ssr\/(?:capture|refresh)$/.test(path) && (request.method === "PUT" || request.method === "POST"))
      await enforce(env, "capture", siteId);
  }
  // The operator may name any id; one nobody was issued is answered here, costing no object.
  if (!(await mayBeIssued(env, siteId))) throw new ApiError("not_found", "No such site.");
  return fromSite(siteId, await siteStub(env, siteId).fetch(internalRequest(await withBufferedBody(request), extra)));
}
