import { ApiError } from "./errors";

/** `free`: what a person's own new workspace starts on (self-serve); starter's features, fewer sites and members. */
export const PLANS = ["free", "starter", "pro", "seo_engine"] as const;
export type Plan = (typeof PLANS)[number];

export interface Entitlements {
  features: { advancedLists: boolean; serverRendering: boolean };
  flags: { aiSearch: boolean };
}

/** What a plan allows. Checked per request against the site's workspace plan. */
export function entitlements(plan: Plan): Entitlements {
  const proOrAbove = plan === "pro" || plan === "seo_engine";
  return {
    features: { advancedLists: proOrAbove, serverRendering: plan === "seo_engine" },
    flags: { aiSearch: proOrAbove },
  };
}

/**
 * How many sites and members (pending invitations count) a workspace of each plan may have,
 * enforced on self-serve site creation and on invitations, and how many locales (the primary
 * included) each of its sites may have. The operator is not held to the first two.
 */
export const PLAN_LIMITS: Readonly<Record<Plan, { sites: number; members: number; locales: number }>> = {
  free: { sites: 1, members: 3, locales: 1 },
  starter: { sites: 3, members: 5, locales: 2 },
  pro: { sites: 10, members: 25, locales: 5 },
  seo_engine: { sites: 25, members: 50, locales: 10 },
};

const NEXT_PLAN: Readonly<Record<Plan, Plan | null>> = { free: "starter", starter: "pro", pro: "seo_engine", seo_engine: null };

/** How a person reads a plan's name (the dashboard's Plan screen says the same). */
export const PLAN_LABEL: Readonly<Record<Plan, string>> = { free: "Free", starter: "Starter", pro: "Pro", seo_engine: "SEO Engine" };

/** The one 403 for a plan's limit: which, how many, and the plan that allows more. */
export function planLimit(plan: Plan, limit: "sites" | "members" | "locales"): ApiError {
  const max = PLAN_LIMITS[plan][limit];
  const next = NEXT_PLAN[plan];
  // In the words of the Plan screen ("3 people"), with pending invitations said, since they count.
  const what =
    limit === "sites"
      ? max === 1
        ? "1 site"
        : `${max} sites`
      : limit === "locales"
        ? max === 1
          ? "one locale a site (its primary)"
          : `${max} locales a site, the primary included`
        : `${max} people, pending invitations included`;
  return new ApiError(
    "plan_required",
    `This workspace's plan (${PLAN_LABEL[plan]}) allows ${what}${next ? `; the ${PLAN_LABEL[next]} plan allows more` : ""}. The Plan screen of the dashboard says how to change plans.`,
    { limit, max, requiredPlan: next },
  );
}

type Feature = "advancedLists" | "aiSearch" | "serverRendering";

const NEEDS: Record<Feature, { message: string; requiredPlan: Plan }> = {
  advancedLists: { message: "Filtering and search need the Pro plan or above.", requiredPlan: "pro" },
  aiSearch: { message: "Semantic search and related items need the Pro plan or above.", requiredPlan: "pro" },
  serverRendering: { message: "Server-side rendering needs the SEO Engine plan.", requiredPlan: "seo_engine" },
};

/** The one 403 for a feature the site's plan lacks: which feature, and the plan that has it. */
export function planRequired(feature: Feature): ApiError {
  const { message, requiredPlan } = NEEDS[feature];
  return new ApiError("plan_required", message, { feature, requiredPlan });
}
