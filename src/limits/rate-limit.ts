/**
 * The Workers Rate Limiting bindings behind one small interface: `enforce` counts a request
 * against a policy of src/contract/limits.ts and refuses it with 429 `rate_limited` (with
 * Retry-After and RateLimit-Policy) once the policy's quota is spent. A deployment without the
 * binding (a configuration that omits it) counts nothing.
 */
import { ApiError } from "../contract/errors";
import { RATE_LIMITS, RATELIMIT_POLICY_HEADER, type RateLimitName } from "../contract/limits";
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

// Keys the limiter refused, per isolate, until the Retry-After they were given has passed (bounded;
// the oldest goes first). A refused client is then refused from memory, with no limiter call and
// (for content reads, src/edge/refusals.ts) no cache lookup: its loop costs less than a cached read.
// (BoundedMap: evicting through a new Map iterator each time walks the holes of earlier evictions.)
const MAX_REFUSED = 10_000;
const refused = new BoundedMap<string, number>(MAX_REFUSED, 4 * 1024 * 1024);

/**
 * Whether `key` was refused under `name` by this isolate within the Retry-After it was told. The
 * key may be given as a function: it is worked out only when some client was refused.
 */
export function isRefused(name: RateLimitName, key: string | (() => string)): boolean {
  if (refused.size === 0) return false;
  const k = `${name}|${typeof key === "string" ? key : key()}`;
  const until = refused.get(k);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  refused.delete(k);
  return false;
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
    refused.set(k, Date.now() + policy.window * 1000, stringBytes(k) + ENTRY_OVERHEAD);
    throw policyRefusal(name);
  }
}

/** Names the policies that govern an answer, whatever its status. */
export function withPolicies(response: Response, names: readonly RateLimitName[]): Response {
  if (!names.length || response.headers.has(RATELIMIT_POLICY_HEADER)) return response;
  let out = response;
  try {
    out.headers.set(RATELIMIT_POLICY_HEADER, names.map(policyItem).join(", "));
  } catch {
    out = new Response(response.body, response);
    out.headers.set(RATELIMIT_POLICY_HEADER, names.map(policyItem).join(", "));
  }
  return out;
}
