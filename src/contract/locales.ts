/**
 * A site's locales and an item's translations, as every side reads them: the codes (BCP 47, in
 * their canonical form), the field types a translation may hold, and the request and answer shapes.
 */
import { z } from "zod";
export { LOCALIZABLE_TYPES } from "./field-types";
import { slugSchema } from "./fields";
import { canonicalLocale, LOCALE_CODE_MAX } from "./locale-code";

export { canonicalLocale, LOCALE_CODE_MAX } from "./locale-code";

export const localeCodeSchema = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const code = canonicalLocale(raw);
    if (code === null) {
      ctx.addIssue({
        code: "custom",
        message: `"${raw.slice(0, LOCALE_CODE_MAX)}" is not a BCP 47 language tag (such as en, fr or es-MX)`,
      });
      return z.NEVER;
    }
    return code;
  })
  .describe("A BCP 47 language tag (`en`, `fr`, `es-MX`); stored and answered in its canonical form.");

/** `PUT /sites/:siteId/locales`: the whole set, the primary first. */
export const siteLocalesInputSchema = z
  .strictObject({
    primary: localeCodeSchema.describe("The locale of the items' own values (what a read without `locale` answers in)."),
    secondary: z
      .array(
        z.strictObject({
          code: localeCodeSchema,
          fallback: localeCodeSchema
            .optional()
            .describe("Where a value this locale has no translation of comes from: the primary (default) or another secondary."),
        }),
      )
      .max(20)
      .default([]),
    remove: z
      .array(localeCodeSchema)
      .max(20)
      .optional()
      .describe(
        "The secondaries this change removes that hold translations, named to confirm their translations go with them; without it such a change is a 409 saying how many each holds.",
      ),
  })
  .superRefine((input, ctx) => {
    const codes = new Set([input.primary]);
    input.secondary.forEach((l, i) => {
      if (codes.has(l.code)) ctx.addIssue({ code: "custom", path: ["secondary", i, "code"], message: `"${l.code}" is named twice` });
      codes.add(l.code);
    });
    input.secondary.forEach((l, i) => {
      if (l.fallback !== undefined && !codes.has(l.fallback))
        ctx.addIssue({ code: "custom", path: ["secondary", i, "fallback"], message: `"${l.fallback}" is not one of the site's locales` });
      if (l.fallback === l.code)
        ctx.addIssue({ code: "custom", path: ["secondary", i, "fallback"], message: "a locale cannot fall back to itself" });
    });
  });
export type SiteLocalesInput = z.infer<typeof siteLocalesInputSchema>;

export const SiteLocale = z.strictObject({
  code: z.string(),
  primary: z.boolean(),
  fallback: z.string().nullable().describe("The next locale of its chain (null for the primary)."),
  chain: z.array(z.string()).describe("Where its values come from, in order: itself, its fallbacks, the primary last."),
  translations: z.int().describe("Items translated into it (for the primary: every item)."),
});
export const SiteLocales = z.strictObject({ locales: z.array(SiteLocale).describe("The primary first, then the secondaries in order.") });

/** `PUT /sites/:siteId/collections/:slug/items/:id/locales/:locale`: one item's translation, whole. */
export const translationInputSchema = z.strictObject({
  slug: slugSchema.describe("The item's slug in this locale, unique within the collection and locale."),
  data: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("Values of the collection's localized fields; a field left out takes its value from the locale's fallback chain."),
});

export const Translation = z.strictObject({
  locale: z.string(),
  slug: z.string(),
  data: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
