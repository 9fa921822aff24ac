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
