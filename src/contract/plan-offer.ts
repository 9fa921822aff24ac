/**
 * What each plan costs and adds, and how a workspace changes plan on this deployment: the
 * operator's settings (wrangler.toml [vars]) read into one answer that the site and workspace
 * reads carry, so the dashboard never states a price, a limit or a way to change plan that the
 * service does not hold. No zod here: the site object reads this on every `GET /sites/{siteId}`,
 * and its answer's schema (plan-schemas.ts) is only for the OpenAPI document and the dashboard.
 */
import { MEDIA_LIMITS } from "./limits";
import { entitlements, PLAN_LABEL, PLAN_LIMITS, PLANS, type Plan } from "./plans";
import type { PlanChangeView } from "./plan-schemas";

/** The operator's settings this reads; the Workers `Env` has them as strings (absent in some runs). */
export interface PlanSettings {
  SELF_SERVE_PLANS?: string;
  PLANS_CONTACT?: string;
  PLAN_PRICES?: string;
  PLAN_CURRENCY?: string;
}

/**
 * PLAN_PRICES as JSON (`{"starter": 9, …}`): a plan's monthly price, zero or more. A setting that
 * is not a JSON object sets no price; a plan left out, or given anything but such a number, has none.
 */
function prices(raw: string | undefined): Partial<Record<Plan, number>> {
  if (!raw?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  const given = parsed as Record<string, unknown>;
  const out: Partial<Record<Plan, number>> = {};
  for (const plan of PLANS) {
    const v = given[plan];
    if (typeof v === "number" && Number.isFinite(v) && v >= 0) out[plan] = v;
  }
  return out;
}

/**
 * A contact people can follow from a link: `mailto:` or `https:` only, so no setting becomes a
 * script URL; no spaces, quotes or angle brackets. (No `URL` here: the contract compiles without
 * DOM or Workers types.)
 */
function contact(raw: string | undefined): string | null {
  const value = raw?.trim() ?? "";
  return /^(mailto:[^\s"'<>]+@[^\s"'<>]+|https:\/\/[^\s"'<>/]+[^\s"'<>]*)$/i.test(value) ? value : null;
}

/** The plans and the way to change them, from the operator's settings. */
export function planChange(s: PlanSettings): PlanChangeView {
  const price = prices(s.PLAN_PRICES);
  const currency = /^[A-Z]{3}$/.test(s.PLAN_CURRENCY?.trim() ?? "") ? s.PLAN_CURRENCY!.trim() : "USD";
  return {
    selfServe: s.SELF_SERVE_PLANS?.trim().toLowerCase() === "on",
    contact: contact(s.PLANS_CONTACT),
    currency,
    plans: PLANS.map((plan) => ({
      plan,
      label: PLAN_LABEL[plan],
      pricePerMonth: price[plan] ?? null,
      limits: { ...PLAN_LIMITS[plan], mediaStorageBytes: MEDIA_LIMITS.storageBytes[plan] },
      ...entitlements(plan),
    })),
  };
}

/**
 * Why a self-serve move to `plan` cannot happen now: the workspace holds more sites or members than
 * it allows. Null when it fits. A downgrade never deletes anything, so the Owner removes them first.
 */
export function overPlanLimits(plan: Plan, usage: { sites: number; members: number }): string | null {
  const limit = PLAN_LIMITS[plan];
  const label = PLAN_LABEL[plan];
  if (usage.sites > limit.sites)
    return `This workspace has ${usage.sites} sites; the ${label} plan allows ${limit.sites}. Delete sites first, then change the plan.`;
  if (usage.members > limit.members)
    return `This workspace has ${usage.members} people, pending invitations included; the ${label} plan allows ${limit.members}. Remove people or revoke invitations first.`;
  return null;
}
