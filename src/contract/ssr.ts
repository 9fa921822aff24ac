import { z } from "zod";
import { slugSchema } from "./fields";
import { isHttpUrl } from "./urls";
import { SCHEMA_TYPES } from "./schema-types";

export { SCHEMA_TYPES, type SchemaType } from "./schema-types";

const httpUrl = z.string().refine(isHttpUrl, "must be an absolute http(s) URL");

/** A property path (`offers.price`) to the field key that fills it; `""` leaves a property unfilled on purpose. */
export const schemaFieldsSchema = z.record(
  z
    .string()
    .regex(/^[a-zA-Z]+(?:\.[a-zA-Z]+){0,3}$/)
    .max(64),
  z.string().max(64),
);
export const richResultsSchema = z.strictObject({
  type: z.enum(SCHEMA_TYPES),
  fields: schemaFieldsSchema.optional(),
  expiredNoindex: z
    .boolean()
    .optional()
    .describe("A job past its closing date, or an event that has ended, is kept out of search results (`noindex`). Default false."),
});
export const seoSchema = z
  .object({
    titleField: z.string().max(64),
    descriptionField: z.string().max(64),
    imageField: z.string().max(64),
    authorField: z.string().max(64),
    siteName: z.string().max(200),
    publisher: z.string().max(200),
    feedItems: z.number().int().min(1).max(500),
    richResults: richResultsSchema,
    /** Days a deleted or unpublished item's page answers 410 Gone before it is a 404 (0, the default: 404 at once). */
    goneDays: z.number().int().min(0).max(365),
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
