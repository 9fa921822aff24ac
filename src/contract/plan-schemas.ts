/** The schemas of the plans' answer and the plan change (plan-offer.ts builds the answer). */
import { z } from "zod";
import { PLANS } from "./plans";

export const PlanChangeBody = z
  .object({ plan: z.enum(PLANS).describe("The plan the workspace moves to.") })
  .strict()
  .describe("The workspace's new plan.");

const PlanOffer = z.strictObject({
  plan: z.enum(PLANS),
  label: z.string().describe("The plan's name as people read it."),
  pricePerMonth: z
    .number()
    .nonnegative()
    .nullable()
    .describe("The monthly price in `currency` (the operator's PLAN_PRICES); null when the operator set none."),
  limits: z.strictObject({
    sites: z.number().int().describe("Sites per workspace."),
    members: z.number().int().describe("Members per workspace, pending invitations included."),
    locales: z.number().int().describe("Locales per site, the primary included."),
    mediaStorageBytes: z.number().int().describe("Media originals stored by all the workspace's sites together."),
  }),
  features: z.strictObject({ advancedLists: z.boolean(), serverRendering: z.boolean() }),
  flags: z.strictObject({ aiSearch: z.boolean() }),
});

export const PlanChange = z
  .strictObject({
    selfServe: z
      .boolean()
      .describe("Whether the workspace's Owner may change its plan (`PUT /workspaces/{id}/plan`); the operator's SELF_SERVE_PLANS."),
    contact: z
      .string()
      .nullable()
      .describe("Where to ask for another plan (a `mailto:` or `https:` address, the operator's PLANS_CONTACT); null when not set."),
    currency: z.string().describe("The currency of every `pricePerMonth` (ISO 4217, the operator's PLAN_CURRENCY)."),
    plans: z.array(PlanOffer).describe("Every plan, lowest first: price, limits and what it allows."),
  })
  .describe("What each plan costs and adds on this deployment, and how to change plan.");
export type PlanChangeView = z.infer<typeof PlanChange>;
