import type { SiteLimitName } from "../contract/limits";
import { RATELIMIT_POLICY_HEADER } from "../contract/limits";
import { errorResponse } from "../http/errors";
import { siteRefusal } from "../limits/rate-limit";

/**
 * A miss for a client its site refused within the Retry-After (under one of `names`): the site
 * object's 429 again, with the seconds now left, without calling it. Null when not refused.
 */
export function keptRefusal(names: readonly SiteLimitName[], client: string, extra?: Readonly<Record<string, string>>): Response | null {
  const kept = siteRefusal(names, client);
  if (!kept) return null;
  const headers = new Headers(errorResponse("rate_limited", "", undefined, extra).headers);
  headers.set("retry-after", String(kept.retryAfter));
  headers.set(RATELIMIT_POLICY_HEADER, kept.policy);
  return new Response(kept.body, { status: 429, headers });
}

/** The answer naming the limits it was counted under (a copy when its headers are immutable). */
export function withPolicy(response: Response, policy: string): Response {
  if (response.headers.has(RATELIMIT_POLICY_HEADER)) return response;
  try {
    response.headers.set(RATELIMIT_POLICY_HEADER, policy);
    return response;
  } catch {
    const out = new Response(response.body, response);
    out.headers.set(RATELIMIT_POLICY_HEADER, policy);
    return out;
  }
}
