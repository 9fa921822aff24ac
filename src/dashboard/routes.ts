import type { z } from "zod";
import { requireOperator } from "../identity/site-auth";
import { forgetAllSites } from "../edge/site-meta";
import { ApiError } from "../contract/errors";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { isWorkspaceId } from "../contract/ids";
import { newAdminKey, newPublicToken, newSiteId, newWorkspaceId } from "../ids";
import { mayBeIssued, siteIdSecret, workspaceMayBeIssued } from "../edge/issued";
import { enforce } from "../limits/rate-limit";
import { credentialKey } from "../limits/credential";
import { siteStub, workspaceStub } from "../stubs";
import { OPERATOR_HEADER } from "../contract/headers";
import { bufferedInternalRequest, fromSite, internalRequest } from "../edge/forward";
import { siteCallerHeaders } from "../identity/site-caller";
import { workspaceCreate, siteCreate } from "../contract/sites";
import { type Site } from "../contract/responses";
import { clientOf, principalHeader } from "../access/principal-header";
import type { PrincipalHeader } from "../contract/principal";
import { accountOf, workspacePrincipal } from "../identity/principal";
import { MAX_MEMBERSHIPS } from "../contract/principal";
import { mailInvitation } from "./invitation-mail";
import { workspaceCreateByAccount } from "../contract/workspaces";
import { isRefusal, refusalError } from "../contract/refusal";

function workspaceId(raw: string | undefined): string {
  if (!raw || !isWorkspaceId(raw)) throw new ApiError("not_found", "No such workspace.");
  return raw;
}

export async function createWorkspace(request: Request, env: Env): Promise<Response> {
  // A signed-in person creates their own workspace on the Free plan and becomes its Owner.
  const account = await accountOf(request, env);
  if (account) {
    await enforce(env, "account", `account:${account.accountId}`);
    const input = parseBody(workspaceCreateByAccount, await readJsonObject(request), "workspace");
    if (account.memberships.length >= MAX_MEMBERSHIPS)
      throw new ApiError("conflict", `An account may belong to at most ${MAX_MEMBERSHIPS} workspaces.`);
    const id = newWorkspaceId(siteIdSecret(env));
    const workspace = await workspaceStub(env, id).create({
      id,
      name: input.name,
      plan: "free",
      owner: { accountId: account.accountId, email: account.label, name: account.name ?? "" },
      by: { principal: account, client: clientOf(request) },
    });
    return json({ workspace }, 201);
  }
  await requireOperator(request, env);
  await enforce(env, "account", "operator");
  const input = parseBody(workspaceCreate, await readJsonObject(request), "workspace");
  const id = newWorkspaceId(siteIdSecret(env));
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
  if (request.method !== "GET" && request.method !== "HEAD") await enforce(env, "account", `${credentialKey(principal)}|${wsId}`);
  // A workspace nobody was given: the answer its object would give, without making the object.
  if (!workspaceMayBeIssued(env, wsId)) throw new ApiError("not_found", "No such workspace.");
  const response = await workspaceStub(env, wsId).fetch(await bufferedInternalRequest(request, principalHeader(principal, request)));
  if (request.method === "POST" && response.status === 201 && new URL(request.url).pathname.endsWith("/invitations"))
    return mailInvitation(request, env, principal, wsId, response);
  // A plan change reached every site (or the workspace and its sites were deleted); this
  // isolate's copies of site facts follow at once.
  if ((request.method === "PATCH" || request.method === "DELETE") && response.ok && new URL(request.url).pathname.split("/").length === 3)
    forgetAllSites();
  return response;
}

export async function createSite(request: Request, env: Env): Promise<Response> {
  // A member with site.create (Owner, Administrator) adds a site to their workspace, within the plan's limit.
  const account = await accountOf(request, env);
  if (!account) await requireOperator(request, env);
  await enforce(env, "account", account ? `account:${account.accountId}` : "operator");
  const input = parseBody(siteCreate, await readJsonObject(request), "site");
  if (account && (input.workspaceId === undefined || input.plan !== undefined))
    throw new ApiError("bad_request", "Name the workspace the site belongs to (`workspaceId`); its plan is the workspace's.", {
      path: "workspaceId",
    });
  const secret = siteIdSecret(env);
  if (!secret) throw new ApiError("not_configured", "Set the SITE_ID_SECRET secret (16 characters or more) before creating sites.");
  const siteId = newSiteId(secret);
  const by: PrincipalHeader = { principal: account ?? { kind: "operator" }, client: clientOf(request) };
  let wsId = input.workspaceId;
  if (wsId === undefined) {
    wsId = newWorkspaceId(secret);
    await workspaceStub(env, wsId).create({ id: wsId, name: input.name, plan: input.plan ?? "starter", by });
  }
  // The workspace registers and audits the site (the operator is held to no plan limit).
  const added = workspaceMayBeIssued(env, wsId) ? await workspaceStub(env, wsId).addSiteAs(siteId, input.name, by) : null;
  if (!added) throw new ApiError("not_found", `No workspace "${wsId}".`, { workspaceId: wsId });
  if (isRefusal(added)) {
    if (added.error.code === "not_found") throw new ApiError("not_found", `No workspace "${wsId}".`, { workspaceId: wsId });
    throw refusalError(added);
  }
  const workspace = added.workspace;
  const token = newPublicToken(siteId);
  const adminKey = newAdminKey(siteId);
  const stub = siteStub(env, siteId);
  // Whoever is shown the key holds it: the site's record of that lets it replace the key if they go.
  const adminKeyBy = account ? account.accountId : "operator";
  await stub.init({ id: siteId, name: input.name, workspaceId: workspace.id, plan: workspace.plan, token, adminKey, adminKeyBy });
  const response = await stub.fetch(
    internalRequest(new Request(`${new URL(request.url).origin}/sites/${siteId}`), { [OPERATOR_HEADER]: "1" }),
  );
  const body = (await response.json()) as { site: z.infer<typeof Site> };
  // The admin key is shown once, here; the site keeps only its hash.
  return json({ site: { ...body.site, adminKey } }, 201);
}

/** Everything under /sites/:siteId is the site object's; the front Worker checks who is calling. */
export async function siteDashboard(request: Request, env: Env, siteId: string | undefined): Promise<Response> {
  // Who is calling travels with every request (PRINCIPAL_HEADER: the site's role checks and audit
  // log, src/access/); the legacy headers stay as they were.
  const extra = await siteCallerHeaders(request, env, siteId);
  return siteRequest(request, env, siteId!, extra);
}

async function siteRequest(request: Request, env: Env, siteId: string, extra: Record<string, string>): Promise<Response> {
  // A site's writes are counted by the site object, per credential and by plan (actors/site/limits/).
  if (request.method !== "GET" && request.method !== "HEAD") {
    // (The path is a part of the URL's text: one without "/ssr/" is no capture, and is not parsed.)
    if (
      (request.method === "PUT" || request.method === "POST") &&
      request.url.includes("/ssr/") &&
      /\/ssr\/(?:capture|refresh)$/.test(new URL(request.url).pathname)
    )
      await enforce(env, "capture", siteId);
  }
  // The operator may name any id; one nobody was issued is answered here, costing no object.
  if (!(await mayBeIssued(env, siteId))) throw new ApiError("not_found", "No such site.");
  return fromSite(siteId, await siteStub(env, siteId).fetch(await bufferedInternalRequest(request, extra)));
}
