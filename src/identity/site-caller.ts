import { authorizeSite, callerOf } from "./site-auth";
import { ApiError } from "../contract/errors";
import { isSiteId } from "../contract/ids";
import { SESSION_HEADER, OPERATOR_HEADER } from "../contract/headers";
import { principalHeader } from "../access/principal-header";
import { apiKeyPrincipal } from "./principal";
import { clientKey } from "../limits/client";
import { enforce } from "../limits/rate-limit";
import { mayBeIssued } from "../edge/issued";

/**
 * Who is calling a site's dashboard API, as the headers the site object reads (its role checks
 * and audit log, src/access/): an API key its workspace vouched for, or whatever authorizeSite
 * found (the operator, the site's admin key or session, an account).
 */
export async function siteCallerHeaders(request: Request, env: Env, siteId: string | undefined): Promise<Record<string, string>> {
  if (!siteId || !isSiteId(siteId)) {
    await authorizeSite(request, env, "-");
    throw new ApiError("not_found", "No such site.");
  }
  const keyPrincipal = await apiKeyPrincipal(request, env);
  if (keyPrincipal) return principalHeader(keyPrincipal, request);
  const principal = await authorizeSite(request, env, siteId);
  return {
    ...principalHeader(callerOf(principal), request),
    ...(principal.kind === "operator"
      ? { [OPERATOR_HEADER]: "1" }
      : principal.kind === "site" && principal.session
        ? { [SESSION_HEADER]: principal.session }
        : {}),
  };
}

/**
 * An upload's or import's rate limit (each streams a file here, before the site object sees it),
 * then the site id's MAC: an id nobody was issued costs no object.
 */
export async function siteWriteAllowed(request: Request, env: Env, siteId: string): Promise<void> {
  await enforce(env, "account", `${clientKey(request, env)}|${siteId}`);
  if (!(await mayBeIssued(env, siteId))) throw new ApiError("not_found", "No such site.");
}

/**
 * A write that streams its body itself (uploads, imports) and so calls the site object's RPC
 * rather than its HTTP router: the caller's headers (with the request's Authorization, which the
 * object checks again) as pairs, once the write is allowed.
 */
export async function siteWriteCaller(
  request: Request,
  env: Env,
  siteId: string | undefined,
): Promise<{ id: string; auth: [string, string][] }> {
  const headers = await siteCallerHeaders(request, env, siteId);
  const id = siteId!;
  await siteWriteAllowed(request, env, id);
  const auth: [string, string][] = Object.entries(headers);
  const authorization = request.headers.get("authorization");
  if (authorization) auth.push(["authorization", authorization]);
  return { id, auth };
}
