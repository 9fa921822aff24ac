import { describe, expect, it } from "vitest";
import { overPlanLimits, planChange } from "../../src/contract/plan-offer";

describe("planChange: the operator's plan settings", () => {
  it("is self-serve only when SELF_SERVE_PLANS is on, and lists every plan with the contract's limits", () => {
    expect(planChange({ SELF_SERVE_PLANS: "on" }).selfServe).toBe(true);
    expect(planChange({ SELF_SERVE_PLANS: " ON " }).selfServe).toBe(true);
    for (const v of [undefined, "", "off", "true", "yes"]) expect(planChange({ SELF_SERVE_PLANS: v }).selfServe).toBe(false);
    const pc = planChange({});
    expect(pc.plans.map((p) => [p.plan, p.limits.sites, p.limits.members, p.features.serverRendering, p.flags.aiSearch])).toEqual([
      ["free", 1, 3, false, false],
      ["starter", 3, 5, false, false],
      ["pro", 10, 25, false, true],
      ["seo_engine", 25, 50, true, true],
    ]);
    expect(pc.contact).toBeNull();
    expect(pc.currency).toBe("USD");
  });

  it("takes a mailto: or https: contact and nothing a link could run", () => {
    expect(planChange({ PLANS_CONTACT: "mailto:sales@example.com" }).contact).toBe("mailto:sales@example.com");
    expect(planChange({ PLANS_CONTACT: " https://example.com/pricing " }).contact).toBe("https://example.com/pricing");
    for (const bad of ["javascript:alert(1)", "http://example.com", "sales@example.com", "mailto:", 'https://x.test/"onclick', "https://"])
      expect(planChange({ PLANS_CONTACT: bad }).contact, bad).toBeNull();
  });

  it("reads PLAN_PRICES per plan; anything else sets no price", () => {
    const priced = planChange({ PLAN_PRICES: '{"free":0,"pro":29.5,"starter":-1,"seo_engine":"99","gold":5}', PLAN_CURRENCY: "EUR" });
    expect(priced.plans.map((p) => p.pricePerMonth)).toEqual([0, null, 29.5, null]);
    expect(priced.currency).toBe("EUR");
    for (const bad of ["", "not json", "[1,2]", "null", "9"])
      expect(planChange({ PLAN_PRICES: bad }).plans.every((p) => p.pricePerMonth === null)).toBe(true);
    expect(planChange({ PLAN_CURRENCY: "euro" }).currency).toBe("USD");
  });

  it("refuses a plan the workspace does not fit, sites first", () => {
    expect(overPlanLimits("free", { sites: 1, members: 3 })).toBeNull();
    expect(overPlanLimits("free", { sites: 2, members: 9 })).toMatch(/^This workspace has 2 sites; the Free plan allows 1\./);
    expect(overPlanLimits("starter", { sites: 1, members: 6 })).toMatch(/^This workspace has 6 people, pending invitations included/);
  });
});
