import { cookieSession, isOperatorToken } from "../auth";
import { ApiError } from "../contract/errors";
import { json, readJsonObject } from "../http/json";
import { parseBody } from "../http/validation";
import { siteIdOfAdminKey } from "../contract/ids";
import { clearSessionCookie, notFromOtherOrigin, sessionCookie, setSessionCookie } from "../sessions/cookie";
import { sessionOwner } from "../sessions/policy";
import type { SessionInfo } from "../sessions/store";
import { mayBeIssued, siteExists } from "../sites/issued";
import { operatorSessionsStub, signInThrottleStub, siteStub } from "../stubs";
import { signInSchema } from "../contract/sites";

type Session = SessionInfo & ({ kind: "operator" } | { kind: "site"; siteId: string });

/**
 * Whose attempts count together: the client's address (Cloudflare sets CF-Connecting-IP; an
 * IPv6 client owns its whole /64, so only the first four groups count) and the key's target.
 */
export function throttleKey(request: Request, key: string): string {
  const ip = request.headers.get("cf-connecting-ip") ?? "local";
  const client = ip.includes(":") ? ip.toLowerCase().split(":").slice(0, 4).join(":") : ip;
  return `${client}|${siteIdOfAdminKey(key) ?? "operator"}`;
}

/**
 * `POST /sessions {key}`: exchanges a site admin key or the operator token for a
 * session cookie. Wrong keys cost the client a growing wait (actors/sign-in-throttle.ts).
 */
export async function signIn(request: Request, env: Env): Promise<Response> {
  // A page elsewhere must not sign a visitor in to an account of its choosing.
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", "Sign in from the dashboard's own page.");
  const { key } = parseBody(signInSchema, await readJsonObject(request), "sign-in");
  // A key naming a site nobody was issued is wrong without asking (and without a throttle object for it).
  const target = siteIdOfAdminKey(key);
  if (target !== null && !(await siteExists(env, target))) throw wrongKey(0);
  const throttle = signInThrottleStub(env, throttleKey(request, key));
  const { allowed, waitMs } = await throttle.attempt();
  if (!allowed) throw tooMany(waitMs);
  const made = await startSession(env, key);
  if (!made) throw wrongKey(waitMs);
  await throttle.succeeded();
  return json({ session: made.session }, 201, { "set-cookie": setSessionCookie(request, made.id) });
}

async function startSession(env: Env, key: string): Promise<{ id: string; session: Session } | null> {
  if (isOperatorToken(key, env)) {
    const { id, session } = await operatorSessionsStub(env).create();
    return { id, session: { kind: "operator", ...session } };
  }
  const siteId = siteIdOfAdminKey(key);
  if (!siteId) return null;
  const made = await siteStub(env, siteId).signIn(key);
  return made && { id: made.id, session: { kind: "site", siteId, ...made.session } };
}

function wrongKey(waitMs: number): ApiError {
  return new ApiError(
    "unauthorized",
    waitMs > 0
      ? `That key is not right. Check it and try again in ${Math.ceil(waitMs / 1000)} seconds.`
      : "That key is not right. Check it and try again.",
    { retryAfterSeconds: Math.ceil(waitMs / 1000) },
  );
}

function tooMany(waitMs: number): ApiError {
  const seconds = Math.ceil(waitMs / 1000);
  return new ApiError(
    "rate_limited",
    `Too many wrong keys from your address. Try again in ${seconds} seconds.`,
    { retryAfterSeconds: seconds },
    { "retry-after": String(seconds) },
  );
}

/** `GET /sessions/current`: who the cookie signs in, so the dashboard knows what to show. */
export async function currentSession(request: Request, env: Env): Promise<Response> {
  const id = cookieSession(request);
  const session = id === null ? null : await lookUp(env, id);
  if (!session) throw new ApiError("unauthorized", "Not signed in, or the session has ended.");
  return json({ session });
}

async function lookUp(env: Env, id: string): Promise<Session | null> {
  const owner = sessionOwner(id);
  if (owner?.kind === "operator") {
    const info = await operatorSessionsStub(env).verify(id);
    return info && { kind: "operator", ...info };
  }
  if (owner?.kind === "site" && (await mayBeIssued(env, owner.siteId))) {
    const info = await siteStub(env, owner.siteId).verifySession(id);
    return info && { kind: "site", siteId: owner.siteId, ...info };
  }
  return null;
}

/** `DELETE /sessions/current`: signs out at once (the stored session is deleted, the cookie cleared). */
export async function signOut(request: Request, env: Env): Promise<Response> {
  if (!notFromOtherOrigin(request)) throw new ApiError("forbidden", "Sign out from the dashboard's own page.");
  const id = sessionCookie(request);
  const owner = id === null ? null : sessionOwner(id);
  if (id !== null && owner?.kind === "operator") await operatorSessionsStub(env).end(id);
  if (id !== null && owner?.kind === "site" && (await mayBeIssued(env, owner.siteId))) await siteStub(env, owner.siteId).endSession(id);
  return json({ signedOut: true }, 200, { "set-cookie": clearSessionCookie(request) });
}
