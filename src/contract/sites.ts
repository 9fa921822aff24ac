import { z } from "zod";
import { PLANS } from "./plans";
import { isHttpUrl } from "./urls";

const name = z.string().trim().min(1).max(200);
export const workspaceCreate = z.object({ name, plan: z.enum(PLANS) }).strict();
export const workspacePatch = z
  .object({ name: name.optional(), plan: z.enum(PLANS).optional() })
  .strict()
  .refine((p) => p.name !== undefined || p.plan !== undefined, { message: "send name and/or plan" });
export const siteCreate = z
  .object({ name, workspaceId: z.string().optional(), plan: z.enum(PLANS).optional() })
  .strict()
  .refine((s) => !(s.workspaceId && s.plan), {
    message: "a site in an existing workspace takes that workspace's plan; change the plan with PATCH /workspaces/:id",
    path: ["plan"],
  });

export const sitePatchSchema = z.object({ name: z.string().trim().min(1).max(200).optional() }).strict();

export const mediaInputSchema = z
  .object({
    url: z.string().refine(isHttpUrl, "must be an absolute http(s) URL"),
    alt: z.string().max(1000).optional(),
    width: z.number().int().positive().max(100_000).optional(),
    height: z.number().int().positive().max(100_000).optional(),
  })
  .strict();

export const mediaPatchSchema = z.object({ alt: z.string().max(1000) }).strict();

export const signInSchema = z.object({ key: z.string().trim().min(1, "enter your admin key").max(200) }).strict();
