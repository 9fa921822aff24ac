/**
 * Refusals answered before the full path (router, body guard, cache lookup): a request naming a
 * site id nobody was issued, a wrong token of a real site, a client the rate limiter already
 * refused, and a dashboard call with an admin key of no issued site. Each is decided from the
 * shape, from what this isolate remembers (src/edge/issued.ts, src/edge/site-meta.ts,
 * src/limits/rate-limit.ts) or at most one short HMAC, synchronously, and answered with a response built once: an
 * attacker's loop of them costs less than a cached read (`BENCH_ONLY=refused npm run bench`,
 * docs/caching.md). Every answer is byte for byte the one the full path gives.
 */
import { type ErrorCode, errorBody } from "../contract/errors";
import { siteIdOfAdminKey } from "../contract/ids";
import { RATELIMIT_POLICY_HEADER, type RateLimitName } from "../contract/limits";
import { type ContentUrl, keepContentUrl } from "../edge/content-key";
import { knownSiteMeta, knownToken } from "../edge/site-meta";
import { errorResponse } from "../http/errors";
import { setFrontHeaders } from "../http/response-headers";
import { clientKey } from "../limits/client";
import { policyItem, siteRefusal } from "../limits/rate-limit";
import { issuedNow } from "../edge/issued";
import { bearer, isOperatorToken } from "../identity/site-auth";
import { CORS_HEADERS, planRefusal, policiesOf, withCors } from "../content/routes";
import type { RawTarget } from "../http/raw-target";
import { dashboardPolicies } from "../limits/policies";

/** An answer made once and copied per request. */
interface Frozen {
  status: number;
  headers: Headers;
  /**
   * The encoded body; each Response gets its own copy (as a memory-tier hit does, src/edge/cache.ts
   * `edgeHit`): V8 sees the memory a refusal allocates, so it collects the native request state
   * of a loop of refusals in step instead of letting it pile up (docs/caching.md, "Memory").
   */
  body: ArrayBuffer;
}

/**
 * Answers made once, each in its own slot: a refusal looks its answer up by a small number (or
 * by the identity of its policies' shared array), with no key string built and hashed per request.
 */
function slot(slots: (Frozen | undefined)[], i: number, make: () => Frozen): Frozen {
  return (slots[i] ??= make());
}

function thaw(f: Frozen, head: boolean): Response {
  return new Response(head ? null : f.body.slice(0), { status: f.status, headers: f.headers });
}

/** The envelope with the headers the full path adds to it (src/index.ts `full`). */
function envelope(
  code: ErrorCode,
  message: string,
  details: unknown,
  extra: Record<string, string>,
  policies: readonly RateLimitName[],
  https: boolean,
  cors: boolean,
): Frozen {
  const base = errorResponse(code, message, details, extra);
  const headers = new Headers((cors ? withCors(base) : base).headers);
  if (policies.length && !headers.has(RATELIMIT_POLICY_HEADER)) headers.set(RATELIMIT_POLICY_HEADER, policies.map(policyItem).join(", "));
  setFrontHeaders(headers, https, true);
  return {
    status: base.status,
    headers,
    body: new TextEncoder().encode(JSON.stringify(errorBody(code, message, details))).buffer as ArrayBuffer,
  };
}

const unknownTokens: (Frozen | undefined)[] = [];
const unknownToken = (https: boolean): Frozen =>
  slot(unknownTokens, https ? 1 : 0, () => envelope("not_found", "Unknown site token.", undefined, {}, [], https, true));

/**
 * A public content read refused before the full path, or null when the full path must answer
 * (a real token, not refused).
 */
export function contentRefusal(request: Request, env: Env, read: ContentUrl): Response | null {
  const head = request.method === "HEAD";
  const verdict = knownToken(read.token, read.siteId);
  if (verdict === "wrong") return unknown(read.https, head);
  if (verdict === "real") {
    const meta = knownSiteMeta(read.token, read.siteId);
    // A read the plan refuses is the full path's (403); a client its site refused within the Retry-After is refused again.
    if (!meta || planRefusal(meta.plan, read)) return null;
    const kept = siteRefusal(policiesOf(read), () => `${clientKey(request, env)}|${meta.siteId}`);
    if (!kept) return null;
    // A real site's read: remembered like any other, so the client's next request of it parses nothing.
    keepContentUrl(request.url, read);
    return refusedAgain(kept, read.https, head);
  }
  // Not known here: the shape, then the id's MAC (one short synchronous HMAC, remembered).
  return issuedNow(env, read.siteId as string) ? null : unknown(read.https, head);
}

function unknown(https: boolean, head: boolean): Response {
  return thaw(unknownToken(https), head);
}

// The headers of a kept refusal but its Retry-After and policy, per scheme.
const refusedHeaders: (Headers | undefined)[] = [];

/** The site object's 429 again, with the seconds now left. */
function refusedAgain(kept: { body: string; policy: string; retryAfter: number }, https: boolean, head: boolean): Response {
  const base = (refusedHeaders[https ? 1 : 0] ??= (() => {
    const h = new Headers(errorResponse("rate_limited", "").headers);
    for (const [k, v] of Object.entries(CORS_HEADERS)) h.set(k, v);
    setFrontHeaders(h, https, true);
    return h;
  })());
  const headers = new Headers(base);
  headers.set("retry-after", String(kept.retryAfter));
  headers.set(RATELIMIT_POLICY_HEADER, kept.policy);
  return new Response(head ? null : kept.body, { status: 429, headers });
}

const SITE_PATH = /^\/sites\/[^/]+/;

// The 401 per policies (one shared array per combination, src/limits/policies.ts) and scheme.
const wrongKeys = new Map<readonly RateLimitName[], (Frozen | undefined)[]>();

/**
 * A dashboard call (`/sites/:siteId...`, no body) with a site admin key of an id nobody was
 * issued: 401 as `authorizeSite` answers it, with the headers the full path adds, or null for
 * anything else.
 */
export function dashboardRefusal(request: Request, env: Env, target: RawTarget): Response | null {
  if (request.body !== null || !SITE_PATH.test(target.path)) return null;
  const key = bearer(request);
  const keySite = key === null ? null : siteIdOfAdminKey(key);
  if (keySite === null || isOperatorToken(key as string, env) || issuedNow(env, keySite)) return null;
  // Its Bearer credential is a site admin key, so no `operator` policy (policiesFor, without
  // reading the headers and matching the key again).
  const policies = dashboardPolicies(request.method, target.path, false);
  let slots = wrongKeys.get(policies);
  if (!slots) wrongKeys.set(policies, (slots = []));
  const refusal = slot(slots, target.https ? 1 : 0, () =>
    envelope("unauthorized", "Wrong site admin key.", undefined, {}, policies, target.https, false),
  );
  return thaw(refusal, request.method === "HEAD");
}
