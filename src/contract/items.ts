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
/** Items published in one call (`publishItems`): each id once, all in the collection, all or nothing. */
export const publishItemsSchema = z
  .object({
    ids: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(MAX_BATCH, `at most ${MAX_BATCH} items per call`)
      .refine((ids) => new Set(ids).size === ids.length, { message: "each id at most once" }),
  })
  .strict();
export const itemPatchSchema = z
  .object({ slug: slugSchema.optional(), data: z.record(z.string(), z.unknown()).optional() })
  .strict()
  .refine((p) => p.slug !== undefined || p.data !== undefined, { message: "send slug and/or data" });

export type ItemInput = z.infer<typeof itemInputSchema>;
