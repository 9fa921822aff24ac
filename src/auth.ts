import { ApiError } from "./http/errors";
import { safeEqual, siteIdOfAdminKey } from "./ids";
import { siteStub } from "./stubs";

export type Principal = { kind: "operator" } | { kind: "site"; siteId: string };

export function bearer(request: Request): string | null {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? null;
}

export function isOperator(request: Request, env: Env): boolean {
  const token = bearer(request);
  return token !== null && typeof env.ADMIN_TOKEN === "string" && env.ADMIN_TOKEN !== "" && safeEqual(token, env.ADMIN_TOKEN);
}

export function requireOperator(request: Request, env: Env): void {
  if (!bearer(request)) throw new ApiError("unauthorized", "Send the operator token as Authorization: Bearer <token>.");
  if (!isOperator(request, env)) throw new ApiError("unauthorized", "Wrong operator token.");
}

/**
 * Who may touch `/sites/:siteId`: the operator, or the site's own admin key
 * (checked by the site object). A valid key of another site gets 404, so a
 * key never reveals whether some other site exists.
 */
export async function authorizeSite(request: Request, env: Env, siteId: string): Promise<Principal> {
  if (isOperator(request, env)) return { kind: "operator" };
  const key = bearer(request);
  if (!key) throw new ApiError("unauthorized", "Send the site admin key as Authorization: Bearer <key>.");
  const keySite = siteIdOfAdminKey(key);
  if (!keySite) throw new ApiError("unauthorized", "Wrong site admin key.");
  if (keySite !== siteId) {
    const valid = await siteStub(env, keySite).verifyAdminKey(key);
    if (valid) throw new ApiError("not_found", "No such site.");
    throw new ApiError("unauthorized", "Wrong site admin key.");
  }
  return { kind: "site", siteId };
}
