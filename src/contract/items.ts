import { z } from "zod";
import { slugSchema } from "./fields";
import { MAX_BATCH } from "./limits";

export const itemInputSchema = z
  .object({
    slug: slugSchema,
    data: z.record(z.string(), z.unknown()).optional(),
    publish: z.boolean().optional(),
  })
  .strict();
export const batchInputSchema = z
  .object({ items: z.array(z.unknown()).min(1).max(MAX_BATCH, `at most ${MAX_BATCH} items per batch`) })
  .strict();
export const itemPatchSchema = z
  .object({ slug: slugSchema.optional(), data: z.record(z.string(), z.unknown()).optional() })
  .strict()
  .refine((p) => p.slug !== undefined || p.data !== undefined, { message: "send slug and/or data" });

export type ItemInput = z.infer<typeof itemInputSchema>;
