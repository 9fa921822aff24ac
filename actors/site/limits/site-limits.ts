/**
 * The limits a site object counts itself (src/contract/limits.ts SITE_LIMITS, docs/rate-limits.md): exact, since every request of the site reaches this one object, and by the site's
 * plan, which only the object knows for certain. Reads and model calls are shared fairly between
 * clients (src/shared/fair-window.ts); writes are counted per credential and for the whole site.
 * A refusal is a 429 in the error envelope; REFUSED_HEADER tells the front Worker to refuse the
 * same client (and site) from memory until its Retry-After, without another call here.
 */
import { ApiError } from "../../../src/contract/errors";
import { REFUSED_HEADER } from "../../../src/contract/headers";
import { RATELIMIT_POLICY_HEADER, SITE_LIMIT_WINDOW, type SiteLimitName } from "../../../src/contract/limits";
import { type LimitVars, siteLimitConfig, sitePolicyItem } from "../../../src/limits/site-limits-config";
import type { Plan } from "../../../src/contract/plans";
import { FairWindow } from "../../../src/shared/fair-window";
import { log } from "../../../src/log";

/** Distinct clients (or credentials) counted apart per window; more count together. */
const MAX_KEYS = 10_000;
/** Other clients "read too" once they use this part of the quota between them. */
const PRESENT = 0.01;

export class SiteLimits {
  readonly #config: ReturnType<typeof siteLimitConfig>;
  readonly #windows: Record<SiteLimitName, FairWindow>;
  readonly #siteId: () => string | undefined;
  // The window in which each kind of refusal was last logged: one line per kind and window, not per request.
  readonly #logged = new Map<string, number>();

  constructor(env: LimitVars, siteId: () => string | undefined) {
    this.#siteId = siteId;
    this.#config = siteLimitConfig(env);
    const fair = (share: number) => new FairWindow({ windowMs: SITE_LIMIT_WINDOW * 1000, maxKeys: MAX_KEYS, share, present: PRESENT });
    this.#windows = {
      reads: fair(this.#config.share),
      search: fair(this.#config.share),
      // A credential's writes have a quota of their own (share 1); the site's writes together another.
      writes: fair(1),
      siteWrites: fair(1),
    };
  }

  /** Counts one read miss (or model call) of `client`; throws the 429 once its share or the site's quota is spent. */
  take(name: "reads" | "search", client: string, plan: Plan): void {
    const quota = this.#config.quota(name, plan);
    const verdict = this.#windows[name].take(client, quota, Date.now());
    if (verdict) throw this.#refuse(name, quota, verdict.retryAfter, verdict.by === "key" ? "client" : "site");
  }

  /** Counts one write of `credential`: its own quota, then the site's. */
  write(credential: string, plan: Plan): void {
    const now = Date.now();
    const mine = this.#config.quota("writes", plan);
    const site = this.#config.quota("siteWrites", plan);
    // The site's count is only spent by a write the credential's own quota allows.
    if (this.#windows.writes.count(credential, now) + 1 > mine) {
      throw this.#refuse("writes", mine, retryAfterOf(now), "credential");
    }
    const verdict = this.#windows.siteWrites.take("site", site, now);
    if (verdict) throw this.#refuse("siteWrites", site, verdict.retryAfter, "site");
    this.#windows.writes.take(credential, mine, now);
  }

  #refuse(name: SiteLimitName, quota: number, retryAfter: number, per: "client" | "site" | "credential"): ApiError {
    const window = Math.floor(Date.now() / (SITE_LIMIT_WINDOW * 1000));
    const kind = `${name}|${per}`;
    if (this.#logged.get(kind) !== window) {
      this.#logged.set(kind, window);
      log("rate_limited", { siteId: this.#siteId(), policy: name, per, quota, retryAfter });
    }
    return siteRefusal(name, quota, retryAfter, per);
  }

  /** The `RateLimit-Policy` value of a write's answer for this site's plan. */
  writePolicies(plan: Plan): string {
    return `${sitePolicyItem("writes", this.#config.quota("writes", plan))}, ${sitePolicyItem("siteWrites", this.#config.quota("siteWrites", plan))}`;
  }
}

const retryAfterOf = (now: number): number =>
  Math.max(1, Math.ceil((SITE_LIMIT_WINDOW * 1000 - (now % (SITE_LIMIT_WINDOW * 1000))) / 1000));

const WHAT: Record<SiteLimitName, string> = {
  reads: "uncached reads",
  search: "new search queries",
  writes: "writes",
  siteWrites: "writes",
};

function siteRefusal(name: SiteLimitName, quota: number, retryAfter: number, by: "client" | "site" | "credential"): ApiError {
  const whose =
    by === "client"
      ? `this client's share of the site's ${quota} ${WHAT[name]} per ${SITE_LIMIT_WINDOW} s (other visitors are reading too)`
      : by === "credential"
        ? `${quota} ${WHAT[name]} per ${SITE_LIMIT_WINDOW} s for this credential`
        : `the site's ${quota} ${WHAT[name]} per ${SITE_LIMIT_WINDOW} s on its plan`;
  return new ApiError(
    "rate_limited",
    `Too many requests: ${whose}. Retry after ${retryAfter} seconds.`,
    { retryAfterSeconds: retryAfter, policy: name, per: by },
    {
      "retry-after": String(retryAfter),
      [RATELIMIT_POLICY_HEADER]: sitePolicyItem(name, quota),
      [REFUSED_HEADER]: name,
    },
  );
}
