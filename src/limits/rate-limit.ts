/**
 * The Workers Rate Limiting bindings behind one small interface: `enforce` counts a request
 * against a policy of src/contract/limits.ts and refuses it with 429 `rate_limited` (with
 * Retry-After and RateLimit-Policy) once the policy's quota is spent. A deployment without the
 * binding (a configuration that omits it) counts nothing.
 */
import { ApiError } from "../contract/errors";
import { RATE_LIMITS, RATELIMIT_POLICY_HEADER, type RateLimitName, type SiteLimitName } from "../contract/limits";
import { REFUSED_HEADER } from "../contract/headers";
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../shared/bounded-map";

interface RateLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** The `RateLimit-Policy` item of a policy (draft-ietf-httpapi-ratelimit-headers-11). */
export function policyItem(name: RateLimitName): string {
  const p = RATE_LIMITS[name];
  return `"${name}";q=${p.quota};w=${p.window}`;
}

export function rateLimited(names: RateLimitName[], retryAfter: number, message: string): ApiError {
  return new ApiError(
    "rate_limited",
    message,
    { retryAfterSeconds: retryAfter, policy: names[0] },
    {
      "retry-after": String(retryAfter),
      [RATELIMIT_POLICY_HEADER]: names.map(policyItem).join(", "),
    },
  );
}

/** The 429 of one policy (the binding tells no reset time: the window is the most a client waits). */
export function policyRefusal(name: RateLimitName): ApiError {
  const policy = RATE_LIMITS[name];
  return rateLimited(
    [name],
    policy.window,
    `Too many requests (${policy.quota} per ${policy.window} s per ${policy.per}). Retry after ${policy.window} seconds.`,
  );
}

// Keys refused, per isolate, until the Retry-After they were given has passed (bounded; the oldest
// goes first): by the binding, or by a site object (its answer kept, to give again). A refused
// client is then refused from memory, with no limiter or site-object call and (for content reads,
// src/routing/refusals.ts) no cache lookup: its loop costs less than a cached read.
// (BoundedMap: evicting through a new Map iterator each time walks the holes of earlier evictions.)
const MAX_REFUSED = 10_000;
interface Refusal {
  until: number;
  /** A site object's answer (its body and RateLimit-Policy), for refusals of a site's own limits. */
  body?: string;
  policy?: string;
}
const refused = new BoundedMap<string, Refusal>(MAX_REFUSED, 8 * 1024 * 1024);

function refusalOf(name: string, key: string | (() => string)): Refusal | null {
  if (refused.size === 0) return null;
  const k = `${name}|${typeof key === "string" ? key : key()}`;
  const r = refused.get(k);
  if (r === undefined) return null;
  if (r.until > Date.now()) return r;
  refused.delete(k);
  return null;
}

/**
 * Whether `key` was refused under `name` by this isolate within the Retry-After it was told. The
 * key may be given as a function: it is worked out only when some client was refused.
 */
export function isRefused(name: RateLimitName | SiteLimitName, key: string | (() => string)): boolean {
  return refusalOf(name, key) !== null;
}

/** Throws the policy's 429 when this isolate refused `key` under it within its Retry-After. */
export function refuseIfRefused(name: RateLimitName, key: string): void {
  if (isRefused(name, key)) throw policyRefusal(name);
}

/**
 * Keeps a site object's 429 (REFUSED_HEADER names its policy) for `key` until its Retry-After,
 * so the client's next requests are refused here with the same answer. Returns the response.
 */
export async function noteSiteRefusal(response: Response, key: string): Promise<Response> {
  const name = response.status === 429 ? response.headers.get(REFUSED_HEADER) : null;
  if (name === null) return response;
  const seconds = Number(response.headers.get("retry-after"));
  const body = await response.text();
  const policy = response.headers.get(RATELIMIT_POLICY_HEADER) ?? "";
  const k = `${name}|${key}`;
  refused.set(
    k,
    { until: Date.now() + Math.max(1, seconds) * 1000, body, policy },
    stringBytes(k) + stringBytes(body) + stringBytes(policy) + ENTRY_OVERHEAD,
  );
  const headers = new Headers(response.headers);
  headers.delete(REFUSED_HEADER);
  return new Response(body, { status: 429, headers });
}

/** A site object's refusal of `key` under one of `names` that this isolate keeps: its body, its policy and the seconds left. */
export function siteRefusal(
  names: readonly SiteLimitName[],
  key: string | (() => string),
): { body: string; policy: string; retryAfter: number } | null {
  if (refused.size === 0) return null;
  const k = typeof key === "string" ? key : key();
  for (const name of names) {
    const r = refusalOf(name, k);
    if (r?.body !== undefined)
      return { body: r.body, policy: r.policy ?? "", retryAfter: Math.max(1, Math.ceil((r.until - Date.now()) / 1000)) };
  }
  return null;
}

/**
 * Counts one request under `key` against `name`; throws 429 once its quota is spent. The key may be
 * given as a function: a deployment without the binding never works it out.
 */
export async function enforce(env: Env, name: RateLimitName, key: string | (() => string)): Promise<void> {
  const policy = RATE_LIMITS[name];
  const limiter = (env as unknown as Record<string, RateLimiter | undefined>)[policy.binding];
  if (!limiter) return;
  const client = typeof key === "string" ? key : key();
  if (isRefused(name, client)) throw policyRefusal(name);
  const k = `${name}|${client}`;
  const { success } = await limiter.limit({ key: k });
  if (!success) {
    refused.set(k, { until: Date.now() + policy.window * 1000 }, stringBytes(k) + ENTRY_OVERHEAD);
    throw policyRefusal(name);
  }
}

/** Names the policies that govern an answer, whatever its status, after any the answer names itself (a site object's). */
export function withPolicies(response: Response, names: readonly RateLimitName[]): Response {
  if (!names.length) return response;
  const own = response.headers.get(RATELIMIT_POLICY_HEADER);
  const items = names.map(policyItem).filter((item) => own === null || !own.includes(item));
  if (!items.length) return response;
  const value = own === null ? items.join(", ") : `${own}, ${items.join(", ")}`;
  let out = response;
  try {
    out.headers.set(RATELIMIT_POLICY_HEADER, value);
  } catch {
    out = new Response(response.body, response);
    out.headers.set(RATELIMIT_POLICY_HEADER, value);
  }
  return out;
}
