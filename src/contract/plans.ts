import { ApiError } from "./errors";

export const PLANS = ["starter", "pro", "seo_engine"] as const;
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
