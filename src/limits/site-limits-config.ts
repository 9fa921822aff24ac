/**
 * The numbers of the limits a site object counts (src/contract/limits.ts SITE_LIMITS) as this
 * deployment sets them: wrangler var `RATE_LIMITS` (JSON, any policy by plan, and `share`)
 * overrides them, `RATE_LIMIT_SCALE` multiplies them all (the load-test switch). Read by the site
 * object, which counts, and by the front Worker, which names them in `RateLimit-Policy`.
 */
import { SITE_LIMIT_SHARE, SITE_LIMIT_WINDOW, SITE_LIMITS, type SiteLimitName, type SiteLimitsOverride } from "../contract/limits";
import { PLANS, type Plan } from "../contract/plans";
import { log } from "../log";

export interface LimitVars {
  RATE_LIMITS?: string;
  RATE_LIMIT_SCALE?: string;
}

export interface SiteLimitConfig {
  quota(name: SiteLimitName, plan: Plan): number;
  share: number;
}

const parsed = new WeakMap<LimitVars, SiteLimitConfig>();

export function siteLimitConfig(env: LimitVars): SiteLimitConfig {
  let config = parsed.get(env);
  if (!config) parsed.set(env, (config = parse(env)));
  return config;
}

function parse(env: LimitVars): SiteLimitConfig {
  let override: SiteLimitsOverride = {};
  if (env.RATE_LIMITS) {
    const result = readOverride(safeJson(env.RATE_LIMITS));
    if (typeof result === "string") log("config_invalid", { name: "RATE_LIMITS", error: result });
    else override = result;
  }
  const scale = Number(env.RATE_LIMIT_SCALE ?? "1");
  const factor = Number.isFinite(scale) && scale > 0 ? scale : 1;
  return {
    quota: (name, plan) => Math.floor((override[name]?.[plan] ?? SITE_LIMITS[name][plan]) * factor),
    share: override.share ?? SITE_LIMIT_SHARE,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The override, or what is wrong with it. */
function readOverride(value: unknown): SiteLimitsOverride | string {
  if (!isRecord(value)) return "not a JSON object";
  const out: SiteLimitsOverride = {};
  for (const [name, byPlan] of Object.entries(value)) {
    if (name === "share") {
      if (typeof byPlan !== "number" || !(byPlan > 0 && byPlan <= 1)) return "share: a number above 0, at most 1";
      out.share = byPlan;
      continue;
    }
    if (!(name in SITE_LIMITS)) return `${name}: not a site limit (${Object.keys(SITE_LIMITS).join(", ")}, share)`;
    if (!isRecord(byPlan)) return `${name}: an object of numbers by plan`;
    const numbers: Partial<Record<Plan, number>> = {};
    for (const [plan, n] of Object.entries(byPlan)) {
      if (!(PLANS as readonly string[]).includes(plan)) return `${name}.${plan}: not a plan (${PLANS.join(", ")})`;
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0) return `${name}.${plan}: a whole number, 0 or more`;
      numbers[plan as Plan] = n;
    }
    out[name as SiteLimitName] = numbers;
  }
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The `RateLimit-Policy` item of a site limit (draft-ietf-httpapi-ratelimit-headers-11). */
export function sitePolicyItem(name: SiteLimitName, quota: number): string {
  return `"${name === "siteWrites" ? "site-writes" : name}";q=${quota};w=${SITE_LIMIT_WINDOW}`;
}

/** The `RateLimit-Policy` value of a content read of a site on `plan`: `reads`, and `search` for a search. */
export function readPolicies(env: LimitVars, plan: Plan, search: boolean): string {
  const c = siteLimitConfig(env);
  const reads = sitePolicyItem("reads", c.quota("reads", plan));
  return search ? `${reads}, ${sitePolicyItem("search", c.quota("search", plan))}` : reads;
}
