import { z } from "zod";
import { slugSchema } from "./fields";
import { isHttpUrl } from "./urls";

const httpUrl = z.string().refine(isHttpUrl, "must be an absolute http(s) URL");
export const seoSchema = z
  .object({
    titleField: z.string().max(64),
    descriptionField: z.string().max(64),
    imageField: z.string().max(64),
    authorField: z.string().max(64),
    siteName: z.string().max(200),
    publisher: z.string().max(200),
    feedItems: z.number().int().min(1).max(500),
  })
  .partial()
  .strict();
export const captureSchema = z
  .object({
    pageUrl: httpUrl,
    publicUrl: httpUrl.optional(),
    collection: slugSchema,
    showsList: z.boolean().optional(),
    seo: seoSchema.optional(),
    webhookSigningSecret: z.string().min(8).max(512).optional(),
  })
  .strict();
