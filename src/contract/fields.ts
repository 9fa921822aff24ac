import { z } from "zod";
import { SLUG_MAX, SLUG_PATTERN, SLUG_RULE } from "./slug";
import { CURRENCY_PATTERN, FIELD_TYPES, INDEXABLE_TYPES, LOCALIZABLE_TYPES } from "./field-types";
import { FIELD_KEY, MAX_OPTIONS, SYSTEM_KEYS } from "./field-keys";

export { FIELD_KEY, MAX_OPTIONS, SYSTEM_KEYS, SYSTEM_SORT_KEYS } from "./field-keys";

/** One choice of an Option field: `value` is what the API stores and returns, `label` what people see. */
export const optionSchema = z
  .object({
    value: z.string().trim().min(1).max(100),
    label: z.string().trim().min(1).max(200).optional(),
  })
  .strict();

export const slugSchema = z.string().max(SLUG_MAX).regex(SLUG_PATTERN, `must be a slug (${SLUG_RULE})`);

export const fieldSchema = z
  .object({
    key: z
      .string()
      .regex(FIELD_KEY, "must start with a letter and hold only letters, digits and _ (max 64)")
      .refine((k) => !(SYSTEM_KEYS as readonly string[]).includes(k), {
        message: `is reserved (${SYSTEM_KEYS.join(", ")})`,
      }),
    type: z.enum(FIELD_TYPES),
    name: z.string().max(200).optional().describe('The label people see in the dashboard ("Cover image"); the API uses `key`.'),
    help: z.string().max(500).optional().describe("Help text shown under the field in the item form."),
    indexed: z.boolean().optional(),
    required: z.boolean().optional(),
    localized: z
      .boolean()
      .optional()
      .describe(
        "Whether each locale of the site holds its own value (text, rich text and link fields); other fields are shared by every locale.",
      ),
    collection: slugSchema.optional(),
    options: z
      .array(optionSchema)
      .min(1)
      .max(MAX_OPTIONS)
      .optional()
      .describe("An option field's choices, in order; items hold (and the API returns) one choice's `value`."),
    currency: z
      .string()
      .regex(CURRENCY_PATTERN, "must be an ISO 4217 currency code in capitals, such as EUR or USD")
      .optional()
      .describe(
        "A decimal field's currency (ISO 4217), when its values are amounts of money: what the dashboard and snippets show them in.",
      ),
  })
  .strict()
  .superRefine((f, ctx) => {
    const needsTarget = f.type === "reference" || f.type === "references";
    if (needsTarget && !f.collection) {
      ctx.addIssue({ code: "custom", path: ["collection"], message: `a ${f.type} field needs a target collection` });
    }
    if (!needsTarget && f.collection) {
      ctx.addIssue({ code: "custom", path: ["collection"], message: "only reference fields take a collection" });
    }
    if (f.type === "option" && !f.options) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "an option field needs its options ([{value, label?}, …])" });
    }
    if (f.type !== "decimal" && f.currency) {
      ctx.addIssue({ code: "custom", path: ["currency"], message: "only decimal fields take a currency" });
    }
    if (f.type !== "option" && f.options) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "only option fields take options" });
    }
    const values = new Set<string>();
    f.options?.forEach((o, i) => {
      if (values.has(o.value)) ctx.addIssue({ code: "custom", path: ["options", i, "value"], message: `duplicate option "${o.value}"` });
      values.add(o.value);
    });
    if (f.localized && !LOCALIZABLE_TYPES.has(f.type)) {
      ctx.addIssue({
        code: "custom",
        path: ["localized"],
        message: `a ${f.type} field is shared by every locale (localizable: ${[...LOCALIZABLE_TYPES].join(", ")})`,
      });
    }
    if (f.indexed && !INDEXABLE_TYPES.has(f.type)) {
      ctx.addIssue({
        code: "custom",
        path: ["indexed"],
        message: `a ${f.type} field cannot be indexed (indexable: ${[...INDEXABLE_TYPES].join(", ")})`,
      });
    }
  });

export type Field = z.infer<typeof fieldSchema>;

export const collectionInputSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    fields: z.array(fieldSchema).max(100),
  })
  .strict()
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.fields.forEach((f, i) => {
      if (seen.has(f.key)) ctx.addIssue({ code: "custom", path: ["fields", i, "key"], message: `duplicate key "${f.key}"` });
      seen.add(f.key);
    });
  });

export type CollectionInput = z.infer<typeof collectionInputSchema>;
